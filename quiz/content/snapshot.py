"""A JSON snapshot of loaded content, so a restarted server skips parsing and checking.

Parsing and checking ten thousand cards takes seconds; reading back the validated models
from one JSON file (through pydantic, so it is checked as strictly as any input) takes a
fraction of that. A snapshot is used only while every content file and every module of the
app is exactly as it was when the snapshot was written; anything else loads afresh.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel, ConfigDict, ValidationError

from quiz.content.categories import category_keys, remember_category_keys
from quiz.content.collector_pause import collector_paused
from quiz.content.loader import (
    FINGERPRINT_MEMO,
    PROJECT_ROOT,
    RULESETS_DIR,
    SCENARIOS_DIR,
    Content,
    fingerprint,
    load_content,
)
from quiz.content.packs import content_dir
from quiz.model.cards import Card
from quiz.model.errors import Problem
from quiz.model.rulesets import Ruleset
from quiz.model.text import Text
from quiz.model.themes import Theme
from quiz.model.words import Wording

FORMAT = 4
CODE_DIR = Path(__file__).resolve().parents[1]  # the whole quiz package: a snapshot is for one version of the app
DEFAULT_DIR = PROJECT_ROOT / "data" / "cache"
PREFIX = "content-"
KEEP = 4  # snapshots kept: one per content folder or app version a server has recently used


class _Wording(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str
    values: dict[str, str | int | Text | _Wording]

    @classmethod
    def of(cls, wording: Wording) -> _Wording:
        return cls(key=wording.key, values={name: cls.of(value) if isinstance(value, Wording) else value
                                            for name, value in wording.values})

    def wording(self) -> Wording:
        return Wording(self.key, **{name: value.wording() if isinstance(value, _Wording) else value
                                    for name, value in self.values.items()})


class _Problem(BaseModel):
    path: str
    line: int
    field: str
    wording: _Wording


class Snapshot(BaseModel):
    """Everything a ``Content`` holds, as plain validated data."""

    model_config = ConfigDict(extra="forbid")

    format: int
    rulesets: list[Ruleset]
    sources: dict[str, list[str]]
    cards: list[Card]
    card_files: dict[str, str]
    themes: list[Theme]
    problems: list[_Problem]
    card_categories: dict[str, str]  # derived: each card's category key, which takes judging every card
    fingerprint: str  # derived: Content.fingerprint(), which takes hashing every card

    @classmethod
    def of(cls, content: Content) -> Snapshot:
        return cls(
            format=FORMAT,
            rulesets=list(content.rulesets.values()),
            sources={rid: r.source_lines for rid, r in content.rulesets.items()},
            cards=list(content.cards.values()),
            card_files=content.card_files,
            themes=content.themes,
            problems=[_Problem(path=p.path, line=p.line, field=p.field, wording=_Wording.of(p.wording))
                      for p in content.problems],
            card_categories=category_keys(content),
            fingerprint=content.fingerprint(),
        )

    def content(self) -> Content:
        loaded = Content(card_files=dict(self.card_files), themes=list(self.themes),
                         problems=[Problem(p.path, p.line, p.field, p.wording.wording()) for p in self.problems])
        for ruleset in self.rulesets:
            ruleset.attach_source(self.sources.get(ruleset.id, []))
            loaded.rulesets[ruleset.id] = ruleset
        loaded.cards = {card.id: card for card in self.cards}
        remember_category_keys(loaded, self.card_categories)
        loaded.memo(FINGERPRINT_MEMO, lambda: self.fingerprint)
        return loaded


def snapshot_key(rulesets_dir: Path, card_paths: Sequence[Path], base: Path) -> str:
    """Changes with any content file, any module of the app, or the snapshot format."""
    parts = (FORMAT, str(rulesets_dir), tuple(map(str, card_paths)), str(base),
             fingerprint([rulesets_dir, *card_paths]), fingerprint([CODE_DIR], suffixes=(".py",)))
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:24]


def load_content_snapshotted(
    rulesets_dir: Path = RULESETS_DIR,
    card_paths: Sequence[Path] = (SCENARIOS_DIR,),
    base: Path = PROJECT_ROOT,
    cache_dir: Path = DEFAULT_DIR,
) -> Content:
    """``load_content``, read from a snapshot when one matches, else loaded and snapshotted."""
    path = cache_dir / f"{PREFIX}{snapshot_key(rulesets_dir, card_paths, base)}.json"
    try:
        with collector_paused():
            return Snapshot.model_validate_json(path.read_bytes()).content()
    except (OSError, ValidationError, ValueError):
        pass  # none yet, or unreadable: load afresh
    content = load_content(rulesets_dir, card_paths, base)
    _write(path, Snapshot.of(content))
    return content


def _write(path: Path, snapshot: Snapshot) -> None:
    """Write atomically (a temporary file renamed into place); keep only the newest few."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".tmp-", delete=False) as handle:
            handle.write(snapshot.model_dump_json(by_alias=True).encode("utf-8"))
        os.replace(handle.name, path)
        snapshots = sorted(path.parent.glob(f"{PREFIX}*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in snapshots[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only folder only costs speed, never content


RULESETS_DIR_ENV = "QUIZ_RULESETS_DIR"
SCENARIOS_DIR_ENV = "QUIZ_SCENARIOS_DIR"


def rulesets_dir() -> Path:
    """Where the rulesets are read from: ``$QUIZ_RULESETS_DIR``, else the shipped ``rulesets/``."""
    configured = os.environ.get(RULESETS_DIR_ENV)
    return Path(configured) if configured else RULESETS_DIR


def scenarios_dir() -> Path:
    """Where the shipped cards are read from: ``$QUIZ_SCENARIOS_DIR``, else ``scenarios/``."""
    configured = os.environ.get(SCENARIOS_DIR_ENV)
    return Path(configured) if configured else SCENARIOS_DIR


def served_paths() -> tuple[Path, list[Path]]:
    """The folders of the content the app serves: the rulesets, and the card folders (the
    shipped cards and the local content folder where imported packs go).

    Environment:
        QUIZ_RULESETS_DIR: the folder of ruleset files (each with its document under
            ``sources/``); default the shipped ``rulesets/``.
        QUIZ_SCENARIOS_DIR: the folder of the shipped card files (one folder per ruleset id);
            default the shipped ``scenarios/``.
        QUIZ_CONTENT_DIR: the local content folder of imported packs; default ``content/``.

    The first two let the app run on another set of games, e.g. the third game the tests use.
    """
    return rulesets_dir(), [scenarios_dir(), content_dir()]


def load_served_content() -> Content:
    """The content the app serves (``served_paths``), from a snapshot when one matches."""
    rulesets, cards = served_paths()
    return load_content_snapshotted(rulesets, cards)
