"""SQL helpers every db module shares: an upsert, an inserted row's id, a local calendar date.

``local_date`` is the one piece of SQL that differs by database: PostgreSQL has time-zone
functions, SQLite gets a Python function on each connection (``register_sqlite_functions``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, Table, func, insert, update
from sqlalchemy.engine import Connection, CursorResult, Engine

LOCAL_DATE_FUNCTION = "quiz_local_date"


def upsert(conn: Connection, table: Table, key: Mapping[str, Any], values: Mapping[str, Any]) -> None:
    """Within the caller's transaction: set ``values`` on the row of ``table`` whose columns
    equal ``key``, inserting the row when there is none."""
    where = [table.c[name] == value for name, value in key.items()]
    if not conn.execute(update(table).where(*where).values(**values)).rowcount:
        conn.execute(insert(table).values(**key, **values))


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT just added."""
    key = result.inserted_primary_key
    assert key is not None  # an INSERT of one row always has it
    return int(key[0])


def local_date(engine: Engine, moment: ColumnElement[Any], time_zone: str) -> ColumnElement[Any]:
    """The calendar date (``YYYY-MM-DD``) of a stored UTC ``moment`` in ``time_zone`` (an IANA
    name), computed by ``engine``'s database: PostgreSQL's ``timezone()``; on SQLite the
    function every connection of the engine registers (``register_sqlite_functions``)."""
    if engine.dialect.name == "sqlite":
        return getattr(func, LOCAL_DATE_FUNCTION)(moment, time_zone)
    return func.to_char(func.timezone(time_zone, moment), "YYYY-MM-DD")


def register_sqlite_functions(dbapi_connection: Any) -> None:
    """Give a new SQLite connection the functions ``local_date`` calls."""
    dbapi_connection.create_function(LOCAL_DATE_FUNCTION, 2, _sqlite_local_date, deterministic=True)


def _sqlite_local_date(stored: str | None, time_zone: str) -> str | None:
    """``local_date`` for SQLite, which stores a UTC moment as ``YYYY-MM-DD HH:MM:SS[.ffffff]``."""
    if stored is None:
        return None
    moment = datetime.fromisoformat(stored).replace(tzinfo=UTC)
    return moment.astimezone(_zone(time_zone)).date().isoformat()


@lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)
