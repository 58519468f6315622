"""Content packs: cards an author uploads, checked by the loader before they are imported.

A pack is staged in a temporary folder, laid out as ``<ruleset id>/<file>.yaml`` (the folder
is chosen from the cards' own ``ruleset``, never from a path in the upload), and loaded with
``quiz.content.loader`` against the shipped rulesets. Its card ids must be new: neither a
shipped card, a card of the local content folder nor a stored pack's card may be replaced.
The report carries the files as staged; ``quiz.db.packs`` imports a pack without any problem
into the database, all or nothing, where every server reads it.

The local content folder (``QUIZ_CONTENT_DIR``) is read, never written: card files an
operator puts there, and the packs an earlier release imported into it, are every store's.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from quiz.content.card_kinds import default_verdict
from quiz.content.loader import DUPLICATE_CARD_ID, PROJECT_ROOT, RULESETS_DIR, SCENARIOS_DIR, card_files, load_content
from quiz.content.uploads import PackFile, UploadLimits, read_upload
from quiz.content.yaml_source import YamlProblem, count_nodes, locate, parse_yaml
from quiz.model.cards import AnyCard
from quiz.model.errors import Problem
from quiz.model.verdict import Verdict
from quiz.model.words import Wording

if TYPE_CHECKING:  # imported by the tables below only: every page reads content_dir
    import pandas as pd

GUIDES_DIR = PROJECT_ROOT / "docs" / "guide"  # authoring.<language>.md: the guide the Content page shows
CONTENT_DIR_ENV = "QUIZ_CONTENT_DIR"
DEFAULT_CONTENT_DIR = PROJECT_ROOT / "content"
UNSORTED_FOLDER = "unsorted"  # for files whose cards name no usable ruleset: the loader reports why
PROBLEM_COLUMNS = ["file", "line", "field", "message"]
_FOLDER_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]+")


def authoring_guide(language: str, folder: Path = GUIDES_DIR) -> str | None:
    """The authors' guide in ``language`` (English when there is none in it): Markdown written
    by the project for store staff who write cards; None when it is not installed."""
    for name in (f"authoring.{language}.md", "authoring.en.md"):
        try:
            return (folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return None


def content_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The local content folder (read only): ``$QUIZ_CONTENT_DIR``, else ``<project>/content``."""
    configured = environ.get(CONTENT_DIR_ENV)
    return Path(configured) if configured else DEFAULT_CONTENT_DIR


@dataclass(frozen=True, slots=True)
class CardPreview:
    """A card of a pack as loaded, with the engine's verdict for a scenario card."""

    file: str
    card: AnyCard
    verdict: Verdict | None


@dataclass
class PackReport:
    """What a pack holds and every problem with it; ``imported`` (the pack's name) once imported."""

    upload: str
    files: list[str] = field(default_factory=list)
    cards: list[CardPreview] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    staged: dict[str, str] = field(default_factory=dict)  # <ruleset id>/<file>.yaml -> text, as checked
    imported: str | None = None

    @property
    def ok(self) -> bool:
        """A pack with cards and no problem: it may be imported."""
        return bool(self.cards) and not self.problems


DEFAULT_LIMITS = UploadLimits()


def check_pack(
    upload: str, data: bytes, folder: Path, *, rulesets_dir: Path = RULESETS_DIR,
    shipped: Sequence[Path] = (SCENARIOS_DIR,), taken: Mapping[str, str] | None = None,
    limits: UploadLimits = DEFAULT_LIMITS,
) -> PackReport:
    """Check an upload as a pack: every problem, a preview of its cards, its files as staged.
    Its card ids must not be in ``shipped``, the local content ``folder`` or ``taken`` (the
    stored packs' card ids; a problem says only that such an id is taken, never by which pack)."""
    read = read_upload(upload, data, limits)
    report = PackReport(upload, [f.name for f in read.files], problems=list(read.problems))
    if not read.files:
        if not report.problems:
            report.problems.append(Problem(upload, 1, "cards", Wording("problem.pack.no_card_file")))
        return report
    nodes = 0
    for pack_file in read.files:  # counted before anything is built: a node costs the server memory and time
        nodes += count_nodes(pack_file.text, limits.nodes - nodes)
        if nodes > limits.nodes:
            report.problems.append(Problem(upload, 1, "cards", Wording(
                "problem.pack.too_many_nodes", limit=f"{limits.nodes:,}")))
            return report
    parsed = [_parsed(f.text) for f in read.files]
    count = sum(len(_card_ids(data)) for data in parsed)
    if count > limits.cards:  # checking costs time per card: refuse before any of it
        report.problems.append(Problem(upload, 1, "cards", Wording(
            "problem.pack.too_many_cards", cards=count, limit=limits.cards)))
        return report
    with tempfile.TemporaryDirectory(prefix="quiz-pack-") as temporary:
        staging = Path(temporary)
        staged = _stage(read.files, parsed, staging)
        loaded = load_content(rulesets_dir, [staging], base=staging)
    report.problems += _pack_problems(loaded.problems, staged)
    # a stored pack's name holds its uploader's file name, maybe another store's: not said
    report.problems += _taken_ids(loaded.cards, loaded.card_files, staged,
                                  {**dict.fromkeys(taken or {}), **existing_card_ids([*shipped, folder])})
    previews = [
        CardPreview(staged[loaded.card_files[card.id]][0], card, default_verdict(loaded.rulesets[card.ruleset], card))
        for card in loaded.cards.values()
    ]
    report.cards = sorted(previews, key=lambda p: report.files.index(p.file))  # upload order
    report.problems.sort(key=lambda p: (_file_order(report, p.path), p.line))  # one list, file by file
    if not report.cards and not report.problems:
        report.problems.append(Problem(upload, 1, "cards", Wording("problem.pack.no_card")))
    report.staged = {path: text for path, (_, text) in staged.items()}
    return report


