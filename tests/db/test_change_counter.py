"""Kept values on a SQLite file, followed by its change counter (``quiz.db.change_counter``):
kept while no other connection commits, this process's or another's; the store's own writes
(a step, an answer) go through the counter's connection and keep them."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
import threading
from datetime import timedelta

import pytest
from sqlalchemy import text

from quiz.db import change_counter
from quiz.db.answers import save_answer
from quiz.db.investigations import steps_taken, take_step
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord, utc_now
from tests.db.watching import CHANNEL, Reads, commit_a_change


def test_sqlite_keeps_a_value_while_nothing_is_committed(sqlite_store):
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    assert [watch.get(1, reads) for _ in range(3)] == ["v1"] * 3
    assert reads.count == 1 and watch.live
    reads.value = "v2"
    assert watch.get(2, reads) == "v2" and reads.count == 2  # another key is read


def test_sqlite_reads_again_after_a_commit_of_this_process(sqlite_store):
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    watch.get(1, reads)
    commit_a_change(sqlite_store)
    reads.value = "v2"
    assert watch.get(1, reads) == "v2" and reads.count == 2
    assert watch.get(1, reads) == "v2" and reads.count == 2


def test_sqlite_reads_again_after_a_commit_of_another_process(sqlite_store, tmp_path):
    """Another server on the same file, or a change made by hand in the sqlite3 shell: no
    ``changed`` call in this process, only the file's change counter."""
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
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
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    watch.get(1, reads)
    with sqlite_store.engine.connect() as conn:
        conn.execute(text("INSERT INTO scratch VALUES (2)"))
        assert watch.get(1, reads) == "v1" and reads.count == 1
        conn.rollback()
    assert watch.get(1, reads) == "v1" and reads.count == 1


def test_sqlite_in_memory_keeps_nothing_and_reads_every_time():
    store = Store("sqlite://")
    try:
        watch, reads = store.watches.kept(CHANNEL), Reads("v1")
        assert [watch.get(1, reads) for _ in range(3)] == ["v1"] * 3
        assert reads.count == 3 and not watch.live
    finally:
        store.dispose()


def test_sqlite_reads_every_time_while_its_counter_cannot_be_read(sqlite_store, caplog):
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    watch.get(1, reads)
    watch._counter._connection.close()  # the watch's own connection is gone
    with caplog.at_level(logging.WARNING, logger=change_counter.__name__):
        assert [watch.get(1, reads) for _ in range(3)] == ["v1"] * 3
    assert reads.count == 4 and not watch.live
    assert len([r for r in caplog.records if "change counter" in r.getMessage()]) == 1  # once a streak


def test_sqlite_disposing_the_store_closes_the_counters_connection(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'quiz.db'}")
    watch = store.watches.kept(CHANNEL)
    counter = watch._counter
    store.dispose()
    with pytest.raises(sqlite3.ProgrammingError):
        counter._connection.execute("PRAGMA data_version")
    reads = Reads("v1")
    assert [watch.get(1, reads) for _ in range(2)] == ["v1"] * 2 and reads.count == 2


def another_process_commits(path) -> None:
    script = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
              "c.execute('CREATE TABLE IF NOT EXISTS scratch (n INTEGER)'); "
              "c.execute('INSERT INTO scratch VALUES (7)'); c.commit(); c.close()")
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)


def an_answer(trainee_id: int, card_id: str = "ygo-late-under-5") -> AttemptRecord:
    return AttemptRecord(trainee_id=trainee_id, card_id=card_id, ruleset="yugioh-ocg", category=None,
                         card_kind="scenario", correct=True, seconds=3.0)


def test_sqlite_the_stores_own_step_and_answer_keep_what_is_kept(sqlite_store):
    """A floor call's step and an answer are written on the counter's own connection: their
    commits do not make the page read its kept values again (before, every step did)."""
    trainee = sqlite_store.trainee("Aki")
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    watch.get(1, reads)
    take_step(sqlite_store, trainee.id, "ygo-call", "ask-kimura")
    save_answer(sqlite_store, an_answer(trainee.id))
    assert watch.get(1, reads) == "v1" and reads.count == 1
    assert steps_taken(sqlite_store, trainee.id, "ygo-call") == ("ask-kimura",)  # committed, all the same
    assert len(sqlite_store.attempts(trainee.id)) == 1


def test_sqlite_another_commit_beside_the_stores_own_writes_is_still_seen(sqlite_store, tmp_path):
    """Another process commits between two of this store's own writes: the counter moves for
    it, whatever this store wrote since, and the value is read again."""
    trainee = sqlite_store.trainee("Aki")
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    watch.get(1, reads)
    take_step(sqlite_store, trainee.id, "ygo-call", "ask-kimura")
    another_process_commits(tmp_path / "quiz.db")
    take_step(sqlite_store, trainee.id, "ygo-call", "ask-sato")
    reads.value = "v2"
    assert watch.get(1, reads) == "v2" and reads.count == 2
    assert watch.get(1, reads) == "v2" and reads.count == 2


def test_sqlite_own_writes_from_many_threads_at_once_all_land(sqlite_store):
    """Sessions write at once: the counter's one connection takes them one at a time, every
    step and answer is kept, and reads of kept values go on meanwhile."""
    trainees = [sqlite_store.trainee(f"T{n}") for n in range(8)]
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    failures: list[BaseException] = []
    start = threading.Barrier(len(trainees))

    def session(trainee_id: int) -> None:
        try:
            start.wait()
            for n in range(10):
                take_step(sqlite_store, trainee_id, "ygo-call", f"step-{n}", now=utc_now() + timedelta(seconds=n))
                save_answer(sqlite_store, an_answer(trainee_id))
                watch.get(1, reads)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=session, args=(t.id,)) for t in trainees]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    for trainee in trainees:
        assert steps_taken(sqlite_store, trainee.id, "ygo-call") == tuple(f"step-{n}" for n in range(10))
        assert len(sqlite_store.attempts(trainee.id)) == 10
    assert reads.count == 1  # no commit but the store's own: read once
