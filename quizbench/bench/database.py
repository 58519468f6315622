"""Where the benchmark writes its history: a temporary SQLite file, or a given database.

On a PostgreSQL server the bench works in a scratch database of its own, created for the
run and dropped afterwards (the user of the URL needs the CREATEDB privilege), so it never
touches the database named in the URL. Any other URL is used as it is and must hold no
attempts yet.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.engine import make_url

from quiz.db.tables import attempts
from quiz.model.errors import QuizError


class BenchDatabaseError(QuizError):
    """The database given to the bench already holds attempts."""


@contextmanager
def bench_database(url: str | None, folder: Path) -> Iterator[str]:
    """The URL to write the history to while the block runs (``folder`` holds the SQLite default)."""
    if url is None:
        yield f"sqlite:///{folder / 'bench.db'}"
        return
    given = make_url(url)
    if given.get_backend_name() != "postgresql":
        _refuse_attempts(url)
        yield url
        return
    name = f"quiz_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(given, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))  # PostgreSQL only; a generated name, not input
        try:
            yield given.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:  # FORCE: the pages measured in-process keep their pool open
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def _refuse_attempts(url: str) -> None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if inspect(conn).has_table(attempts.name):
                found = conn.execute(select(func.count()).select_from(attempts)).scalar_one()
                if found:
                    raise BenchDatabaseError(
                        f"the bench needs an empty database, but {make_url(url)!r} holds {found} attempts"
                    )
    finally:
        engine.dispose()
