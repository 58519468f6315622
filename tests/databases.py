"""Test databases: a SQLite file, or a fresh database on the PostgreSQL server under test."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES_VARIABLE = "QUIZ_TEST_DATABASE_URL"
SKIP_REASON = (
    f"{POSTGRES_VARIABLE} is not set (`make test` starts a throwaway PostgreSQL server and sets it)"
)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'quiz.db'}"


def postgres_database() -> Iterator[str]:
    """A new, empty database on the server of QUIZ_TEST_DATABASE_URL, dropped afterwards."""
    server = os.environ.get(POSTGRES_VARIABLE)
    if not server:
        pytest.skip(SKIP_REASON)
    name = f"quiz_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))  # a generated name, not input
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
