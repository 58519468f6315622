"""PostgreSQL's notices for kept values: what a notice says, and the listener that hears them.

A transaction that changes a kept value notifies its channel (``quiz.db.watches``);
PostgreSQL delivers the notice at commit to every server on the database. Each store has
one ``Listener``: a thread with a connection of its own that ``LISTEN``s on the channels of
all the store's watches and hands each notice to the watches of its channel, which forget
the key it names. One connection and one probe a second per server, not one per channel.

- **Only while notices are heard.** Every ``POLL`` second the listener notifies its probe
  channel itself and must hear its own notice back. A watch keeps values once a probe sent
  after its channel's ``LISTEN`` comes back; from a probe not heard or a failed connection
  until the listener is back, its watches read every time; coming back, they forget
  everything (notices sent meanwhile were lost). So a connection pooler that does not carry
  notices (PgBouncer in transaction mode) makes the watches read every time instead of
  keeping stale values.
- **Its own store's notices pass.** Each notice names the store that sent it
  (``notice_payload``); that store took its change in at the commit (``Watches.changed``),
  so its listener lets the notice pass instead of forgetting again a value read back since.
"""

from __future__ import annotations

import logging
import secrets
import threading
import weakref
from typing import Any, Callable, Collection

from sqlalchemy.engine import Engine

from quiz.db.kept_values import KeptValues
from quiz.model.errors import NoticeLost

POLL = 1.0  # seconds the listener waits for notices before it looks at its connection again
RETRY_CEILING = 30.0  # the longest wait before the listener connects again
PROBE = "probe:"  # how a listener's probe notice begins (every server's listener hears it)
PROBE_CHANNEL = "quiz_watch_probe"  # the channel the probes go on
LISTENER_NAME = "quiz-watch"  # the listening connection's application_name (pg_stat_activity)
EVERY_KEY = "*"  # a notice's payload that names no one key: every value of the channel changed
SENT_BY = "/"  # a notice's payload: its key, then who sent it
log = logging.getLogger(__name__)


def notice_payload(sender: str, key: int | None) -> str:
    """What a notice says: the key (``EVERY_KEY`` for None), and the sending store's name."""
    return f"{EVERY_KEY if key is None else key}{SENT_BY}{sender}"


def notice_key(payload: str) -> int | None:
    """The key a notice names (``notice_payload``); None, so all are forgotten, for anything else."""
    try:
        return int(payload.partition(SENT_BY)[0])
    except ValueError:
        return None


def _connector(engine: Engine) -> Callable[[], Any]:
    """A function that opens a new DBAPI connection as the engine's pool would, outside the pool."""
    dialect = engine.dialect
    cargs, cparams = dialect.create_connect_args(engine.url)
    cparams = {**cparams, "application_name": LISTENER_NAME}
    return lambda: dialect.loaded_dbapi.connect(*cargs, **cparams)


class Listener:
    """One listening connection (a thread) for every watch of a store, on PostgreSQL: it
    ``LISTEN``s on each watch's channel as watches are added, and hands each notice to the
    watches of its channel. It stops when closed or left with no open watch."""

    def __init__(self, engine: Engine, sender: str) -> None:
        """Listen on ``engine``'s database; notices ``sender`` sent (this store) pass."""
        self._connect = _connector(engine)
        self._own = f"{SENT_BY}{sender}"  # the end of this store's notices' payloads
        self._lock = threading.Lock()
        self._watches: list[KeptValues[Any]] = []
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def own(self) -> str:
        """How the payloads of this store's own notices end (``notice_payload``)."""
        return self._own

    @property
    def thread(self) -> threading.Thread | None:
        """The listening thread, once a watch was added."""
        return self._thread

    @property
    def running(self) -> bool:
        """Whether it listens still: neither closed nor left with no open watch."""
        return not self._closed.is_set() and bool(self.watches())

    def add(self, watch: KeptValues[Any]) -> None:
        """Hear ``watch``'s channel from now on (live once a probe sent after its ``LISTEN`` is heard)."""
        with self._lock:
            self._watches.append(watch)
            if self._thread is None and not self._closed.is_set():
                self._thread = threading.Thread(target=_listen, args=(weakref.ref(self), self._connect, self._closed),
                                                name=LISTENER_NAME, daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Stop listening: every watch reads through; the connection closes within ``POLL`` seconds."""
        self._closed.set()
        self.set_live(None, False)

    def watches(self, channel: str | None = None) -> list[KeptValues[Any]]:
        """The open watches heard (of ``channel``, when given)."""
        with self._lock:
            heard = list(self._watches)
        return [watch for watch in heard if not watch.closed and (channel is None or watch.channel == channel)]

    def channels(self) -> set[str]:
        """The channels of the open watches."""
        return {watch.channel for watch in self.watches()}

    def set_live(self, channels: Collection[str] | None, live: bool) -> bool:
        """Let the watches of ``channels`` (of every channel when None) keep values, or not;
        whether any of them kept before."""
        was = False
        for watch in self.watches():
            if channels is None or watch.channel in channels:
                was = watch.set_live(live) or was
        return was


def _running(owner: weakref.ref[Listener]) -> bool:
    """Whether the listener is still there and listening (``Listener.running``)."""
    listener = owner()
    return listener is not None and listener.running


def _listen(owner: weakref.ref[Listener], connect: Callable[[], Any], closed: threading.Event) -> None:
    """The listener thread: connect and hear notices (``_hear``) until the listener is closed,
    left with no open watch or gone; on any failure its watches read through, and it connects
    again, waiting longer each time (up to ``RETRY_CEILING``)."""
    wait = POLL
    failing = False
    while _running(owner):
        connection = None
        was_live: bool | None = False
        try:
            connection = connect()
            _hear(connection, owner)
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


def _hear(connection: Any, owner: weakref.ref[Listener]) -> None:
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
    while _running(owner):
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
                # (another server's probe changes nothing; this store's own notices were
                # taken in by ``Watches.changed`` at their commit)
                listener = owner()
                if listener is None:
                    return
                for watch in listener.watches(notice.channel):
                    watch.forget(notice_key(notice.payload))
                del listener
        if not heard and _running(owner):
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

