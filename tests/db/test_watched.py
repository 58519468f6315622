"""Values kept in memory while the database says they have not changed (``quiz.db.watched``),
on a real PostgreSQL (LISTEN/NOTIFY) and on a SQLite file (its change counter)."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from typing import Iterator

import pytest
from sqlalchemy import text

from quiz.db import watched
from quiz.db.store import Store
from quiz.db.watched import LISTENER_NAME, WatchedValues, changed, notify
from tests.waiting import wait_until

CHANNEL = "quiz_test_values"


class Reads:
    """A ``read`` for ``WatchedValues.get`` that counts its calls and returns the value set."""

    def __init__(self, value: str) -> None:
        self.value, self.count = value, 0

    def __call__(self) -> str:
        self.count += 1
        return self.value


@pytest.fixture
def postgres_store(postgres_url: str) -> Iterator[Store]:
    store = Store(postgres_url)
    yield store
    store.dispose()


def live_watch(store: Store) -> WatchedValues[str]:
    watch = store.watched(CHANNEL)
    wait_until(lambda: watch.live, "the listener listens")
    return watch


@pytest.fixture
def elsewhere(postgres_url: str) -> Iterator[Store]:
    """Another server's store on the same database."""
    store = Store(postgres_url)
    yield store
    store.dispose()


def notify_from(store: Store, key: int) -> None:
    """A change committed with its notice, as another server commits it (no ``changed`` in
    the store watched)."""
    with store.engine.begin() as conn:
        notify(conn, CHANNEL, key)


@pytest.fixture
def sqlite_store(tmp_path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'quiz.db'}")
    yield store
    store.dispose()


def commit_a_change(store: Store) -> None:
    """A commit on one of the store's pooled connections (not the watch's own)."""
    with store.engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS scratch (n INTEGER)"))
        conn.execute(text("INSERT INTO scratch VALUES (1)"))


def test_sqlite_keeps_a_value_while_nothing_is_committed(sqlite_store):
    watch, reads = sqlite_store.watched(CHANNEL), Reads("v1")
    assert [watch.get(1, reads) for _ in range(3)] == ["v1"] * 3
    assert reads.count == 1 and watch.live
    reads.value = "v2"
    assert watch.get(2, reads) == "v2" and reads.count == 2  # another key is read


def test_sqlite_reads_again_after_a_commit_of_this_process(sqlite_store):
    watch, reads = sqlite_store.watched(CHANNEL), Reads("v1")
    watch.get(1, reads)
    commit_a_change(sqlite_store)
    reads.value = "v2"
    assert watch.get(1, reads) == "v2" and reads.count == 2
    assert watch.get(1, reads) == "v2" and reads.count == 2


def test_sqlite_reads_again_after_a_commit_of_another_process(sqlite_store, tmp_path):
    """Another server on the same file, or a change made by hand in the sqlite3 shell: no
    ``changed`` call in this process, only the file's change counter."""
    watch, reads = sqlite_store.watched(CHANNEL), Reads("v1")
    watch.get(1, reads)
    watch.get(1, reads)
    assert reads.count == 1
    script = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
              "c.execute('CREATE TABLE IF NOT EXISTS scratch (n INTEGER)'); c.commit(); c.close()")
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "quiz.db")], check=True)
    reads.value = "v2"
    assert watch.get(1, reads) == "v2" and reads.count == 2


def test_sqlite_a_transaction_not_yet_committed_changes_nothing(sqlite_store):
    commit_a_change(sqlite_store)
    watch, reads = sqlite_store.watched(CHANNEL), Reads("v1")
    watch.get(1, reads)
    with sqlite_store.engine.connect() as conn:
        conn.execute(text("INSERT INTO scratch VALUES (2)"))
        assert watch.get(1, reads) == "v1" and reads.count == 1
        conn.rollback()
    assert watch.get(1, reads) == "v1" and reads.count == 1


