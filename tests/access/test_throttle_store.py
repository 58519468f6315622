"""Throttles kept in the database: shared by every server of a deployment, reset by nothing a
client sends, a lock-out after ten wrong PINs that a supervisor lifts, and a throttle per
supervisor account whose failures fade so that a slow guesser cannot lock the supervisor out.

Each test runs on SQLite and (when ``QUIZ_TEST_DATABASE_URL`` is set) PostgreSQL; "two
servers" are two ``Store`` instances on one database, each with its own fresh throttle
objects, as two app processes behind a load balancer would have.
"""

from __future__ import annotations

import threading

import pytest
import streamlit as st

from quiz.access import pins as pin_module
from quiz.access.accounts import (
    LOCK_AFTER,
    NameThrottles,
    add_trainee,
    change_pin,
    lift_lockout,
    lockout_of,
    name_throttles,
    set_pin,
    sign_in,
)
from quiz.access.supervisors import ACCOUNT_POLICY, create_account
from quiz.access.supervisors import sign_in as account_sign_in
from quiz.access.throttles import LoginThrottle, ThrottlePolicy
from quiz.db.store import Store
from tests.fake_clock import FakeClock

PIN = "2468"
WRONG = "9999"
PASSWORD = "店長-throttle"
ACCOUNT = "Tencho"


@pytest.fixture
def account(store):
    """An admin account of ``PASSWORD`` on ``store``'s database (hashed cheaply)."""
    return create_account(store, ACCOUNT, PASSWORD, "admin", None, None)


def supervisor_login(store, password, clock=None):
    """An account sign-in from a fresh session: whether it was let in, throttled, and the wait."""
    if clock is None:
        result = account_sign_in(store, ACCOUNT, password, LoginThrottle())
    else:
        result = account_sign_in(store, ACCOUNT, password, LoginThrottle(clock), clock=clock)
    return result


@pytest.fixture
def two_servers(db_url):
    """Two stores on one database, as two app servers behind a load balancer."""
    first, second = Store(db_url), Store(db_url)
    yield first, second
    first.dispose()
    second.dispose()


def test_two_servers_on_one_database_share_the_pin_throttle(two_servers):
    first, second = two_servers
    add_trainee(first, "Aiko", PIN)
    assert sign_in(first, "Aiko", WRONG, name_throttles(), LoginThrottle()).retry_after == 1.0
    # the other server, a fresh session and fresh throttle objects: the name's wait holds
    refused = sign_in(second, "Aiko", PIN, name_throttles(), LoginThrottle())
    assert refused.throttled and refused.trainee is None


def test_clearing_streamlits_caches_resets_no_throttle(store, account):
    """What a client's ``BackMsg.clear_cache`` does on the server, done here by hand."""
    add_trainee(store, "Aiko", PIN)
    assert sign_in(store, "Aiko", WRONG, name_throttles(), LoginThrottle()).trainee is None
    assert supervisor_login(store, "guess-guess").supervisor is None
    st.cache_data.clear()
    st.cache_resource.clear()
    assert sign_in(store, "Aiko", PIN, name_throttles(), LoginThrottle()).throttled
    assert supervisor_login(store, PASSWORD).throttled


def legacy_throttles(clock: FakeClock) -> NameThrottles:
    """The name throttles as they were, locking after ``LOCK_AFTER`` wrong PINs: the locks they
    left are kept until a supervisor lifts them."""
    return NameThrottles(ThrottlePolicy(base=1.0, factor=2.0, ceiling=60.0, lock_after=LOCK_AFTER), clock)


def guess_until_locked(store: Store, name: str, clock: FakeClock) -> list[float]:
    """Wrong PINs for ``name`` under the old policy, each from a fresh session once the last
    wait is over; the waits."""
    waits = []
    for _ in range(LOCK_AFTER):
        result = sign_in(store, name, WRONG, legacy_throttles(clock), LoginThrottle(clock))
        assert result.trainee is None and not result.throttled
        waits.append(result.retry_after)
        clock.advance(result.retry_after)
    return waits


def test_wrong_pins_slow_a_name_but_never_lock_its_owner_out(store):
    """Finding M3: before, ten wrong PINs locked the name until a supervisor lifted it."""
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    waits = []
    for _ in range(30):
        result = sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock))
        assert result.trainee is None and not result.throttled and not result.locked
        waits.append(result.retry_after)
        clock.advance(result.retry_after)
    assert waits[0] == 1.0 and waits[:7] == sorted(waits[:7]) and max(waits) == 60.0  # doubling, fading slowly
    assert sum(waits) > 1_200  # 30 guesses took over 20 minutes of waits
    assert lockout_of(store, aiko.id) is None
    assert sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock)).trainee == aiko


def test_a_lock_left_by_the_old_policy_holds_until_a_supervisor_lifts_it(store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    waits = guess_until_locked(store, "Aiko", clock)
    assert waits[:7] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0]  # doubling, at most 60 s
    last = sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock))
    assert last.locked and last.throttled and last.trainee is None
    clock.advance(7 * 24 * 3600)  # a week later: still locked, even with the right PIN
    assert sign_in(store, "aiko", PIN, name_throttles(clock), LoginThrottle(clock)).locked
    assert lockout_of(store, aiko.id).failures == LOCK_AFTER
    assert lift_lockout(store, aiko.id, None)
    assert lockout_of(store, aiko.id) is None
    assert sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock)).trainee == aiko


