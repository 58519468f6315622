"""Process-wide resources: the loaded content and the store, built once per server.

Memoised with ``functools.lru_cache`` behind a lock rather than ``st.cache_resource``:
every page run asks for both, and Streamlit's cache hashes its arguments on each call,
which cost more than the rest of the sidebar. The lock makes the first sessions of a
fresh server wait for one load instead of each loading the content.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path

from quiz.content_pack import content_dir
from quiz.content_snapshot import load_content_snapshotted
from quiz.loader import RULESETS_DIR, SCENARIOS_DIR, Content
from quiz.store import Store

_CONTENT_LOCK = threading.Lock()
_STORE_LOCK = threading.Lock()
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


@lru_cache(maxsize=4)
def _content(rulesets: str, scenarios: str, extra: str | None) -> Content:
    paths = [Path(scenarios)] + ([Path(extra)] if extra else [])
    return load_content_snapshotted(Path(rulesets), paths)


def content() -> Content:
    """All rulesets and cards: the rulesets, the shipped cards, and the local content folder
    where imported packs go.

    Environment:
        QUIZ_RULESETS_DIR: the folder of ruleset files (each with its document under
            ``sources/``); default the shipped ``rulesets/``.
        QUIZ_SCENARIOS_DIR: the folder of the shipped card files (one folder per ruleset id);
            default the shipped ``scenarios/``.
        QUIZ_CONTENT_DIR: the local content folder of imported packs; default ``content/``.

    The first two let the app run on another set of games, e.g. the third game the tests use.
    """
    with _CONTENT_LOCK:
        return _content(str(rulesets_dir()), str(scenarios_dir()), str(content_dir()))


def reload_content() -> None:
    """Forget the loaded content: the next run of any page loads it afresh (after an import)."""
    with _CONTENT_LOCK:
        _content.cache_clear()


@lru_cache(maxsize=8)
def _store(url: str | None) -> Store:
    return Store(url)


def store() -> Store:
    """The store for QUIZ_DATABASE_URL (default: the SQLite file under data/)."""
    with _STORE_LOCK:
        return _store(os.environ.get("QUIZ_DATABASE_URL"))
