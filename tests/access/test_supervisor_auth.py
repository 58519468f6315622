"""The supervisor password: configuration, constant-time check, and throttled logins."""

from __future__ import annotations

import pytest

from quiz.access.supervisor import (
    PASSWORD_ENV,
    PASSWORD_SECRET,
    LoginThrottle,
    attempt_login,
    configured_password,
    password_matches,
    unlock_token,
)
from tests.fake_clock import FakeClock


def test_environment_wins_over_secrets():
    assert configured_password({PASSWORD_ENV: "env-pw"}, {PASSWORD_SECRET: "secret-pw"}) == "env-pw"


def test_secret_is_used_without_environment():
    assert configured_password({}, {PASSWORD_SECRET: "secret-pw"}) == "secret-pw"


@pytest.mark.parametrize("environ, secrets", [({}, {}), ({PASSWORD_ENV: ""}, {}), ({PASSWORD_ENV: "  "}, {PASSWORD_SECRET: ""})])
def test_missing_or_blank_password_is_not_configured(environ, secrets):
    assert configured_password(environ, secrets) is None


def test_non_string_secret_is_ignored():
    assert configured_password({}, {PASSWORD_SECRET: 1234}) is None


def test_password_match_is_exact_over_unicode():
    assert password_matches("店長パス", "店長パス")
    assert not password_matches("店長パ", "店長パス")
    assert not password_matches("店長パス ", "店長パス")
    assert not password_matches("", "店長パス")


def test_unlock_token_changes_with_the_password():
    assert unlock_token("a") == unlock_token("a")
    assert unlock_token("a") != unlock_token("b")
    assert "s3cret" not in unlock_token("s3cret")  # a digest, never the password itself


def test_attempt_while_throttled_is_refused_without_checking():
    clock = FakeClock()
    session, process = LoginThrottle(clock), LoginThrottle(clock)
    first = attempt_login("guess", "right", [session, process])
    assert not first.unlocked and not first.throttled and first.retry_after == 1.0
    # Even the right password is refused until the wait is over, and the wait does not grow.
    early = attempt_login("right", "right", [session, process])
    assert early.throttled and not early.unlocked and early.retry_after == 1.0
    assert session.failures == 1
    clock.advance(1.0)
    assert attempt_login("right", "right", [session, process]).unlocked
    assert session.wait() == 0.0 and process.wait() == 0.0


def test_process_throttle_holds_across_sessions():
    clock = FakeClock()
    process = LoginThrottle(clock, ceiling=30.0)
    for _ in range(3):  # three sessions, one guess each, waiting out each delay
        attempt_login("guess", "right", [LoginThrottle(clock), process])
        clock.advance(process.wait())
    fresh_session = LoginThrottle(clock)
    result = attempt_login("guess", "right", [fresh_session, process])
    assert result.retry_after == 8.0  # the process's 4th failure: 1 * 2**3, the fresh session's is 1
    assert attempt_login("right", "right", [LoginThrottle(clock), process]).throttled


def test_the_server_wide_policy_fades_failures_with_a_30_s_half_life():
    from quiz.access.supervisor import SUPERVISOR_POLICY

    assert (SUPERVISOR_POLICY.base, SUPERVISOR_POLICY.factor, SUPERVISOR_POLICY.ceiling) == (1.0, 2.0, 30.0)
    assert SUPERVISOR_POLICY.half_life == 30.0 and SUPERVISOR_POLICY.lock_after is None  # never locked for good


def test_a_password_longer_than_the_limit_is_refused_unchecked_and_uncounted():
    from quiz.access.supervisor import PASSWORD_MAX

    clock = FakeClock()
    session = LoginThrottle(clock)
    result = attempt_login("x" * (PASSWORD_MAX + 1), "right", [session])
    assert result.too_long and not result.unlocked and not result.throttled
    assert session.failures == 0
