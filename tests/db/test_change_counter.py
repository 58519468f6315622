"""Kept values on a SQLite file, followed by its change counter (``quiz.db.change_counter``):
kept while no connection commits, this process's or another's."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys

import pytest
from sqlalchemy import text

from quiz.db import change_counter
from quiz.db.store import Store
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
