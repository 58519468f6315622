"""Content packs: cards an author uploads, checked by the loader and imported all or nothing.

A pack is staged in a hidden folder inside the local content folder, laid out as
``<ruleset id>/<file>.yaml`` (the folder is chosen from the cards' own ``ruleset``, never
from a path in the upload), and loaded with ``quiz.content.loader`` against the shipped rulesets.
Its card ids must be new: neither a shipped card nor an earlier import may be replaced.
Only a pack without any problem is imported, by renaming the staged folder to
``<content>/<pack>/`` in one step, under a lock on the content folder that every server
sharing it takes (its card ids are checked again under the lock); anything else is
deleted. The loader skips hidden folders, so a half-staged pack is never content; the staging folders of imports killed
mid-way are deleted by ``clean_staging`` (at the start of every check or import, and when
the app loads the content folder).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

try:
    import fcntl
except ImportError:  # Windows: staging folders are then judged by their age alone
    fcntl = None  # type: ignore[assignment]  # the module or None: checked before every use

from quiz.content.card_kinds import default_verdict
from quiz.content.loader import DUPLICATE_CARD_ID, PROJECT_ROOT, RULESETS_DIR, SCENARIOS_DIR, card_files, load_content
from quiz.content.uploads import PackFile, UploadLimits, read_upload
from quiz.content.yaml_source import YamlProblem, locate, parse_yaml
from quiz.model.cards import AnyCard
from quiz.model.errors import Problem
from quiz.model.verdict import Verdict
from quiz.model.words import Wording

if TYPE_CHECKING:  # imported by the tables below only: every page reads content_dir
    import pandas as pd

AUTHORING_GUIDE = PROJECT_ROOT / "docs" / "AUTHORING.md"
CONTENT_DIR_ENV = "QUIZ_CONTENT_DIR"
DEFAULT_CONTENT_DIR = PROJECT_ROOT / "content"
STAGING_PREFIX = ".staging-"
UNSORTED_FOLDER = "unsorted"  # for files whose cards name no usable ruleset: the loader reports why
PROBLEM_COLUMNS = ["file", "line", "field", "message"]
_FOLDER_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]+")
_IMPORT_LOCK = threading.Lock()  # one pack at a time: two packs must not claim the same ids
STAGING_GRACE_S = 60.0  # a staging folder this young may be an import that has not locked it yet
STAGING_STALE_S = 3600.0  # where folders cannot be locked: older than this, no import is using it


def authoring_guide(path: Path = AUTHORING_GUIDE) -> str | None:
    """The authoring guide (Markdown, written by the project), or None when it is not installed."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def content_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The local content folder: ``$QUIZ_CONTENT_DIR``, else ``<project>/content``."""
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


DEFAULT_LIMITS = UploadLimits()


def check_pack(
    upload: str, data: bytes, folder: Path, *, rulesets_dir: Path = RULESETS_DIR,
    shipped: Sequence[Path] = (SCENARIOS_DIR,), limits: UploadLimits = DEFAULT_LIMITS,
) -> PackReport:
    """Validate an upload as a pack for ``folder`` without importing it."""
    return _process(upload, data, folder, rulesets_dir, shipped, limits, commit=False)


def import_pack(
    upload: str, data: bytes, folder: Path, *, rulesets_dir: Path = RULESETS_DIR,
    shipped: Sequence[Path] = (SCENARIOS_DIR,), limits: UploadLimits = DEFAULT_LIMITS,
) -> PackReport:
    """Validate an upload again and, when it has no problem at all, import it into ``folder``."""
    return _process(upload, data, folder, rulesets_dir, shipped, limits, commit=True)


