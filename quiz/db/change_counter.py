"""SQLite's change counter: how a store's kept values on a SQLite file know that nothing changed,
and the store's own writing connection, whose commits do not move it.

A SQLite file has no notices, but a connection's ``PRAGMA data_version`` moves whenever any
*other* connection (of this process or another) commits to the file, a change made by hand
included, and never for the connection's own commits. A store keeps one such connection,
outside its pool, and every watch asks it before a read of a kept value (no table read), so
a value is never kept past another connection's commit.

The same connection is the store's own writer (``own_writes``): a write through it (a floor
call's step, an answer) leaves the counter where it was, so the next run keeps what it kept;
a write that changes a kept value says so itself (``Watches.changed``), as every write must.
A write through the pool still moves the counter, which only costs a read again. An
in-memory database (one connection's own) has no counter.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import Connection
from sqlalchemy.pool import StaticPool

from quiz.db.engine import sqlite_file, sqlite_pragmas

log = logging.getLogger(__name__)


class ChangeCounter:
    """SQLite's ``PRAGMA data_version`` on a connection of the store's own, outside the pool,
    and writes on that connection. One thread at a time uses it (its lock)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._lock = threading.RLock()  # a write's own thread may read the counter inside it
        self._failing = False
        # the engine of ``writes``: that one connection, for one thread at a time (the lock)
        self.writer = create_engine("sqlite://", creator=lambda: connection, poolclass=StaticPool)

    @classmethod
    def open(cls, engine: Engine) -> ChangeCounter | None:
        """The counter of ``engine``'s SQLite file; None for an in-memory database, which no
        other connection shares, or a file that cannot be opened."""
        database = sqlite_file(engine.url.database)
        if database is None:
            return None
        try:
            connection = sqlite3.connect(database, check_same_thread=False, timeout=5.0)
            sqlite_pragmas(connection)
        except sqlite3.Error as error:
            log.warning("not watching %s for changes (%s): every value is read from the database",
                        database, error)
            return None
        return cls(connection)

    def read(self) -> int | None:
        """The counter now; None (and a warning, once a failing streak begins) when it cannot
        be read."""
        with self._lock:
            try:
                row = self._connection.execute("PRAGMA data_version").fetchone()
            except sqlite3.Error as error:
                if not self._failing:
                    log.warning("SQLite's change counter cannot be read (%s): values are read from "
                                "the database until it can", error)
                self._failing = True
                return None
            self._failing = False
            return int(row[0])

    @contextmanager
    def writes(self) -> Iterator[Connection]:
        """A transaction on the counter's own connection, committed at the end (rolled back
        on an error): its commit does not move the counter."""
        with self._lock, self.writer.begin() as conn:
            yield conn

    def close(self) -> None:
        """Close the counter's connection."""
        with self._lock:
            self.writer.dispose()
            self._connection.close()
