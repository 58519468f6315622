"""Values read from the database and kept in this process's memory while the database says
they have not changed: PostgreSQL's LISTEN/NOTIFY, SQLite's ``PRAGMA data_version``.

A ``WatchedValues`` belongs to one store and one channel. On PostgreSQL the store's one
``Listener`` (a thread with a connection of its own) listens on the channels of all its
watches; a transaction that changes a watched value calls ``notify`` (PostgreSQL delivers the
notice at commit, to every server on the database), and each listening server forgets what
it kept. In between, ``get`` answers from memory, with no connection and no query.

What keeps it honest:

- **Only while notices are heard.** Every ``POLL`` second the listener notifies its probe
  channel itself and must hear its own notice back. A watch keeps values once a probe sent
  after its channel's ``LISTEN`` comes back; from a probe not heard or a failed connection
  until the listener is back, every ``get`` reads the database; coming back, it forgets
  everything (notices sent meanwhile were lost). So a connection pooler that does not carry
  notices (PgBouncer in transaction mode) makes the watch read every time instead of
  keeping stale values. One listener serves every channel of a store: one connection and
  one probe a second per server, not one per channel.
- **A read that a notice overtakes is not kept.** Any notice moves a generation counter;
  a value read under an older generation is returned but not kept.
- **In this process, at once.** ``changed`` (called after the commit) forgets the key in
  every watch of the channel in this process, so the server where the change was made does
  not wait for its own notice; and its listener lets that notice pass (each notice names the
  engine that sent it, ``_SENDERS``). Else the notice, heard a moment after the commit,
  forgot again the value the writing run had just read back: an exam's answers were read
  twice per save at a human pace (after the save, and again on the next click). A writer
  that knows what its write makes of a kept value passes ``changed`` the change, which is
  applied to the value kept instead of forgetting it (an exam's saved answer): no read after.
- **Never older than ``max_age``.** A kept value is read again after ``max_age`` seconds
  (300), so a change made without a notice (by hand, in SQL) is seen within five minutes, and
  so is one whose notice a silently broken listening connection missed (the probe notices a
  broken one within seconds). Five minutes, not one: at a human pace (an answer every 20–40
  s) a minute made about one value in three read again per answer, 0.6 ms of a server's
  time per answer on ``make capacity``.
- **SQLite: while its change counter stands still.** A SQLite file has no notices, but a
  connection's ``PRAGMA data_version`` moves whenever any other connection (of this process
  or another) commits to the file, a change made by hand included. The watch keeps one
  connection of its own that never writes, and every ``get`` asks it first (a few
  microseconds, no table read): a moved counter forgets everything kept. So on SQLite a
  kept value is never older than the last commit, whoever made it. An in-memory database
  (one connection's own) and a failed check read every time.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Collection, Generic, TypeVar

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine

from quiz.db.engine import sqlite_file
from quiz.model.errors import NoticeLost

V = TypeVar("V")
MAX_AGE = 300.0  # seconds a kept value is trusted at most (a change made by hand in SQL sends no notice)
MAX_KEPT = 20_000  # values kept per watch; beyond, all are forgotten and read again
POLL = 1.0  # seconds the listener waits for notices before it looks at its connection again
RETRY_CEILING = 30.0  # the longest wait before the listener connects again
PROBE = "probe:"  # how a listener's probe notice begins (every server's listener hears it)
PROBE_CHANNEL = "quiz_watch_probe"  # the channel the probes go on
LISTENER_NAME = "quiz-watch"  # the listening connection's application_name (pg_stat_activity)
log = logging.getLogger(__name__)

_WATCHES: weakref.WeakSet[WatchedValues[Any]] = weakref.WeakSet()
_WATCHES_LOCK = threading.Lock()


EVERY_KEY = "*"  # a notice's payload that names no one key: every value of the channel changed


SENT_BY = "/"  # a notice's payload: its key, then who sent it (``_sender``)
_SENDERS: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()
_SENDERS_LOCK = threading.Lock()


def _sender(engine: Engine) -> str:
    """The name ``engine``'s notices carry, so its own listener knows them: the writer has
    called ``changed`` already (one per engine, not per process: two stores of one process
    stand for two servers in tests, and each must hear the other)."""
    with _SENDERS_LOCK:
        name = _SENDERS.get(engine)
        if name is None:
            name = _SENDERS[engine] = secrets.token_hex(6)
        return name


def notice_payload(engine: Engine, key: int | None) -> str:
    """What ``notify`` sends: the key (``EVERY_KEY`` for None), and the sending engine's name."""
    return f"{EVERY_KEY if key is None else key}{SENT_BY}{_sender(engine)}"