def clean_staging(folder: Path, *, now: float | None = None) -> list[Path]:
    """Delete the staging folders (``.staging-*``) that imports killed mid-way left in ``folder``.

    A staging folder is kept while an import holds it: the import locks it (``flock``,
    which the OS releases when the importing process dies, whichever server of those
    sharing the folder it was) and its first ``STAGING_GRACE_S`` seconds cover the instant
    between its creation and its lock. Where folders cannot be locked, one is kept until it
    is ``STAGING_STALE_S`` old. Returns the folders deleted.
    """
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return removed
    for entry in entries:
        if not entry.name.startswith(STAGING_PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        path = Path(entry.path)
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except FileNotFoundError:
            continue
        if age < STAGING_GRACE_S:
            continue
        held = _held_by_an_import(path)
        if held or (held is None and age < STAGING_STALE_S):
            continue
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            removed.append(path)
    return removed


def _held_by_an_import(path: Path) -> bool | None:
    """Whether an import holds ``path`` locked; None when that cannot be told."""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return True  # gone already: nothing to delete
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return None
    finally:
        os.close(fd)  # also releases the lock just taken
    return False


@contextmanager
def _holding(staging: Path) -> Iterator[None]:
    """Hold ``staging`` locked (see ``clean_staging``) until the import is over."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(staging, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pass  # a folder that cannot be locked is protected by its age only
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


class PackRemovalError(ValueError):
    """A pack that cannot be removed: no such pack in the content folder, or a name that is none."""


def remove_pack(folder: Path, pack: str) -> Path:
    """Remove the imported pack named ``pack`` (a folder directly in ``folder``) and return its path.

    The name must be one ``imported_packs`` lists: a plain folder name (no path, not hidden,
    not a link) of a folder that is there. Under the content folder's lock (an import cannot
    be committing meanwhile), the pack is first renamed to a hidden staging name, so that the
    loader stops seeing all of its cards in one step, then deleted; whatever a failed delete
    leaves behind is deleted by ``clean_staging`` later.
    """
    if not pack or pack.startswith(".") or PurePosixPath(pack).name != pack or "\\" in pack or "\x00" in pack:
        raise PackRemovalError(f"not a pack name: {pack!r}")
    with _IMPORT_LOCK:
        clean_staging(folder)
        if not folder.is_dir():
            raise PackRemovalError(f"no pack {pack!r}: there is no content folder")
        with _folder_locked(folder):
            target = folder / pack
            if target.is_symlink() or not target.is_dir() or target.resolve().parent != folder.resolve():
                raise PackRemovalError(f"no pack {pack!r} in {shown_folder(folder)}")
            doomed = folder / f"{STAGING_PREFIX}removed-{secrets.token_hex(6)}"
            os.rename(target, doomed)  # atomic: every card of the pack goes at once
        shutil.rmtree(doomed, ignore_errors=True)
    return target


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
                stamp = datetime.fromtimestamp(pack.stat().st_mtime, UTC)
                rows.append({"pack": pack.name, "files": len(card_files([pack])), "imported_at": stamp})
    frame = pd.DataFrame.from_records(rows, columns=["pack", "files", "imported_at"])
    return frame.sort_values("imported_at", ascending=False, ignore_index=True)


def problems_frame(problems: Iterable[Problem], language: str) -> pd.DataFrame:
    """Problems as a table: ``file, line, field, message``, the message in ``language``."""
    import pandas as pd

    return pd.DataFrame.from_records(
        [(p.path, p.line, p.field, p.wording.say(language)) for p in problems], columns=PROBLEM_COLUMNS
    ).astype({"line": "int64"})


@contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """Hold the content folder itself locked (``flock`` on the folder, as each staging folder
    is; no lock file to show up among the packs): every process of every server sharing the
    folder commits one pack at a time, so two packs never claim the same card id. The OS
    releases it when the holder dies. Where folders cannot be locked (Windows), only this
    process's imports are ordered (``_IMPORT_LOCK``)."""
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # also releases the lock


def _process(
    upload: str, data: bytes, folder: Path, rulesets_dir: Path, shipped: Sequence[Path],
    limits: UploadLimits, commit: bool,
) -> PackReport:
    with _IMPORT_LOCK:
        clean_staging(folder)  # what imports killed mid-way left behind
        read = read_upload(upload, data, limits)
        report = PackReport(upload, [f.name for f in read.files], problems=list(read.problems))
        if not read.files:
            if not report.problems:
                report.problems.append(Problem(upload, 1, "cards", Wording("problem.pack.no_card_file")))
            return report
        parsed = [_parsed(f.text) for f in read.files]
        count = sum(len(_card_ids(data)) for data in parsed)
        if count > limits.cards:  # checking costs time per card: refuse before any of it
            report.problems.append(Problem(upload, 1, "cards", Wording(
                "problem.pack.too_many_cards", cards=count, limit=limits.cards)))
            return report
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
        with _holding(staging):
            try:
                staged = _stage(read.files, parsed, staging)
                loaded = load_content(rulesets_dir, [staging], base=staging)
                report.problems += _pack_problems(loaded.problems, staged)
                report.problems += _taken_ids(loaded.cards, loaded.card_files, staged, [*shipped, folder])
                previews = [
                    CardPreview(staged[loaded.card_files[card.id]][0], card,
                                default_verdict(loaded.rulesets[card.ruleset], card))
                    for card in loaded.cards.values()
                ]
                report.cards = sorted(previews, key=lambda p: report.files.index(p.file))  # upload order
                report.problems.sort(key=lambda p: (_file_order(report, p.path), p.line))  # one list, file by file
                if not report.cards and not report.problems:
                    report.problems.append(Problem(upload, 1, "cards", Wording("problem.pack.no_card")))
                if commit and report.ok:
                    with _folder_locked(folder):  # another server sharing the folder may be importing
                        # Checked again under the lock: a pack it committed meanwhile may hold these ids.
                        report.problems += _taken_ids(loaded.cards, loaded.card_files, staged, [*shipped, folder])
                        if report.ok:
                            target = folder / _pack_name(upload)
                            os.rename(staging, target)  # atomic: the pack appears whole or not at all
                            report.imported_to = target
            finally:
                if report.imported_to is None:
                    shutil.rmtree(staging, ignore_errors=True)
        return report


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
    staged: Mapping[str, tuple[str, str]], roots: Sequence[Path],
) -> list[Problem]:
    """A problem for each card of the pack whose id a shipped or imported card has."""
    existing = existing_card_ids(roots)
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
            Wording("problem.pack.id_taken", id=repr(card_id), used_by=existing[card_id]),
        ))
    return found


def _card_ids(data: object) -> list[str]:
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        return []
    return [c["id"] if isinstance(c, dict) and isinstance(c.get("id"), str) else "" for c in cards]


def _pack_name(upload: str) -> str:
    """A new folder name: the upload's name made safe, the time and a random suffix."""
    stem = _UNSAFE_NAME_CHARS.sub("-", PurePosixPath(upload.replace("\\", "/")).stem).strip("-").lower()[:40]
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stem or 'pack'}-{stamp}-{secrets.token_hex(3)}"
