"""Where the database is and how to connect to it: the URL, and an engine set up per database.

SQLite (a file under ``data/`` by default) gets WAL, a busy timeout, foreign keys and the
local-date function on every connection; PostgreSQL sessions work in UTC, and a pooled
connection the server closed is replaced (``quiz.db.liveness``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url

from quiz.db.liveness import replace_closed_connections
from quiz.db.sql import register_sqlite_functions

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
URL_VARIABLE = "QUIZ_DATABASE_URL"
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000", "PRAGMA foreign_keys=ON")


def database_url(url: str | None = None) -> str:
    """The URL given, else ``$QUIZ_DATABASE_URL``, else the SQLite file ``data/quiz.db``."""
    return url or os.environ.get(URL_VARIABLE) or f"sqlite:///{DATA_DIR / 'quiz.db'}"


def make_engine(url: URL) -> Engine:
    """An engine for ``url``, set up for its database; a SQLite file's folder is created."""
    backend = url.get_backend_name()
    if backend == "sqlite":
        _make_folder(url.database)
    engine = create_engine(url, **engine_options(backend))
    if backend == "sqlite":
        event.listen(engine, "connect", lambda dbapi_connection, _record: sqlite_pragmas(dbapi_connection))
    else:  # a pooled connection the server closed (a restart) is replaced, not used
        replace_closed_connections(engine)
    return engine


def existing_file_missing(url: str | None) -> bool:
    """Whether ``url`` names a SQLite file that does not exist (looking must not create it)."""
    parsed = make_url(database_url(url))
    file = sqlite_file(parsed.database)
    return parsed.get_backend_name() == "sqlite" and file is not None and not Path(file).exists()


def sqlite_file(database: str | None) -> str | None:
    """The path of a SQLite URL's database when it is a plain file; None for an in-memory
    database or a ``file:`` URI."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database


def engine_options(backend: str) -> dict[str, Any]:
    """Per-database options: PostgreSQL sessions work in UTC, so dates group by UTC day. (No
    ``pool_pre_ping``: ``quiz.db.liveness`` finds a closed connection without a round trip.)"""
    if backend == "postgresql":
        return {"connect_args": {"options": "-c timezone=UTC"}}
    return {}


def _make_folder(database: str | None) -> None:
    """Create the folder of a SQLite file (not for in-memory databases)."""
    file = sqlite_file(database)
    if file is not None:
        Path(file).parent.mkdir(parents=True, exist_ok=True)


def sqlite_pragmas(dbapi_connection: Any) -> None:
    """WAL journal, a 5 s busy timeout, foreign keys, and the local-date function, on every
    new SQLite connection."""
    register_sqlite_functions(dbapi_connection)
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()