def notify(conn: Connection, channel: str, key: int | None) -> None:
    """Tell every listening server, at the commit of ``conn``'s transaction, that ``key``'s
    value on ``channel`` changed, every key's when None (nothing on a database without
    notices). The caller calls ``changed`` after the commit: this process's own listener lets
    the notice pass."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_notify(channel, notice_payload(conn.engine, key))))


def changed(
    channel: str, key: int | None, change: Callable[[Any], Any] | None = None, written_on: Engine | None = None
) -> None:
    """Forget ``key`` (every key when None) in every watch of ``channel`` in this process (call
    after the commit). With ``change`` and the engine the write was ``written_on``, a value
    kept for ``key`` by a watch of that database is changed by it instead: the writer knows
    what it wrote, and the next ``get`` there needs no read (``WatchedValues.change``)."""
    database = _database(written_on) if written_on is not None else None
    with _WATCHES_LOCK:
        watches = [watch for watch in _WATCHES if watch.channel == channel]
    for watch in watches:
        if change is None or key is None or watch.database != database:
            watch.forget(key)
        else:
            watch.change(key, change)


def _database(engine: Engine) -> str:
    """Which database ``engine`` writes to (its URL, with the password hidden)."""
    return engine.url.render_as_string(hide_password=True)


@dataclass(frozen=True, slots=True)
class _Kept(Generic[V]):
    value: V
    read_at: float


class WatchedValues(Generic[V]):
    """Values by integer key, kept while the database says nothing on ``channel`` changed (a
    listener hears no notice on PostgreSQL; SQLite's change counter stands still)."""

    def __init__(self, engine: Engine, channel: str, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.monotonic, listener: Listener | None = None) -> None:
        """On PostgreSQL the watch is heard by ``listener`` (its store's), else by a listener
        of its own."""
        self.channel = channel
        self.database = _database(engine)
        self.max_age = max_age
        self._clock = clock
        self._lock = threading.Lock()
        self._kept: dict[int, _Kept[V]] = {}
        self._generation = 0
        self._closed = threading.Event()
        self._counter = _ChangeCounter.open(engine) if engine.dialect.name == "sqlite" else None
        self._live = self._counter is not None
        self._listener: Listener | None = None
        if engine.dialect.name == "postgresql":
            self._listener = listener or Listener(engine)
            self._listener.add(self)
        with _WATCHES_LOCK:
            _WATCHES.add(self)

    @property
    def live(self) -> bool:
        """Whether values are kept now (the listener is listening)."""
        return self._live

    def get(self, key: int, read: Callable[[], V]) -> V:
        """The value of ``key``: kept, or ``read()`` (and kept when no notice came meanwhile)."""
        now = self._clock()
        with self._lock:
            if self._counter is not None:
                self._follow_counter()
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

    def close(self) -> None:
        """Stop keeping values: no longer heard (a listener left with no watch closes its
        connection within ``POLL`` seconds), SQLite's counter closed at once."""
        self._closed.set()
        self._set_live(False)
        with self._lock:
            counter, self._counter = self._counter, None
        if counter is not None:
            counter.close()
        if self._listener is not None:
            self._listener.remove(self)

    def _follow_counter(self) -> None:
        """SQLite: forget everything kept when another connection committed since the last look
        (under ``_lock``); keep nothing while the counter cannot be read."""
        assert self._counter is not None
        moved = self._counter.moved()
        live = moved is not None
        if moved or live != self._live:
            self._generation += 1
            self._kept.clear()
        self._live = live

    def _set_live(self, live: bool) -> bool:
        """Keep values from now on, or not (a change forgets them all); whether it kept before."""
        with self._lock:
            was, now = self._live, live and not self._closed.is_set()
            if now != was:
                self._live = now
                self._generation += 1
                self._kept.clear()
            return was


class _ChangeCounter:
    """SQLite's ``PRAGMA data_version`` on a connection of its own, outside the pool: it moves
    when any other connection commits to the file. Used under its watch's lock."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._seen: int | None = self._read()

    @classmethod
    def open(cls, engine: Engine) -> _ChangeCounter | None:
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


def _connector(engine: Engine) -> Callable[[], Any]:
    """A function that opens a new DBAPI connection as the engine's pool would, outside the pool."""
    dialect = engine.dialect
    cargs, cparams = dialect.create_connect_args(engine.url)
    cparams = {**cparams, "application_name": LISTENER_NAME}
    return lambda: dialect.loaded_dbapi.connect(*cargs, **cparams)


class Listener:
    """One listening connection (a thread) for every watch of a store, on PostgreSQL: it
    ``LISTEN``s on each watch's channel as watches are added, and hands each notice to the
    watches of its channel. It stops when closed or left with no watch."""

    def __init__(self, engine: Engine) -> None:
        self._connect = _connector(engine)
        self._own = f"{SENT_BY}{_sender(engine)}"  # the end of this engine's notices' payloads
        self._lock = threading.Lock()
        self._watches: list[weakref.ref[WatchedValues[Any]]] = []
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def own(self) -> str:
        """How the payloads of this engine's own notices end (``notice_payload``)."""
        return self._own

    @property
    def thread(self) -> threading.Thread | None:
        """The listening thread, once a watch was added."""
        return self._thread

    def add(self, watch: WatchedValues[Any]) -> None:
        """Hear ``watch``'s channel from now on (live once a probe sent after its ``LISTEN`` is heard)."""
        with self._lock:
            self._watches.append(weakref.ref(watch))
            if self._thread is None and not self._closed.is_set():
                self._thread = threading.Thread(target=_listen, args=(weakref.ref(self), self._connect, self._closed),
                                                name="quiz-watch", daemon=True)
                self._thread.start()

    def remove(self, watch: WatchedValues[Any]) -> None:
        """Stop hearing for ``watch``; the last one gone, the listener stops."""
        with self._lock:
            self._watches = [ref for ref in self._watches if ref() not in (None, watch)]
            if not self._watches:
                self._closed.set()

    def close(self) -> None:
        """Stop listening: every watch reads through; the connection closes within ``POLL`` seconds."""
        self._closed.set()
        self.set_live(None, False)

    def watches(self, channel: str | None = None) -> list[WatchedValues[Any]]:
        """The watches heard (of ``channel``, when given) that are still alive."""
        with self._lock:
            alive = [watch for ref in self._watches if (watch := ref()) is not None]
        return [watch for watch in alive if channel is None or watch.channel == channel]

    def channels(self) -> set[str]:
        return {watch.channel for watch in self.watches()}

    def set_live(self, channels: Collection[str] | None, live: bool) -> bool:
        """Let the watches of ``channels`` (of every channel when None) keep values, or not;
        whether any of them kept before."""
        was = False
        for watch in self.watches():
            if channels is None or watch.channel in channels:
                was = watch._set_live(live) or was
        return was


def _listen(owner: weakref.ref[Listener], connect: Callable[[], Any], closed: threading.Event) -> None:
    """The listener thread: connect and hear notices (``_hear``) until the listener is closed or
    gone; on any failure its watches read through, and it connects again, waiting longer each
    time (up to ``RETRY_CEILING``)."""
    wait = POLL
    failing = False
    while not closed.is_set() and owner() is not None:
        connection = None
        was_live: bool | None = False
        try:
            connection = connect()
            _hear(connection, owner, closed)
        except Exception as error:  # noqa: BLE001 - the database or the connection failed: read through
            if not failing:
                log.warning("not listening for changes (%s): every watched value is read from the database "
                            "until it is back", error)
            failing = True
        else:
            return  # closed, or the listener is gone
        finally:
            was_live = _tell(owner, None, False)
            if connection is not None:
                try:
                    connection.close()
                except Exception:  # noqa: BLE001, S110 - closing a broken connection
                    pass
        if was_live:  # it worked for a while: connect again soon
            failing, wait = False, POLL
        closed.wait(wait)
        wait = min(wait * 2, RETRY_CEILING)


def _hear(connection: Any, owner: weakref.ref[Listener], closed: threading.Event) -> None:
    """Each ``POLL`` seconds: ``LISTEN`` on the channels of watches added meanwhile, send a
    probe notice, and hand every notice heard to the watches of its channel. The watches of the
    channels listened on before a probe was sent keep values once it comes back, and this
    raises ``NoticeLost`` when one does not: a notice sent is then not sure to be heard (a
    pooler between the app and PostgreSQL, a broken connection), so kept values are not safe."""
    from psycopg import sql  # only here: the listener runs on PostgreSQL alone

    connection.autocommit = True
    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(PROBE_CHANNEL)))
    listening: set[str] = set()
    mine, sent = secrets.token_hex(8), 0
    while not closed.is_set():
        listener = owner()
        if listener is None:
            return
        for channel in sorted(listener.channels() - listening):
            connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            listening.add(channel)
        own = listener.own
        del listener
        covered = frozenset(listening)
        sent += 1
        probe = f"{PROBE}{mine}-{sent}"
        send_probe(connection, PROBE_CHANNEL, probe)
        heard = False
        for notice in connection.notifies(timeout=POLL):
            if notice.payload == probe:
                heard = True
                if _tell(owner, covered, True) is None:
                    return
            elif not notice.payload.startswith(PROBE) and not notice.payload.endswith(own):
                # (another server's probe changes nothing; this engine's own notices were
                # taken in by ``changed`` at their commit)
                listener = owner()
                if listener is None:
                    return
                for watch in listener.watches(notice.channel):
                    watch.forget(_key(notice.payload))
                del listener
        if owner() is None:
            return
        if not heard and not closed.is_set():
            raise NoticeLost(f"a probe notice was not heard back within {POLL} s")


def send_probe(connection: Any, channel: str, payload: str) -> None:
    """Notify ``channel`` from the listening connection itself (PostgreSQL delivers a session's
    own notices to it)."""
    connection.execute("SELECT pg_notify(%s, %s)", (channel, payload))


def _tell(owner: weakref.ref[Listener], channels: Collection[str] | None, live: bool) -> bool | None:
    """Tell the watches of ``channels`` (every channel's when None) whether they may keep
    values: whether any kept before, None when the listener is gone."""
    listener = owner()
    return None if listener is None else listener.set_live(channels, live)


def _key(payload: str) -> int | None:
    """The key a notice names (``notify``); None, so all are forgotten, for anything else."""
    try:
        return int(payload.partition(SENT_BY)[0])
    except ValueError:
        return None
