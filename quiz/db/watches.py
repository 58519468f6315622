"""A store's watches: its kept values by channel, the notices its writes send, and what
hears the other servers' notices (on SQLite, its change counter and own writer).

A transaction that changes a kept value calls ``notify`` (on PostgreSQL a notice to every
server at commit; nothing on SQLite, whose change counter sees every commit), and after the
commit ``changed``, which takes the change in at once in this store's watch of the channel:
the server where the change was made does not wait for its own notice, and its listener
lets that notice pass. Every other server forgets the key when its listener hears the
notice, and reads it again at its next ``get``.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine

from quiz.db.change_counter import ChangeCounter
from quiz.db.kept_values import KeptValues
from quiz.db.notices import Listener, notice_payload


class Watches:
    """The kept values of one store (one ``KeptValues`` per channel, started on first use),
    and on PostgreSQL the one ``Listener`` that hears every channel of them."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._sender = secrets.token_hex(6)  # this store's name in its notices (each store stands for a server)
        self._lock = threading.Lock()
        self._kept: dict[str, KeptValues[Any]] = {}
        self._listener = Listener(engine, self._sender) if engine.dialect.name == "postgresql" else None
        self._counter: ChangeCounter | None = None  # SQLite's, opened with the first watch or own write
        self._counter_opened = False

    @property
    def listener(self) -> Listener | None:
        """The listener of this store's channels (PostgreSQL), None elsewhere."""
        return self._listener

    @property
    def channels(self) -> frozenset[str]:
        """The channels watched so far."""
        with self._lock:
            return frozenset(self._kept)

    @property
    def live(self) -> bool:
        """Whether every watch of this store keeps values now (``KeptValues.live``)."""
        with self._lock:
            kept = list(self._kept.values())
        return all(watch.live for watch in kept)

    def kept(self, channel: str) -> KeptValues[Any]:
        """This store's values kept on ``channel``: on SQLite followed by the store's change
        counter, on PostgreSQL heard by the store's listener (on another database, never
        kept)."""
        counter = self._sqlite_counter()
        with self._lock:
            watch = self._kept.get(channel)
            if watch is None:
                watch = self._kept[channel] = KeptValues(channel, counter)
                if self._listener is not None:
                    self._listener.add(watch)
            return watch

    @contextmanager
    def own_writes(self) -> Iterator[Connection]:
        """A transaction for a write of this store's, committed at the end: on a SQLite file on
        the change counter's own connection, so that its commit makes no watch of this store
        read again (``quiz.db.change_counter``); elsewhere on the pool. A write that changes a
        kept value still calls ``changed``."""
        counter = self._sqlite_counter()
        if counter is None:
            with self._engine.begin() as conn:
                yield conn
        else:
            with counter.writes() as conn:
                yield conn

    @property
    def own_writes_engine(self) -> Engine:
        """The engine ``own_writes`` writes through (the counter's own on a SQLite file)."""
        counter = self._sqlite_counter()
        return self._engine if counter is None else counter.writer

    def _sqlite_counter(self) -> ChangeCounter | None:
        """The store's SQLite change counter, opened at the first call; None on another
        database, an in-memory one, or once closed."""
        with self._lock:
            if not self._counter_opened and self._engine.dialect.name == "sqlite":
                self._counter_opened = True
                self._counter = ChangeCounter.open(self._engine)
            return self._counter

    def payload(self, key: int | None) -> str:
        """What this store's notice of ``key`` (every key when None) says (``notice_payload``)."""
        return notice_payload(self._sender, key)

    def notify(self, conn: Connection, channel: str, key: int | None) -> None:
        """Tell every listening server, at the commit of ``conn``'s transaction, that ``key``'s
        value on ``channel`` changed, every key's when None (nothing on a database without
        notices). The caller calls ``changed`` after the commit."""
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(channel, self.payload(key))))

    def changed(self, channel: str, key: int | None, change: Callable[[Any], Any] | None = None) -> None:
        """Take in this store's own write of ``key`` (every key when None) on ``channel``, after
        its commit: the value kept for it is forgotten, or, with ``change`` (the writer knows
        what it wrote), changed by it, so the next ``get`` needs no read
        (``KeptValues.change``)."""
        with self._lock:
            watch = self._kept.get(channel)
        if watch is None:
            return
        if change is None or key is None:
            watch.forget(key)
        else:
            watch.change(key, change)

    def close(self) -> None:
        """Stop every watch (SQLite's counter closed at once) and the listener (its
        connection closed within a second)."""
        with self._lock:
            kept, self._kept = list(self._kept.values()), {}
            counter, self._counter, self._counter_opened = self._counter, None, True
        for watch in kept:
            watch.close()
        if counter is not None:
            counter.close()
        if self._listener is not None:
            self._listener.close()
