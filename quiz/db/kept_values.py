"""Values read from the database and kept in this process's memory while the database says
they have not changed: one channel's values of one store, by integer key.

Between changes ``get`` answers from memory, with no connection and no query. What keeps a
value honest:

- **Only while live.** Values are kept only while the watch hears of every change: on
  PostgreSQL while its store's listener hears its own probe notices (``quiz.db.notices``
  calls ``set_live``), on SQLite while its store's change counter can be read
  (``quiz.db.change_counter``: a counter moved since this watch last looked forgets
  everything). Going live or not
  forgets everything; while not live every ``get`` reads.
- **A read that a change overtakes is not kept.** Every forgetting or change moves a
  generation counter; a value read under an older generation is returned but not kept.
- **A writer's own change, in place.** A writer that knows what its write makes of a kept
  value (an exam's saved answer) hands the change to ``change``: the next ``get`` needs no
  read.
- **Never older than ``max_age``.** A change made without a notice (by hand, in SQL), or
  one whose notice a silently broken connection missed, is seen within ``MAX_AGE`` seconds
  (docs/PERFORMANCE.md says why five minutes).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from quiz.db.change_counter import ChangeCounter

V = TypeVar("V")
MAX_AGE = 300.0  # seconds a kept value is trusted at most (a change made by hand in SQL sends no notice)
MAX_KEPT = 20_000  # values kept per watch; beyond, all are forgotten and read again


@dataclass(frozen=True, slots=True)
class _Kept(Generic[V]):
    value: V
    read_at: float


class KeptValues(Generic[V]):
    """Values by integer key, kept while the database says nothing on ``channel`` changed."""

    def __init__(self, channel: str, counter: ChangeCounter | None = None, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """With a SQLite ``counter`` (its store's, shared by its watches) the watch is live while
        the counter can be read; without one it keeps nothing until ``set_live`` (its store's
        listener, on PostgreSQL)."""
        self.channel = channel
        self.max_age = max_age
        self._clock = clock
        self._lock = threading.Lock()
        self._kept: dict[int, _Kept[V]] = {}
        self._generation = 0
        self._closed = False
        self._counter = counter
        self._seen: int | None = counter.read() if counter is not None else None  # the counter at the last look
        self._live = self._seen is not None

    @property
    def live(self) -> bool:
        """Whether values are kept now."""
        return self._live

    @property
    def closed(self) -> bool:
        """Whether the watch was closed (it keeps nothing again)."""
        return self._closed

    def get(self, key: int, read: Callable[[], V]) -> V:
        """The value of ``key``: kept, or ``read()`` (and kept when nothing changed meanwhile)."""
        now = self._clock()
        counter = self._counter
        version = counter.read() if counter is not None else None  # outside the lock: the counter has its own
        with self._lock:
            if counter is not None and self._counter is counter:
                self._follow_counter(version)
            live, generation = self._live, self._generation
            kept = self._kept.get(key) if live else None
        if kept is not None and now - kept.read_at < self.max_age:
            return kept.value
        value = read()
        if live:
            with self._lock:
                if self._live and self._generation == generation:
                    if len(self._kept) >= MAX_KEPT:
                        self._kept.clear()
                    self._kept[key] = _Kept(value, now)
        return value

    def forget(self, key: int | None = None) -> None:
        """Forget the value of ``key`` (of every key when None), and let no read begun before
        keep what it read."""
        with self._lock:
            self._generation += 1
            if key is None:
                self._kept.clear()
            else:
                self._kept.pop(key, None)

    def change(self, key: int, change: Callable[[V], V]) -> None:
        """This process's own write to ``key``'s value, applied to the value kept, if any (it
        stays as old as the read it came from); a read begun before is not kept. A write of
        another server's that the kept value missed is still forgotten by its notice."""
        with self._lock:
            self._generation += 1
            kept = self._kept.get(key)
            if kept is not None:
                self._kept[key] = _Kept(change(kept.value), kept.read_at)

    def set_live(self, live: bool) -> bool:
        """Keep values from now on, or not (a change forgets them all; a closed watch stays
        not live); whether it kept before."""
        with self._lock:
            was, now = self._live, live and not self._closed
            if now != was:
                self._live = now
                self._generation += 1
                self._kept.clear()
            return was

    def close(self) -> None:
        """Stop keeping values, for good (the store closes its counter)."""
        with self._lock:
            self._closed = True
            self._counter = None
        self.set_live(False)

    def _follow_counter(self, version: int | None) -> None:
        """SQLite: forget everything kept when the counter (``version``, just read) moved since
        the last look, another connection having committed; keep nothing while it cannot be
        read (under ``_lock``)."""
        live = version is not None
        if version != self._seen or live != self._live:
            self._generation += 1
            self._kept.clear()
        self._seen = version
        self._live = live
