"""Pooled connections the database has closed are replaced before use, without a round trip.

A connection waiting in the pool says nothing until it is used. When the database ends it
(a restart, a fail-over, ``pg_terminate_backend``, an idle timeout), the server sends its
last message and closes the socket, so the socket turns readable while the connection is
idle. A healthy idle connection has nothing to read. So at each checkout one ``poll`` with
no wait (a system call, no message to the server) tells a closed connection from a live
one; a closed one is refused with ``DisconnectionError``, and the pool opens a new
connection in its place (SQLAlchemy's "pessimistic" disconnect handling, done without the
``SELECT 1`` of ``pool_pre_ping``, which cost a round trip on every checkout).

A live connection that has something to read for another reason (a notice the server sent
while it was idle) is replaced too: a reconnect, never an error. A connection just opened
is not checked (its first checkout): it could still hold bytes its handshake left, and its
replacement would too. What neither this nor a ping catches in time is a connection whose
peer vanished without closing it (a network cut): its first query waits for TCP to give up,
as a ping would have.
"""

from __future__ import annotations

import select
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

_POOLED = "quiz_pooled"  # set on a connection's record when it first goes back to the pool
_CLOSED = select.POLLIN | select.POLLERR | select.POLLHUP | select.POLLNVAL


def closed_by_server(dbapi_connection: Any) -> bool:
    """Whether an idle connection's socket has something to read, an error or a hang-up."""
    try:
        descriptor = dbapi_connection.fileno()
    except Exception:  # noqa: BLE001 - a connection closed on our side has no socket left
        return True
    poller = select.poll()
    poller.register(descriptor, _CLOSED)
    return bool(poller.poll(0))


def _mark_pooled(_dbapi_connection: Any, record: Any) -> None:
    record.info[_POOLED] = True


def _refuse_if_closed(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    if record.info.get(_POOLED) and closed_by_server(dbapi_connection):
        raise DisconnectionError("the database closed this pooled connection; the pool opens a new one")


def replace_closed_connections(engine: Engine) -> None:
    """Check every connection ``engine``'s pool hands out again (see the module's docstring).
    A connection just opened is not checked: it has only now read all the server sent."""
    event.listen(engine, "checkin", _mark_pooled)
    event.listen(engine, "checkout", _refuse_if_closed)