def test_sqlite_in_memory_keeps_nothing_and_reads_every_time():
    store = Store("sqlite://")
    try:
        watch, reads = store.watched(CHANNEL), Reads("v1")
        assert [watch.get(1, reads) for _ in range(3)] == ["v1"] * 3
        assert reads.count == 3 and not watch.live
    finally:
        store.dispose()


def test_sqlite_reads_every_time_while_its_counter_cannot_be_read(sqlite_store, caplog):
    watch, reads = sqlite_store.watched(CHANNEL), Reads("v1")
    watch.get(1, reads)
    watch._counter._connection.close()  # the watch's own connection is gone
    with caplog.at_level(logging.WARNING, logger=watched.__name__):
        assert [watch.get(1, reads) for _ in range(3)] == ["v1"] * 3
    assert reads.count == 4 and not watch.live
    assert len([r for r in caplog.records if "change counter" in r.getMessage()]) == 1  # once a streak


def test_sqlite_disposing_the_store_closes_the_counters_connection(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'quiz.db'}")
    watch = store.watched(CHANNEL)
    counter = watch._counter
    store.dispose()
    with pytest.raises(sqlite3.ProgrammingError):
        counter._connection.execute("PRAGMA data_version")
    reads = Reads("v1")
    assert [watch.get(1, reads) for _ in range(2)] == ["v1"] * 2 and reads.count == 2


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
def test_a_change_in_this_process_is_seen_at_once(postgres_store):
    watch, reads = live_watch(postgres_store), Reads("v1")
    watch.get(7, reads)
    reads.value = "v2"
    changed(CHANNEL, 7)
    assert watch.get(7, reads) == "v2" and reads.count == 2


@pytest.mark.postgres
def test_the_listener_lets_its_own_stores_notices_pass(postgres_store, elsewhere):
    """A change made here is taken in by ``changed`` at its commit; its notice, heard a moment
    later, must not forget the value read back after it (another store's must)."""
    watch, reads = live_watch(postgres_store), Reads("v1")
    watch.get(7, reads)
    reads.value = "v2"
    with postgres_store.engine.begin() as conn:
        notify(conn, CHANNEL, 7)
    changed(CHANNEL, 7)
    assert watch.get(7, reads) == "v2" and reads.count == 2  # read back after the change
    generation = watch._generation
    reads.value = "v3"  # what a needless read would bring; the database still holds v2
    notify_from(elsewhere, 99)  # a later notice of another store: once heard, ours was too
    wait_until(lambda: watch._generation > generation, "the other store's notice is heard")
    assert watch.get(7, reads) == "v2" and reads.count == 2  # our own notice forgot nothing
    notify_from(elsewhere, 7)
    wait_until(lambda: watch.get(7, reads) == "v3", "another store's notice of the key forgets it")


def test_a_notice_names_its_key_and_its_sender(tmp_path):
    """Every key, or one; and each engine its own sender, so two stores of one process (two
    servers, in these tests) hear each other."""
    one, two = Store(f"sqlite:///{tmp_path / 'a.db'}"), Store(f"sqlite:///{tmp_path / 'b.db'}")
    try:
        first, every = watched.notice_payload(one.engine, 7), watched.notice_payload(one.engine, None)
        assert watched._key(first) == 7 and watched._key(every) is None
        assert watched._key("7") == 7  # a server of before sent the bare key
        assert first.partition("/")[2] == every.partition("/")[2] != watched.notice_payload(two.engine, 7).partition("/")[2]
    finally:
        one.dispose()
        two.dispose()


