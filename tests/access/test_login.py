"""Throttled logins: the doubling wait, fading failures, claims, one attempt against many."""

from __future__ import annotations

import pytest

from quiz.access.throttles import LoginThrottle, ThrottlePolicy, attempt
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


def test_a_claim_records_the_failure_before_the_check():
    """Two attempts at the same moment: the second is refused, it does not wait for the first
    attempt's check to fail."""
    clock = FakeClock()
    throttle = LoginThrottle(clock)
    first = throttle.claim()
    assert not first.refused and first.delay == 1.0 and throttle.failures == 1
    second = throttle.claim()
    assert second.refused and second.wait == 1.0 and throttle.failures == 1


def test_a_refused_attempt_undoes_the_claims_granted_before_it():
    clock = FakeClock()
    session, account = LoginThrottle(clock), LoginThrottle(clock)
    account.fail()  # the account waits, this session does not
    refused = attempt(lambda: True, [session, account])
    assert refused.throttled and refused.retry_after == 1.0
    assert session.failures == 0 and session.wait() == 0.0  # not counted against the session


def test_a_policy_without_half_life_counts_failures_in_a_row():
    policy = ThrottlePolicy(ceiling=60.0, lock_after=10)
    assert [policy.delay(n) for n in range(9)] == [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    assert policy.weight_after(3.0, quiet=3600.0) == 4.0  # time does not fade them


def test_a_half_life_fades_failures():
    policy = ThrottlePolicy(ceiling=30.0, half_life=30.0)
    assert policy.weight_after(2.0, quiet=30.0) == pytest.approx(2.0)  # half of 2, and this one
    assert policy.weight_after(4.0, quiet=60.0) == pytest.approx(2.0)
    steady = 0.0
    for _ in range(200):  # a guess every 30 s settles at a weight of 2: a 2 s wait
        steady = policy.weight_after(steady, quiet=30.0)
    assert steady == pytest.approx(2.0) and policy.delay(steady) == pytest.approx(2.0)


@pytest.mark.parametrize("options", [{"half_life": 0}, {"lock_after": 0}, {"base": 0}, {"ceiling": 0.5}])
def test_bad_policies_are_refused(options):
    with pytest.raises(ValueError):
        ThrottlePolicy(**options)
