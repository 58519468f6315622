"""Pack checks and join-code tries are limited per person, session and client address, in the
database (findings M1, L5): every server shares the limits and nothing a client sends resets them."""

from __future__ import annotations

import threading
import time

from quiz.access.work_limits import claim_join_code, claim_pack_check, one_check_at_a_time
from quiz.db.store import Store
from tests.fake_clock import FakeClock


def _granted_in_a_row(claim) -> int:
    n = 0
    while claim().granted:
        n += 1
        assert n < 100
    return n


def test_pack_checks_without_pause_are_held_per_person_and_per_address(store: Store, db_url: str):
    clock = FakeClock()
    first = _granted_in_a_row(lambda: claim_pack_check(store, "trainee:1", "203.0.113.9", clock))
    assert first == 1  # the next one right away waits 0.1 s
    waits = []
    for _ in range(12):  # a checker who checks as soon as allowed
        held = claim_pack_check(store, "trainee:1", "203.0.113.9", clock)
        assert not held.granted
        waits.append(held.wait)
        clock.advance(held.wait + 0.01)
        assert claim_pack_check(store, "trainee:1", "203.0.113.9", clock).granted
    assert waits[-1] == 60.0 or waits[-1] > 10.0
    # a throwaway trainee from the same address waits too; another person elsewhere does not
    assert not claim_pack_check(store, "trainee:2", "203.0.113.9", clock).granted
    assert claim_pack_check(store, "trainee:3", "198.51.100.1", clock).granted
    # a second server on the same database sees the same limit
    other = Store(db_url)
    try:
        assert not claim_pack_check(other, "trainee:1", None, clock).granted
    finally:
        other.dispose()
    clock.advance(3600)  # an author coming back later is not held
    assert claim_pack_check(store, "trainee:1", "203.0.113.9", clock).granted


def test_an_author_checking_every_quarter_minute_never_waits(store: Store):
    clock = FakeClock()
    for _ in range(40):
        assert claim_pack_check(store, "supervisor:1", "203.0.113.9", clock).granted
        clock.advance(15)


def test_join_code_tries_are_held_per_session_and_per_address(store: Store):
    clock = FakeClock()
    tries = 0
    started = clock.now
    while clock.now - started < 600:  # ten minutes of guessing as fast as allowed
        held = claim_join_code(store, "tab-1", "203.0.113.9", clock)
        if held.granted:
            tries += 1
        else:
            clock.advance(held.wait + 0.001)
    assert tries < 20  # before: 200 guesses in 18 s
    while not claim_join_code(store, "tab-1", "203.0.113.9", clock).granted:
        clock.advance(1)
    assert not claim_join_code(store, "tab-2", "203.0.113.9", clock).granted  # a new tab, same address
    assert claim_join_code(store, "tab-3", "198.51.100.1", clock).granted


def test_one_pack_check_at_a_time_per_server():
    inside = threading.Event()
    release = threading.Event()

    def first() -> None:
        with one_check_at_a_time() as had:
            assert had
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=first)
    thread.start()
    inside.wait(5)
    started = time.perf_counter()
    with one_check_at_a_time(timeout=0.2) as had:
        assert not had
    assert time.perf_counter() - started >= 0.19
    release.set()
    thread.join()
    with one_check_at_a_time(timeout=0.2) as had:
        assert had