def test_a_new_pin_from_a_supervisor_lifts_the_lockout(store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    guess_until_locked(store, "Aiko", clock)
    set_pin(store, aiko.id, "5820", None)
    assert sign_in(store, "Aiko", "5820", name_throttles(clock), LoginThrottle(clock)).trainee == aiko


def test_an_unknown_name_is_throttled_alike(store):
    clock = FakeClock()
    add_trainee(store, "Aiko", PIN)
    answers = {}
    for name in ("Aiko", "Nobody"):
        waits = []
        for _ in range(LOCK_AFTER + 2):
            result = sign_in(store, name, WRONG, name_throttles(clock), LoginThrottle(clock))
            waits.append((result.retry_after, result.locked, result.throttled))
            clock.advance(result.retry_after)
        answers[name] = waits
    assert answers["Aiko"] == answers["Nobody"]


def test_a_locked_name_refuses_a_pin_change_too(store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    guess_until_locked(store, "Aiko", clock)
    refused = change_pin(store, aiko, PIN, "5820", legacy_throttles(clock), LoginThrottle(clock))
    assert refused.locked and not refused.unlocked


def test_a_right_pin_before_the_tenth_wrong_one_clears_the_count(store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    for _ in range(LOCK_AFTER - 1):
        clock.advance(sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock)).retry_after)
    assert sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock)).trainee == aiko
    assert lockout_of(store, aiko.id) is None
    assert sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock)).retry_after == 1.0


def test_wrong_pins_a_day_apart_do_not_add_up(store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    for _ in range(2 * LOCK_AFTER):
        assert sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock)).retry_after == 1.0
        clock.advance(24 * 3600 + 1)
    assert sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock)).trainee == aiko


def test_guesses_sent_at_once_from_many_sessions_are_checked_one_at_a_time(two_servers, monkeypatch):
    """Sixteen sessions on two servers guess at the same moment: one guess is checked, the rest
    are held back; without the claim in the database each would pass the wait before any failed."""
    first, second = two_servers
    add_trainee(first, "Aiko", PIN)
    checks = []
    original = pin_module._scrypt

    def counting(*args):
        checks.append(1)
        return original(*args)

    monkeypatch.setattr(pin_module, "_scrypt", counting)
    start = threading.Barrier(16)
    results = []

    def guess(store: Store) -> None:
        start.wait()
        results.append(sign_in(store, "Aiko", WRONG, name_throttles(), LoginThrottle()))

    threads = [threading.Thread(target=guess, args=(first if n % 2 else second,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(checks) == 1
    assert sum(not r.throttled for r in results) == 1 and sum(r.throttled for r in results) == 15


def test_the_supervisor_throttle_is_shared_by_two_servers(two_servers):
    first, second = two_servers
    create_account(first, ACCOUNT, PASSWORD, "admin", None, None)
    assert supervisor_login(first, "guess-guess").retry_after == 1.0
    assert supervisor_login(second, PASSWORD).throttled


def test_a_guess_every_30_s_does_not_lock_the_supervisor_out(store, account):
    """Before: the server-wide wait grew to its 30 s ceiling and every guess renewed it, so a
    guess every 30 s kept the page throttled for good. Now failures fade (half-life 30 s):
    such a guesser holds the account for about 2 s of each 30."""
    clock = FakeClock()
    for _ in range(120):  # an hour of guesses, one every 30 s, each from a new session
        result = supervisor_login(store, "guess-guess", clock)
        assert not result.throttled and result.retry_after <= 2.5
        clock.advance(30.0)
    clock.advance(-25.0)  # the supervisor comes 5 s after the guesser's latest guess
    assert supervisor_login(store, PASSWORD, clock).supervisor == account


def test_a_fast_guesser_still_meets_the_supervisor_throttle(store, account):
    clock = FakeClock()
    waits = []
    for _ in range(12):  # as fast as the throttle lets anyone guess
        result = supervisor_login(store, "guess-guess", clock)
        assert not result.throttled
        waits.append(result.retry_after)
        clock.advance(result.retry_after)
    assert waits[0] == 1.0 and max(waits) <= ACCOUNT_POLICY.ceiling
    assert sum(waits) > 60.0  # twelve guesses take over a minute
    assert supervisor_login(store, PASSWORD, clock).supervisor == account


def test_old_rows_of_made_up_names_are_forgotten_but_an_accounts_lock_out_is_kept(store):
    """A flood of made-up names cannot grow the table for good: a day after its last failure a
    row goes (when another is made), locked or not, unless it locks a real account."""
    from sqlalchemy import select

    from quiz.db.tables import login_throttles

    clock = FakeClock()
    add_trainee(store, "Aiko", PIN)
    guess_until_locked(store, "Aiko", clock)
    guess_until_locked(store, "Nobody", clock)
    sign_in(store, "Somebody", WRONG, name_throttles(clock), LoginThrottle(clock))
    clock.advance(24 * 3600 + 1)
    sign_in(store, "Anyone", WRONG, name_throttles(clock), LoginThrottle(clock))  # a new row: the old ones are swept
    with store.engine.connect() as conn:
        subjects = set(conn.execute(select(login_throttles.c.subject)).scalars())
    assert subjects == {"aiko", "anyone"}
    assert sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock)).locked