def existing_card_ids(roots: Iterable[Path]) -> dict[str, str]:
    """Card id -> the file that holds it, for every card file under ``roots``.

    Read leniently (a broken file still claims the ids it names), so that fixing it later
    can never create a duplicate. Files are shown relative to the parent of their root.
    """
    found: dict[str, str] = {}
    for root in roots:
        for path in card_files([root]):
            try:
                data = parse_yaml(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, YamlProblem):
                continue
            shown = path.relative_to(root.parent).as_posix() if root.is_dir() else path.name
            for card_id in _card_ids(data):
                found.setdefault(card_id, shown)
    return found


def problems_frame(problems: Iterable[Problem], language: str) -> pd.DataFrame:
    """Problems as a table: ``file, line, field, message``, the message in ``language``."""
    import pandas as pd

    return pd.DataFrame.from_records(
        [(p.path, p.line, p.field, p.wording.say(language)) for p in problems], columns=PROBLEM_COLUMNS
    ).astype({"line": "int64"})


def _file_order(report: PackReport, path: str) -> int:
    """Where a problem's file is in the upload (problems with the upload itself come first)."""
    return report.files.index(path) if path in report.files else -1


def _parsed(text: str) -> Any:
    """The data of a card file, or None when it does not parse (the loader reports why)."""
    try:
        return parse_yaml(text)
    except YamlProblem:
        return None


def _stage(files: Sequence[PackFile], parsed: Sequence[Any], staging: Path) -> dict[str, tuple[str, str]]:
    """Write each file under ``staging/<ruleset>/``; staged path -> (uploaded name, text)."""
    staged: dict[str, tuple[str, str]] = {}
    for pack_file, data in zip(files, parsed):
        ruleset = _ruleset_folder(data)
        stem = _UNSAFE_NAME_CHARS.sub("-", PurePosixPath(pack_file.name.replace("\\", "/")).stem).strip("-")[:80]
        stem = stem or "cards"
        relative = f"{ruleset}/{stem}.yaml"
        n = 1
        while relative in staged:
            n += 1
            relative = f"{ruleset}/{stem}-{n}.yaml"
        path = staging / relative
        if not path.resolve().is_relative_to(staging.resolve()):  # cannot happen with the names above
            raise ValueError(f"refusing to write outside the staging folder: {relative}")
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(pack_file.text.encode("utf-8"))
        staged[relative] = (pack_file.name, pack_file.text)
    return staged


def _ruleset_folder(data: Any) -> str:
    """The folder for a card file (its parsed data): the ruleset of its first card, if it is a plain id."""
    cards = data.get("cards") if isinstance(data, dict) else None
    for card in cards if isinstance(cards, list) else []:
        ruleset = card.get("ruleset") if isinstance(card, dict) else None
        if isinstance(ruleset, str) and _FOLDER_NAME.match(ruleset) and ruleset != UNSORTED_FOLDER:
            return ruleset
    return UNSORTED_FOLDER


def _pack_problems(problems: Iterable[Problem], staged: Mapping[str, tuple[str, str]]) -> list[Problem]:
    """The loader's problems with the pack's files, named as uploaded (also the file a
    duplicate card id is first in)."""
    found = []
    for problem in problems:
        if problem.path not in staged:
            continue  # a shipped ruleset's problem: the content health panel shows it
        wording = problem.wording
        first_in = dict(wording.values).get("first_in") if wording.key == DUPLICATE_CARD_ID else None
        if isinstance(first_in, str) and first_in in staged:
            wording = wording.replaced(first_in=staged[first_in][0])
        found.append(Problem(staged[problem.path][0], problem.line, problem.field, wording))
    return found


def _taken_ids(
    cards: Mapping[str, AnyCard], card_files_of: Mapping[str, str],
    staged: Mapping[str, tuple[str, str]], existing: Mapping[str, str | None],
) -> list[Problem]:
    """A problem for each card of the pack whose id ``existing`` (card id -> where; None: an
    imported pack, not named) holds."""
    indexes: dict[str, dict[str, int]] = {}  # staged file -> card id -> index, each file parsed once
    found = []
    for card_id in cards:
        if card_id not in existing:
            continue
        staged_path = card_files_of[card_id]
        name, text = staged[staged_path]
        if staged_path not in indexes:
            indexes[staged_path] = {}
            for n, other in enumerate(_card_ids(parse_yaml(text))):
                indexes[staged_path].setdefault(other, n)
        index = indexes[staged_path][card_id]
        found.append(Problem(
            name, locate(text, ("cards", index, "id")), f"cards[{index}].id",
            Wording("problem.pack.id_taken", id=repr(card_id), used_by=used_by) if (used_by := existing[card_id])
            else Wording("problem.pack.id_taken_by_a_pack", id=repr(card_id)),
        ))
    return found


def _card_ids(data: object) -> list[str]:
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        return []
    return [c["id"] if isinstance(c, dict) and isinstance(c.get("id"), str) else "" for c in cards]


def pack_name(upload: str) -> str:
    """A new folder name: the upload's name made safe, the time and a random suffix."""
    stem = _UNSAFE_NAME_CHARS.sub("-", PurePosixPath(upload.replace("\\", "/")).stem).strip("-").lower()[:40]
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stem or 'pack'}-{stamp}-{secrets.token_hex(3)}"
