"""Content packs: cards an author uploads, checked by the loader and imported all or nothing.

A pack is staged in a hidden folder inside the local content folder, laid out as
``<ruleset id>/<file>.yaml`` (the folder is chosen from the cards' own ``ruleset``, never
from a path in the upload), and loaded with ``quiz.loader`` against the shipped rulesets.
Its card ids must be new: neither a shipped card nor an earlier import may be replaced.
Only a pack without any problem is imported, by renaming the staged folder to
``<content>/<pack>/`` in one step; anything else is deleted.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence


from quiz.card_model import KnowledgeCard, ScenarioCard
from quiz.engine import judge
from quiz.errors import Problem
from quiz.loader import PROJECT_ROOT, RULESETS_DIR, SCENARIOS_DIR, card_files, load_content
from quiz.pack_upload import PackFile, UploadLimits, read_upload
from quiz.variants import seed_facts
from quiz.verdict import Verdict
from quiz.yaml_source import YamlProblem, locate, parse_yaml

if TYPE_CHECKING:  # imported by the tables below only: every page reads content_dir
    import pandas as pd

CONTENT_DIR_ENV = "QUIZ_CONTENT_DIR"
DEFAULT_CONTENT_DIR = PROJECT_ROOT / "content"
STAGING_PREFIX = ".staging-"
UNSORTED_FOLDER = "unsorted"  # for files whose cards name no usable ruleset: the loader reports why
PROBLEM_COLUMNS = ["file", "line", "field", "message"]
_FOLDER_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]+")
_IMPORT_LOCK = threading.Lock()  # one pack at a time: two packs must not claim the same ids


def content_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The local content folder: ``$QUIZ_CONTENT_DIR``, else ``<project>/content``."""
    configured = environ.get(CONTENT_DIR_ENV)
    return Path(configured) if configured else DEFAULT_CONTENT_DIR


@dataclass(frozen=True, slots=True)
class CardPreview:
    """A card of a pack as loaded, with the engine's verdict for a scenario card."""

    file: str
    card: ScenarioCard | KnowledgeCard
    verdict: Verdict | None


@dataclass
class PackReport:
    """What a pack holds and every problem with it; ``imported_to`` once imported."""

    upload: str
    files: list[str] = field(default_factory=list)
    cards: list[CardPreview] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    imported_to: Path | None = None

    @property
    def ok(self) -> bool:
        """A pack with cards and no problem: it may be imported."""
        return bool(self.cards) and not self.problems


def check_pack(
    upload: str, data: bytes, folder: Path, *, rulesets_dir: Path = RULESETS_DIR,
    shipped: Sequence[Path] = (SCENARIOS_DIR,), limits: UploadLimits = UploadLimits(),
) -> PackReport:
    """Validate an upload as a pack for ``folder`` without importing it."""
    return _process(upload, data, folder, rulesets_dir, shipped, limits, commit=False)


def import_pack(
    upload: str, data: bytes, folder: Path, *, rulesets_dir: Path = RULESETS_DIR,
    shipped: Sequence[Path] = (SCENARIOS_DIR,), limits: UploadLimits = UploadLimits(),
) -> PackReport:
    """Validate an upload again and, when it has no problem at all, import it into ``folder``."""
    return _process(upload, data, folder, rulesets_dir, shipped, limits, commit=True)


def shown_folder(folder: Path) -> str:
    """The folder relative to the project when it is inside it (``content``), else as given."""
    try:
        return folder.resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return str(folder)


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


def imported_packs(folder: Path) -> pd.DataFrame:
    """``pack, files, imported_at`` for each pack imported into ``folder``, newest first."""
    import pandas as pd

    rows = []
    if folder.is_dir():
        for pack in folder.iterdir():
            if pack.is_dir() and not pack.name.startswith("."):
                stamp = datetime.fromtimestamp(pack.stat().st_mtime, timezone.utc)
                rows.append({"pack": pack.name, "files": len(card_files([pack])), "imported_at": stamp})
    frame = pd.DataFrame.from_records(rows, columns=["pack", "files", "imported_at"])
    return frame.sort_values("imported_at", ascending=False, ignore_index=True)


def problems_frame(problems: Iterable[Problem]) -> pd.DataFrame:
    """Problems as a table: ``file, line, field, message``."""
    import pandas as pd

    return pd.DataFrame.from_records(
        [(p.path, p.line, p.field, p.message) for p in problems], columns=PROBLEM_COLUMNS
    ).astype({"line": "int64"})


