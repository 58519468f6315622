"""Sign-in throttles slow a guesser without keeping the owner out (finding M3).

Before: ten wrong PINs for a trainee's name locked it until a supervisor lifted the lock, and
one wrong password every 10 s (the account's wait renewed by each) kept a supervisor out for
good. Now a trainee's name is never locked, the owner's own device (a device token of theirs,
even signed out) is held only by its own throttle, and wrong tries are counted per client
address across names; a supervisor's account is held per address, and as a whole by at most
10 s (not at all from an address it signed in from within a day).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from quiz.access.accounts import add_trainee, name_throttles, sign_in
from quiz.access.device_tokens import issue, revoke
from quiz.access.supervisors import create_account
from quiz.access.supervisors import sign_in as account_sign_in
from quiz.access.throttles import LoginThrottle
from quiz.db.store import Store
from tests.fake_clock import FakeClock

PIN = "2468"
WRONG = "9999"
PASSWORD = "店長-throttle"
GUESSER, OWNER = "203.0.113.66", "198.51.100.7"


def _now(clock: FakeClock) -> datetime:
    return datetime.fromtimestamp(clock(), UTC)


def test_a_guesser_of_the_name_does_not_hold_the_owner_on_her_own_device(store: Store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    token = issue(store, aiko.id, _now(clock))  # Aiko signed in on her phone once
    revoke(store, token, _now(clock))  # and signed out there
    clock.advance(3600)
    for _ in range(12):  # a guesser who knows her name, as fast as allowed
        result = sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock), address=GUESSER)
        assert not result.locked
        clock.advance(result.retry_after)
    held = sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock), address=GUESSER)
    assert held.trainee is None  # the guesser's latest wrong PIN: the name waits again
    # Aiko on her phone, right after: her device's own throttle, not the name's
    mine = sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock), address=OWNER,
                   device_token=token)
    assert mine.trainee == aiko and not mine.throttled
    # elsewhere, without her device: held by the name, at most a minute, never locked
    clock.advance(1)
    elsewhere = sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock), address=OWNER)
    assert elsewhere.trainee is None or not elsewhere.throttled
    assert not elsewhere.locked and elsewhere.retry_after <= 60.0


def test_another_trainees_device_or_a_forged_token_is_no_pass(store: Store):
    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", PIN)
    ben = add_trainee(store, "Ben", "1357")
    bens = issue(store, ben.id, _now(clock))
    sign_in(store, "Aiko", WRONG, name_throttles(clock), LoginThrottle(clock), address=GUESSER)
    for token in (bens, f"{bens.partition('.')[0]}.forged", "1.x", "x" * 500):
        refused = sign_in(store, "Aiko", PIN, name_throttles(clock), LoginThrottle(clock), device_token=token)
        assert refused.throttled and refused.trainee is None, token
    assert aiko.id != ben.id


def test_a_guesser_going_through_names_is_held_by_its_address(store: Store):
    clock = FakeClock()
    for n in range(20):
        add_trainee(store, f"Trainee{n}", PIN)
    waits = []
    for n in range(20):  # one guess per name, each name fresh: before, nothing slowed this
        result = sign_in(store, f"Trainee{n}", WRONG, name_throttles(clock), LoginThrottle(clock), address=GUESSER)
        assert not result.throttled
        waits.append(result.retry_after)
        clock.advance(result.retry_after)
    assert waits[-1] > 60.0 and sum(waits) > 300  # more than any one name is held; before: no wait per address
    # another address is not held by it
    other = sign_in(store, "Trainee0", PIN, name_throttles(clock), LoginThrottle(clock), address=OWNER)
    assert other.trainee is not None


@pytest.fixture
def account(store):
    return create_account(store, "Tencho", PASSWORD, "admin", None, None)


def test_a_guess_every_10_s_does_not_keep_the_supervisor_out(store: Store, account):
    clock = FakeClock()
    waits = []
    for _ in range(60):  # ten minutes, one wrong password every 10 s from one address
        result = account_sign_in(store, "Tencho", "guess-guess", LoginThrottle(clock), clock=clock, address=GUESSER)
        waits.append(result.retry_after if not result.throttled else -1)
        clock.advance(10.0)
    clock.advance(-9.0)  # the supervisor 1 s after the guesser's latest try, from elsewhere
    first = account_sign_in(store, "Tencho", PASSWORD, LoginThrottle(clock), clock=clock, address=OWNER)
    assert first.supervisor == account or first.retry_after <= 10.0  # held 10 s at most
    clock.advance(10.0)
    assert account_sign_in(store, "Tencho", PASSWORD, LoginThrottle(clock), clock=clock,
                           address=OWNER).supervisor == account
    # from an address it signed in from today, at once, right after another guess
    account_sign_in(store, "Tencho", "guess-guess", LoginThrottle(clock), clock=clock, address=GUESSER)
    clock.advance(0.5)
    assert account_sign_in(store, "Tencho", PASSWORD, LoginThrottle(clock), clock=clock,
                           address=OWNER).supervisor == account
    assert waits.count(-1) >= 30  # the guesser is held at its own address


def test_a_fast_guesser_at_one_address_is_held_there(store: Store, account):
    clock = FakeClock()
    waits = []
    for _ in range(12):
        result = account_sign_in(store, "Tencho", "guess-guess", LoginThrottle(clock), clock=clock, address=GUESSER)
        assert not result.throttled
        waits.append(result.retry_after)
        clock.advance(result.retry_after)
    assert sum(waits) > 60.0
