"""Process-wide resources: the loaded content and the store, built once per server."""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from quiz.loader import RULESETS_DIR, SCENARIOS_DIR, Content, load_content
from quiz.store import Store

LOCAL_CONTENT_ENV = "QUIZ_CONTENT_DIR"


@st.cache_resource(show_spinner=False)
def _content(extra: str | None) -> Content:
    paths = [SCENARIOS_DIR] + ([Path(extra)] if extra else [])
    return load_content(RULESETS_DIR, paths)


def content() -> Content:
    """All rulesets and cards (shipped, plus a local folder named by QUIZ_CONTENT_DIR)."""
    return _content(os.environ.get(LOCAL_CONTENT_ENV))


@st.cache_resource(show_spinner=False)
def _store(url: str | None) -> Store:
    return Store(url)


def store() -> Store:
    """The store for QUIZ_DATABASE_URL (default: the SQLite file under data/)."""
    return _store(os.environ.get("QUIZ_DATABASE_URL"))