@pytest.mark.postgres
def test_a_change_of_this_process_can_change_the_kept_value_in_place(postgres_store):
    """The writer knows what it wrote: ``changed`` with a change applies it to the value kept
    (no read after), leaves a key not kept unkept, and a read it overtakes is not kept."""
    watch, reads = live_watch(postgres_store), Reads("v1")
    engine = postgres_store.engine
    watch.get(7, reads)
    changed(CHANNEL, 7, lambda value: value + "+w", engine)
    assert watch.get(7, reads) == "v1+w" and reads.count == 1
    changed(CHANNEL, 8, lambda value: value + "+w", engine)  # nothing kept for 8: read when asked
    reads.value = "v2"
    assert watch.get(8, reads) == "v2" and reads.count == 2

    def read_during_a_change() -> str:
        value = reads()
        changed(CHANNEL, 9, lambda kept: kept + "+w", engine)  # the change lands while the value is on its way
        return value

    assert watch.get(9, read_during_a_change) == "v2"
    assert watch.get(9, reads) == "v2" and reads.count == 4  # not kept: read again

    other = Store("sqlite://")  # a write to another database changes nothing kept here: forgotten
    try:
        changed(CHANNEL, 7, lambda value: value + "+other", other.engine)
    finally:
        other.dispose()
    assert watch.get(7, reads) == "v2" and reads.count == 5


@pytest.mark.postgres
def test_a_read_overtaken_by_a_notice_is_returned_but_not_kept(postgres_store):
    watch = live_watch(postgres_store)
    reads = Reads("old")

    def read_during_a_change() -> str:
        value = reads()
        watch.forget(7)  # the notice arrives while the value is on its way
        return value

    assert watch.get(7, read_during_a_change) == "old"
    reads.value = "new"
    assert watch.get(7, reads) == "new" and reads.count == 2


@pytest.mark.postgres
def test_a_kept_value_is_read_again_after_max_age(postgres_store):
    now = [1000.0]
    watch: WatchedValues[str] = WatchedValues(postgres_store.engine, CHANNEL, max_age=60.0, clock=lambda: now[0])
    try:
        wait_until(lambda: watch.live, "the listener listens")
        reads = Reads("v1")
        watch.get(7, reads)
        now[0] += 59.0
        watch.get(7, reads)
        assert reads.count == 1
        now[0] += 1.0
        watch.get(7, reads)
        assert reads.count == 2  # a change made without a notice is seen within max_age
    finally:
        watch.close()


@pytest.mark.postgres
def test_a_broken_listening_connection_reads_through_until_it_is_back(postgres_store, elsewhere, monkeypatch):
    monkeypatch.setattr(watched, "POLL", 0.05)
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
    watch = postgres_store.watched(CHANNEL)
    wait_until(lambda: watch.live, "the listener listens")
    watch.close()
    assert not watch.live
    reads = Reads("v1")
    watch.get(7, reads)
    watch.get(7, reads)
    assert reads.count == 2
    assert watch._listener is not None
    listener = watch._listener.thread
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
    monkeypatch.setattr(watched, "POLL", 0.05)
    probes: list[str] = []
    monkeypatch.setattr(watched, "send_probe", lambda connection, channel, payload: probes.append(payload))
    watch, reads = postgres_store.watched(CHANNEL), Reads("v1")
    wait_until(lambda: len(probes) >= 3, "the listener tried, and connected again, three times")
    assert len({probe.rsplit("-", 1)[0] for probe in probes}) == 3  # a new connection each time
    for _ in range(3):
        watch.get(7, reads)
    assert reads.count == 3 and not watch.live


@pytest.mark.postgres
def test_one_listening_connection_serves_every_watch_of_a_store(postgres_store, elsewhere):
    """Three channels, one connection and one probe a second: a notice reaches only the
    watches of its channel, and a watch added while listening is heard too."""
    first, second = live_watch(postgres_store), postgres_store.watched(f"{CHANNEL}_b")
    wait_until(lambda: second.live, "the second channel is listened on")
    a, b = Reads("a1"), Reads("b1")
    first.get(7, a)
    second.get(7, b)
    notify_from(elsewhere, 7)  # on CHANNEL
    wait_until(lambda: first.get(7, a) == "a1" and a.count == 2, "the notice reached the first channel")
    second.get(7, b)
    assert b.count == 1  # the second channel heard nothing of it
    third = postgres_store.watched(f"{CHANNEL}_c")
    wait_until(lambda: third.live, "a channel added later is listened on")
    with postgres_store.engine.connect() as conn:
        listening = conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name "
                                      "AND datname = current_database()"), {"name": LISTENER_NAME}).scalar_one()
    assert listening == 1
