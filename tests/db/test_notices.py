"""PostgreSQL's notices for kept values (``quiz.db.notices``): what a notice says, and the
store's one listener, on a real PostgreSQL: another server's notice forgets a key, the
store's own pass, and nothing is kept while the listener does not hear its own probes."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from quiz.db import notices
from quiz.db.notices import LISTENER_NAME, notice_key
from quiz.db.store import Store
from tests.db.watching import CHANNEL, Reads, live_watch, notify_from
from tests.waiting import wait_until


@pytest.mark.postgres
def test_a_value_is_kept_until_another_server_notifies_a_change(postgres_store, elsewhere):
    watch, reads = live_watch(postgres_store), Reads("v1")
    assert watch.get(7, reads) == watch.get(7, reads) == "v1"
    assert reads.count == 1  # the second came from memory
    other = Reads("other")
    watch.get(8, other)
    reads.value = "v2"
    notify_from(elsewhere, 7)
    wait_until(lambda: watch.get(7, reads) == "v2", "the notice makes the next get read again")
    watch.get(8, other)
    assert other.count == 1  # a notice forgets only the key it names


@pytest.mark.postgres
def test_the_listener_lets_its_own_stores_notices_pass(postgres_store, elsewhere):
    """A change made here is taken in by ``changed`` at its commit; its notice, heard a moment
    later, must not forget the value read back after it (another store's must)."""
    watch, reads = live_watch(postgres_store), Reads("v1")
    watch.get(7, reads)
    reads.value = "v2"
    with postgres_store.engine.begin() as conn:
        postgres_store.watches.notify(conn, CHANNEL, 7)
    postgres_store.watches.changed(CHANNEL, 7)
    assert watch.get(7, reads) == "v2" and reads.count == 2  # read back after the change
    generation = watch._generation
    reads.value = "v3"  # what a needless read would bring; the database still holds v2
    notify_from(elsewhere, 99)  # a later notice of another store: once heard, ours was too
    wait_until(lambda: watch._generation > generation, "the other store's notice is heard")
    assert watch.get(7, reads) == "v2" and reads.count == 2  # our own notice forgot nothing
    notify_from(elsewhere, 7)
    wait_until(lambda: watch.get(7, reads) == "v3", "another store's notice of the key forgets it")


def test_a_notice_names_its_key_and_its_sender(tmp_path):
    """Every key, or one; and each store its own sender, so two stores of one process (two
    servers, in these tests) hear each other."""
    one, two = Store(f"sqlite:///{tmp_path / 'a.db'}"), Store(f"sqlite:///{tmp_path / 'b.db'}")
    try:
        first, every = one.watches.payload(7), one.watches.payload(None)
        assert notice_key(first) == 7 and notice_key(every) is None
        assert notice_key("7") == 7  # a server of before sent the bare key
        assert first.partition("/")[2] == every.partition("/")[2] != two.watches.payload(7).partition("/")[2]
    finally:
        one.dispose()
        two.dispose()


@pytest.mark.postgres
def test_a_broken_listening_connection_reads_through_until_it_is_back(postgres_store, elsewhere, monkeypatch):
    monkeypatch.setattr(notices, "POLL", 0.05)
    watch, reads = live_watch(postgres_store), Reads("v1")
    watch.get(7, reads)
    generation = watch._generation
    with postgres_store.engine.connect() as conn:  # the database drops the listener's connection
        ended = conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE application_name = :name AND datname = current_database()"),
                             {"name": LISTENER_NAME}).scalars().all()
    assert ended == [True]
    wait_until(lambda: watch._generation > generation + 1, "the listener noticed and came back")
    wait_until(lambda: watch.live, "the listener listens again")
    watch.get(7, reads)
    assert reads.count == 2  # coming back, it forgot what it kept (notices may have been missed)
    reads.value = "v2"
    notify_from(elsewhere, 7)
    wait_until(lambda: watch.get(7, reads) == "v2", "notices are heard again")


@pytest.mark.postgres
def test_while_not_listening_every_get_reads(postgres_store):
    watch = postgres_store.watches.kept(CHANNEL)
    wait_until(lambda: watch.live, "the listener listens")
    watch.close()
    assert not watch.live
    reads = Reads("v1")
    watch.get(7, reads)
    watch.get(7, reads)
    assert reads.count == 2
    assert postgres_store.watches.listener is not None
    listener = postgres_store.watches.listener.thread
    assert listener is not None
    listener.join(timeout=10)
    assert not listener.is_alive()  # its last watch closed: the listener stops, and its connection is closed


@pytest.mark.postgres
def test_disposing_the_store_closes_the_listening_connection(postgres_url):
    store = Store(postgres_url)
    live_watch(store)
    store.dispose()
    probe = Store(postgres_url)
    try:
        def listeners() -> int:
            with probe.engine.connect() as conn:
                return conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name "
                                         "AND datname = current_database()"), {"name": LISTENER_NAME}).scalar_one()

        wait_until(lambda: listeners() == 0, "the listener's connection is closed")
    finally:
        probe.dispose()


@pytest.mark.postgres
def test_a_listener_that_does_not_hear_its_own_probe_keeps_nothing(postgres_store, monkeypatch):
    """As behind a pooler that does not carry notices: the probe goes out and never comes
    back, so the watch reads every time and never keeps what it read."""
    monkeypatch.setattr(notices, "POLL", 0.05)
    probes: list[str] = []
    monkeypatch.setattr(notices, "send_probe", lambda connection, channel, payload: probes.append(payload))
    watch, reads = postgres_store.watches.kept(CHANNEL), Reads("v1")
    wait_until(lambda: len(probes) >= 3, "the listener tried, and connected again, three times")
    assert len({probe.rsplit("-", 1)[0] for probe in probes}) == 3  # a new connection each time
    for _ in range(3):
        watch.get(7, reads)
    assert reads.count == 3 and not watch.live


@pytest.mark.postgres
def test_one_listening_connection_serves_every_watch_of_a_store(postgres_store, elsewhere):
    """Three channels, one connection and one probe a second: a notice reaches only the
    watches of its channel, and a watch added while listening is heard too."""
    first, second = live_watch(postgres_store), postgres_store.watches.kept(f"{CHANNEL}_b")
    wait_until(lambda: second.live, "the second channel is listened on")
    a, b = Reads("a1"), Reads("b1")
    first.get(7, a)
    second.get(7, b)
    notify_from(elsewhere, 7)  # on CHANNEL
    wait_until(lambda: first.get(7, a) == "a1" and a.count == 2, "the notice reached the first channel")
    second.get(7, b)
    assert b.count == 1  # the second channel heard nothing of it
    third = postgres_store.watches.kept(f"{CHANNEL}_c")
    wait_until(lambda: third.live, "a channel added later is listened on")
    with postgres_store.engine.connect() as conn:
        listening = conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name "
                                      "AND datname = current_database()"), {"name": LISTENER_NAME}).scalar_one()
    assert listening == 1
