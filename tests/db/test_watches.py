"""A store's watches (``quiz.db.watches``): a change this store writes is taken in at once,
forgotten or applied in place, in its own watches alone; other servers hear the notice."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from quiz.db.store import Store
from tests.db.watching import CHANNEL, Reads, live_watch, notify_from
from tests.waiting import wait_until


@pytest.mark.postgres
def test_a_change_in_this_process_is_seen_at_once(postgres_store):
    watch, reads = live_watch(postgres_store), Reads("v1")
    watch.get(7, reads)
    reads.value = "v2"
    postgres_store.watches.changed(CHANNEL, 7)
    assert watch.get(7, reads) == "v2" and reads.count == 2


@pytest.mark.postgres
def test_a_change_of_this_process_can_change_the_kept_value_in_place(postgres_store):
    """The writer knows what it wrote: ``changed`` with a change applies it to the value kept
    (no read after), leaves a key not kept unkept, and a read it overtakes is not kept."""
    watch, reads = live_watch(postgres_store), Reads("v1")
    watches = postgres_store.watches
    watch.get(7, reads)
    watches.changed(CHANNEL, 7, lambda value: value + "+w")
    assert watch.get(7, reads) == "v1+w" and reads.count == 1
    watches.changed(CHANNEL, 8, lambda value: value + "+w")  # nothing kept for 8: read when asked
    reads.value = "v2"
    assert watch.get(8, reads) == "v2" and reads.count == 2

    def read_during_a_change() -> str:
        value = reads()
        watches.changed(CHANNEL, 9, lambda kept: kept + "+w")  # the change lands while the value is on its way
        return value

    assert watch.get(9, read_during_a_change) == "v2"
    assert watch.get(9, reads) == "v2" and reads.count == 4  # not kept: read again
    watches.changed(CHANNEL, None, lambda value: value + "+every")  # every key: forgotten, not changed
    assert watch.get(7, reads) == "v2" and reads.count == 5


@pytest.mark.postgres
def test_another_stores_change_reaches_this_one_by_its_notice_alone(postgres_store, elsewhere):
    """Two servers on one database (two stores of this process, in tests): the other's
    ``changed`` touches only its own watches; this store forgets the key when the notice is
    heard, and reads it again."""
    watch, reads = live_watch(postgres_store), Reads("v1")
    watch.get(7, reads)
    elsewhere.watches.kept(CHANNEL)
    elsewhere.watches.changed(CHANNEL, 7, lambda value: value + "+other")
    elsewhere.watches.changed(CHANNEL, None)
    assert watch.get(7, reads) == "v1" and reads.count == 1  # still kept: no notice yet
    reads.value = "v2"
    notify_from(elsewhere, 7)
    wait_until(lambda: watch.get(7, reads) == "v2", "the other server's notice forgets the key")
    assert reads.count == 2


def test_notify_on_sqlite_sends_nothing(sqlite_store):
    """SQLite has no notices: ``notify`` runs no statement, and what was kept stays kept
    (its change counter sees the commit of a write instead: ``tests/db/test_change_counter.py``)."""
    watch, reads = sqlite_store.watches.kept(CHANNEL), Reads("v1")
    watch.get(7, reads)
    sent: list[str] = []
    event.listen(sqlite_store.engine, "before_cursor_execute", lambda *args: sent.append(args[2]))
    notify_from(sqlite_store, 7)
    assert sent == [] and watch.get(7, reads) == "v1" and reads.count == 1


def test_a_store_says_which_channels_it_watches_and_whether_all_keep_values(tmp_path):
    """``channels`` and ``live`` over every watch: on a SQLite file all keep values; in
    memory (no change counter) none does."""
    on_file, in_memory = Store(f"sqlite:///{tmp_path / 'quiz.db'}"), Store("sqlite://")
    try:
        for store in (on_file, in_memory):
            assert store.watches.channels == frozenset() and store.watches.live
            store.watches.kept(CHANNEL)
            store.watches.kept(f"{CHANNEL}_b")
            assert store.watches.channels == {CHANNEL, f"{CHANNEL}_b"}
        assert on_file.watches.live and not in_memory.watches.live
    finally:
        on_file.dispose()
        in_memory.dispose()
