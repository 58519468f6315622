"""Bringing a database to the schema this app knows, with Alembic (``quiz/db/migrations/``).

A fresh database gets every table of ``quiz.db.tables`` at once and is stamped at the head
revision. A database of a release before Alembic records its schema version (1 to 3) in the
``schema_version`` table: it is taken up at that version's revision and brought forward.
The revisions create what is missing rather than assume it absent, because old releases added
tables and indexes without changing the version; so version N's own revision runs again.

A start that finds the database current costs one query (``alembic_version``) and does not
import Alembic (0.1 to 0.4 s here): it compares with ``HEAD_REVISION``, the newest
revision's id, which a test holds equal to the scripts' head. A revision this app does not
know means a newer app wrote the database: it is refused, untouched. ``schema_version`` is
kept, at 4, only so that releases before Alembic refuse the database with their own
message; this app reads it only to take up an old database.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from sqlalchemy import Column, Engine, Table, inspect, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError, ProgrammingError

from quiz.db.sql import upsert
from quiz.db.tables import metadata, schema_version
from quiz.model.errors import SchemaVersionError

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPTS = Path(__file__).with_name("migrations")
HEAD_REVISION = "0009"  # the newest revision under migrations/versions (tests/db/test_migrations.py checks)
LEGACY_VERSIONS = {1: None, 2: "0001", 3: "0002"}  # old schema version -> the revision to start after
LEGACY_FINAL = 4  # what schema_version says once Alembic keeps the schema: older releases refuse it
TRIES = 5  # app servers starting together on an empty database race to create it
_ALEMBIC = threading.Lock()  # Alembic's ``context`` and ``op`` are one per process, not per thread


@dataclass(frozen=True, slots=True)
class Upgrade:
    """What bringing a database forward did: from a revision, an old schema version or nothing."""

    before: str
    after: str

    def __str__(self) -> str:
        return f"brought from {self.before} to revision {self.after}"


def upgrade(engine: Engine) -> Upgrade | None:
    """Bring the database to the head revision; what was done, or None when it was current.

    When another server creates or migrates the same database meanwhile, the database refuses
    the loser's statement; it tries again, and then finds the work done.
    """
    if _current_revision(engine) == HEAD_REVISION:
        return None
    for tries_left in reversed(range(TRIES)):
        try:
            with _ALEMBIC:
                return _upgrade_once(engine)
        except DBAPIError:
            if not tries_left:
                raise
            time.sleep(0.1 * (TRIES - tries_left))
    raise AssertionError("unreachable")


def _current_revision(engine: Engine) -> str | None:
    """The stamped revision, in one query and no transaction; None when there is none yet."""
    try:
        with engine.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one_or_none()
    except (OperationalError, ProgrammingError):  # no such table: the full path tells why
        return None


def _upgrade_once(engine: Engine) -> Upgrade | None:
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    head = script_head()
    with engine.begin() as conn:
        found = MigrationContext.configure(conn).get_current_revision()
        if found == head:
            return None
        config = _config(conn)
        if found is not None:
            if found not in _known_revisions():
                raise SchemaVersionError(
                    f"the database is at schema revision {found}, which this app does not know "
                    f"(it knows up to {head}); update the app (the database was left untouched)")
            command.upgrade(config, "head")
            return Upgrade(f"revision {found}", head)
        legacy = _legacy_version(conn)
        if legacy is None and not set(inspect(conn).get_table_names()) & set(metadata.tables):
            metadata.create_all(conn)  # a fresh database: every table as it is today
            record_legacy_version(conn)
            command.stamp(config, "head")
            return Upgrade("an empty database", head)
        if legacy is not None and legacy not in LEGACY_VERSIONS:
            raise SchemaVersionError(
                f"the database has schema version {legacy}, but this app knows only up to "
                f"{max(LEGACY_VERSIONS)}; update the app (the database was left untouched)")
        start = LEGACY_VERSIONS[legacy or 1]
        if start is not None:
            command.stamp(config, start)
        command.upgrade(config, "head")
        return Upgrade(f"schema version {legacy or 1}", head)


def _config(conn: Connection) -> Config:
    """Alembic's configuration without an alembic.ini: the scripts, and the connection to use."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    config.attributes["connection"] = conn
    return config


def script_head() -> str:
    """The newest revision of the scripts themselves (``HEAD_REVISION`` should say the same)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(SCRIPTS)).get_current_head()
    assert head is not None
    return head


@lru_cache(maxsize=1)
def _known_revisions() -> frozenset[str]:
    from alembic.script import ScriptDirectory

    return frozenset(script.revision for script in ScriptDirectory(str(SCRIPTS)).walk_revisions())


def _legacy_version(conn: Connection) -> int | None:
    """The schema version a release before Alembic recorded, or None."""
    if not inspect(conn).has_table(schema_version.name):
        return None
    return conn.execute(select(schema_version.c.version)).scalar_one_or_none()


def record_legacy_version(conn: Connection) -> None:
    """Set ``schema_version`` to ``LEGACY_FINAL``, which every release before Alembic refuses."""
    upsert(conn, schema_version, {"id": 1}, {"version": LEGACY_FINAL})


# --- used by the revisions: each creates what is missing, since old releases added tables
# --- and indexes without changing the schema version


def create_missing(tables: Iterable[Table]) -> None:
    """Create each table the database lacks, and each of their indexes it lacks."""
    from alembic import op

    bind = op.get_bind()
    for table in tables:
        table.create(bind, checkfirst=True)
        for index in table.indexes:
            index.create(bind, checkfirst=True)


def add_missing_columns(table: str, columns: Iterable[Column]) -> None:
    """Add to ``table`` each of ``columns`` (nullable, no default) it lacks."""
    from alembic import op

    present = {column["name"] for column in inspect(op.get_bind()).get_columns(table)}
    for column in columns:
        if column.name not in present:
            op.add_column(table, column)