def _process(
    upload: str, data: bytes, folder: Path, rulesets_dir: Path, shipped: Sequence[Path],
    limits: UploadLimits, commit: bool,
) -> PackReport:
    with _IMPORT_LOCK:
        read = read_upload(upload, data, limits)
        report = PackReport(upload, [f.name for f in read.files], problems=list(read.problems))
        if not read.files:
            if not report.problems:
                report.problems.append(Problem(upload, 1, "cards", "the pack holds no card file"))
            return report
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
        try:
            staged = _stage(read.files, staging)
            loaded = load_content(rulesets_dir, [staging], base=staging)
            report.problems += _pack_problems(loaded.problems, staged)
            report.problems += _taken_ids(loaded.cards, loaded.card_files, staged, [*shipped, folder])
            previews = [
                CardPreview(staged[loaded.card_files[card.id]][0], card, _verdict(loaded.rulesets, card))
                for card in loaded.cards.values()
            ]
            report.cards = sorted(previews, key=lambda p: report.files.index(p.file))  # upload order
            if not report.cards and not report.problems:
                report.problems.append(Problem(upload, 1, "cards", "the pack holds no card"))
            if commit and report.ok:
                target = folder / _pack_name(upload)
                os.rename(staging, target)  # atomic: the pack appears whole or not at all
                report.imported_to = target
        finally:
            if report.imported_to is None:
                shutil.rmtree(staging, ignore_errors=True)
        return report


def _stage(files: Sequence[PackFile], staging: Path) -> dict[str, tuple[str, str]]:
    """Write each file under ``staging/<ruleset>/``; staged path -> (uploaded name, text)."""
    staged: dict[str, tuple[str, str]] = {}
    for pack_file in files:
        ruleset = _ruleset_folder(pack_file.text)
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


def _ruleset_folder(text: str) -> str:
    """The folder for a card file: the ruleset of its first card, if it is a plain id."""
    try:
        data = parse_yaml(text)
    except YamlProblem:
        return UNSORTED_FOLDER
    cards = data.get("cards") if isinstance(data, dict) else None
    for card in cards if isinstance(cards, list) else []:
        ruleset = card.get("ruleset") if isinstance(card, dict) else None
        if isinstance(ruleset, str) and _FOLDER_NAME.match(ruleset) and ruleset != UNSORTED_FOLDER:
            return ruleset
    return UNSORTED_FOLDER


def _pack_problems(problems: Iterable[Problem], staged: Mapping[str, tuple[str, str]]) -> list[Problem]:
    """The loader's problems with the pack's files, named as uploaded."""
    found = []
    for problem in problems:
        if problem.path not in staged:
            continue  # a shipped ruleset's problem: the content health panel shows it
        message = problem.message
        for relative, (name, _) in staged.items():
            message = message.replace(f"(first in {relative})", f"(first in {name})")
        found.append(Problem(staged[problem.path][0], problem.line, problem.field, message))
    return found


def _taken_ids(
    cards: Mapping[str, ScenarioCard | KnowledgeCard], card_files_of: Mapping[str, str],
    staged: Mapping[str, tuple[str, str]], roots: Sequence[Path],
) -> list[Problem]:
    """A problem for each card of the pack whose id a shipped or imported card has."""
    existing = existing_card_ids(roots)
    found = []
    for card_id in cards:
        if card_id not in existing:
            continue
        name, text = staged[card_files_of[card_id]]
        index = _card_ids(parse_yaml(text)).index(card_id)
        found.append(Problem(
            name, locate(text, ("cards", index, "id")), f"cards[{index}].id",
            f"card id {card_id!r} is already used by {existing[card_id]}; a pack never replaces a card",
        ))
    return found


def _card_ids(data: object) -> list[str]:
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        return []
    return [c["id"] if isinstance(c, dict) and isinstance(c.get("id"), str) else "" for c in cards]


def _verdict(rulesets: Mapping, card: ScenarioCard | KnowledgeCard) -> Verdict | None:
    if isinstance(card, ScenarioCard):
        return judge(rulesets[card.ruleset], card.infraction, seed_facts(card))  # a variant card: its default showing
    return None


def _pack_name(upload: str) -> str:
    """A new folder name: the upload's name made safe, the time and a random suffix."""
    stem = _UNSAFE_NAME_CHARS.sub("-", PurePosixPath(upload.replace("\\", "/")).stem).strip("-").lower()[:40]
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{stem or 'pack'}-{stamp}-{secrets.token_hex(3)}"
