"""Values kept in memory while the database says they have not changed
(``quiz.db.kept_values``): a read overtaken by a change is not kept, nothing is kept past
``max_age``, and a closed watch keeps nothing again."""

from __future__ import annotations

import pytest

from quiz.db.kept_values import KeptValues
from tests.db.watching import CHANNEL, Reads, live_watch
from tests.waiting import wait_until


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
    watch: KeptValues[str] = KeptValues(CHANNEL, max_age=60.0, clock=lambda: now[0])
    listener = postgres_store.watches.listener
    assert listener is not None
    listener.add(watch)
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


def test_a_watch_keeps_values_only_while_live_and_never_once_closed():
    """Going live or not forgets everything; a closed watch is told it may keep values (a
    listener's late probe) and still reads every time."""
    watch: KeptValues[str] = KeptValues(CHANNEL)
    reads = Reads("v1")
    assert not watch.live
    watch.get(7, reads)
    watch.get(7, reads)
    assert reads.count == 2  # not live: read every time
    assert watch.set_live(True) is False and watch.live
    watch.get(7, reads)
    watch.get(7, reads)
    assert reads.count == 3  # live: kept
    assert watch.set_live(False) is True
    assert watch.set_live(True) is False  # what was kept is forgotten
    reads.value = "v2"
    assert watch.get(7, reads) == "v2" and reads.count == 4
    watch.close()
    assert watch.closed and not watch.live
    watch.set_live(True)
    watch.get(7, reads)
    watch.get(7, reads)
    assert not watch.live and reads.count == 6


def test_a_change_applies_to_the_kept_value_only():
    """``change`` rewrites what is kept (no read after) and keeps nothing for a key not kept."""
    watch: KeptValues[str] = KeptValues(CHANNEL)
    watch.set_live(True)
    reads = Reads("v1")
    watch.get(7, reads)
    watch.change(7, lambda kept: kept + "+w")
    watch.change(8, lambda kept: kept + "+w")
    assert watch.get(7, reads) == "v1+w" and reads.count == 1
    assert watch.get(8, reads) == "v1" and reads.count == 2
