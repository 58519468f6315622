"""Process-wide resources: the loaded content and the store, built once per server."""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from quiz.content_pack import content_dir
from quiz.content_snapshot import load_content_snapshotted
from quiz.loader import RULESETS_DIR, SCENARIOS_DIR, Content
from quiz.store import Store


@st.cache_resource(show_spinner=False)
def _content(extra: str | None) -> Content:
    paths = [SCENARIOS_DIR] + ([Path(extra)] if extra else [])
    return load_content_snapshotted(RULESETS_DIR, paths)


def content() -> Content:
    """All rulesets and cards: shipped, plus the local content folder (QUIZ_CONTENT_DIR,
    default ``content/``) where imported packs go."""
    return _content(str(content_dir()))


def reload_content() -> None:
    """Forget the loaded content: the next run of any page loads it afresh (after an import)."""
    _content.clear()


@st.cache_resource(show_spinner=False)
def _store(url: str | None) -> Store:
    return Store(url)


def store() -> Store:
    """The store for QUIZ_DATABASE_URL (default: the SQLite file under data/)."""
    return _store(os.environ.get("QUIZ_DATABASE_URL"))
