"""Pooled connections the database closed (a restart, a fail-over) are replaced at checkout,
without a round trip (``quiz.db.liveness``), on a real PostgreSQL."""

from __future__ import annotations

from typing import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from quiz.access.accounts import add_trainee, credential_version
from quiz.db.liveness import closed_by_server, replace_closed_connections
from quiz.db.store import Store
from tests.waiting import wait_until

pytestmark = pytest.mark.postgres


@pytest.fixture
def admin(postgres_url: str) -> Iterator[Engine]:
    engine = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


def backend_pid(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT pg_backend_pid()")).scalar_one()


def end_backend(admin: Engine, pid: int) -> None:
    """What a database restart does to a pooled connection: the server ends it and closes
    its socket. Returns once the backend is gone (its socket closed)."""
    with admin.connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar_one()
        wait_until(lambda: not conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                            {"pid": pid}).scalar_one(), "the backend ended")


def test_a_pooled_connection_the_server_ended_is_replaced_not_used(postgres_url, admin):
    store = Store(postgres_url)
    try:
        aiko = add_trainee(store, "Aiko", "2468")
        pid = backend_pid(store.engine)  # the one connection the pool holds
        end_backend(admin, pid)
        assert credential_version(store, aiko.id) is not None  # no error: a new connection
        assert store.attempts().empty
        assert backend_pid(store.engine) != pid
    finally:
        store.dispose()


def test_without_the_check_the_same_click_fails(postgres_url, admin):
    """The scenario above is real: a pool without the check (and without a ping) hands out
    the dead connection, and the query fails."""
    engine = create_engine(postgres_url)
    try:
        end_backend(admin, backend_pid(engine))
        with pytest.raises(OperationalError):
            backend_pid(engine)
    finally:
        engine.dispose()


def test_a_live_pooled_connection_is_reused(postgres_url):
    engine = create_engine(postgres_url)
    replace_closed_connections(engine)
    try:
        pids = {backend_pid(engine) for _ in range(5)}
        assert len(pids) == 1  # no reconnect while the connection is alive
    finally:
        engine.dispose()


def test_closed_by_server_tells_an_ended_connection_from_a_live_one(postgres_url, admin):
    engine = create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
            conn.rollback()
            assert not closed_by_server(raw)
            end_backend(admin, pid)
            assert closed_by_server(raw)
            conn.invalidate()
    finally:
        engine.dispose()
