"""Throttled logins: the doubling wait, one book of throttles per name, one attempt against many."""

from __future__ import annotations

import pytest

from quiz.login import LoginThrottle, ThrottleBook, attempt
from tests.fake_clock import FakeClock


def test_throttle_doubles_the_wait_after_each_failure():
    clock = FakeClock()
    throttle = LoginThrottle(clock, base=1.0, factor=2.0, ceiling=300.0)
    assert throttle.wait() == 0.0
    assert throttle.fail() == 1.0  # 1 * 2**0
    assert throttle.wait() == 1.0
    clock.advance(1.0)
    assert throttle.fail() == 2.0  # 1 * 2**1
    clock.advance(2.0)
    assert throttle.fail() == 4.0  # 1 * 2**2
    clock.advance(1.5)
    assert throttle.wait() == pytest.approx(2.5)


def test_throttle_stops_at_the_ceiling():
    throttle = LoginThrottle(FakeClock(), base=1.0, factor=2.0, ceiling=10.0)
    delays = [throttle.fail() for _ in range(6)]
    assert delays == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]


def test_success_resets_the_throttle():
    clock = FakeClock()
    throttle = LoginThrottle(clock)
    throttle.fail()
    throttle.fail()
    clock.advance(5)
    throttle.succeed()
    assert throttle.wait() == 0.0
    assert throttle.fail() == 1.0


def test_bad_throttle_parameters_are_refused():
    with pytest.raises(ValueError):
        LoginThrottle(base=0)
    with pytest.raises(ValueError):
        LoginThrottle(factor=0.5)


def test_attempt_runs_the_check_only_when_no_throttle_holds():
    clock = FakeClock()
    session, account = LoginThrottle(clock), LoginThrottle(clock)
    calls: list[str] = []

    def wrong() -> bool:
        calls.append("checked")
        return False

    assert attempt(wrong, [session, account]).retry_after == 1.0
    refused = attempt(wrong, [LoginThrottle(clock), account])  # a new session, the same account
    assert refused.throttled and calls == ["checked"]
    clock.advance(1.0)
    assert attempt(lambda: True, [session, account]).unlocked
    assert session.failures == account.failures == 0


def test_book_keeps_one_throttle_per_key():
    book = ThrottleBook(clock=FakeClock())
    book.for_key("aiko").fail()
    assert book.for_key("aiko").failures == 1
    assert book.for_key("ben").failures == 0
    assert len(book) == 2


def test_book_forgets_the_least_recently_used_key_beyond_its_capacity():
    book = ThrottleBook(capacity=2, clock=FakeClock())
    book.for_key("a").fail()
    book.for_key("b").fail()
    book.for_key("a")  # used again: "b" is now the oldest
    book.for_key("c")
    assert len(book) == 2
    assert book.for_key("a").failures == 1
    assert book.for_key("b").failures == 0  # forgotten, so made again


def test_book_refuses_no_capacity():
    with pytest.raises(ValueError):
        ThrottleBook(capacity=0)
