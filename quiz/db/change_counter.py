"""SQLite's change counter: how a watch on a SQLite file knows that nothing changed.

A SQLite file has no notices, but a connection's ``PRAGMA data_version`` moves whenever any
other connection (of this process or another) commits to the file, a change made by hand
included. A watch keeps one such connection of its own that never writes and asks it before
every read of a kept value (no table read), so a value is never kept past the last commit,
whoever made it. An in-memory database (one connection's own) has no counter.
"""

from __future__ import annotations

import logging
import sqlite3

from sqlalchemy.engine import Engine

from quiz.db.engine import sqlite_file

log = logging.getLogger(__name__)


class ChangeCounter:
    """SQLite's ``PRAGMA data_version`` on a connection of its own, outside the pool: it moves
    when any other connection commits to the file. Used under its watch's lock."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._seen: int | None = self._read()

    @classmethod
    def open(cls, engine: Engine) -> ChangeCounter | None:
        """The counter of ``engine``'s SQLite file; None for an in-memory database, which no
        other connection shares, or a file that cannot be opened."""
        database = sqlite_file(engine.url.database)
        if database is None:
            return None
        try:
            connection = sqlite3.connect(database, check_same_thread=False, isolation_level=None,
                                         timeout=5.0)
        except sqlite3.Error as error:
            log.warning("not watching %s for changes (%s): every value is read from the database",
                        database, error)
            return None
        return cls(connection)

    def moved(self) -> bool | None:
        """Whether another connection committed since the last look; None when it cannot tell."""
        seen, self._seen = self._seen, self._read(warn=self._seen is not None)
        if self._seen is None:
            return None
        return seen is None or self._seen != seen

    def close(self) -> None:
        """Close the counter's connection."""
        self._connection.close()

    def _read(self, warn: bool = True) -> int | None:
        """The counter now; None (and a warning, once a failing streak begins) when it fails."""
        try:
            row = self._connection.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error as error:
            if warn:
                log.warning("SQLite's change counter cannot be read (%s): values are read from the "
                            "database until it can", error)
            return None
        return int(row[0])
