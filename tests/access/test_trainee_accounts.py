"""Trainee accounts on a real database: adding with a PIN, signing in, new PINs."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from quiz.access.accounts import (
    NameTakenError,
    add_trainee,
    has_pin,
    name_throttles,
    set_pin,
    sign_in,
    throttle_key,
)
from quiz.access.pins import PinRuleError
from quiz.access.throttles import LoginThrottle
from quiz.db.tables import trainee_pins
from tests.fake_clock import FakeClock
from tests.scopes import EVERY_STORE


def fresh_session(clock: FakeClock | None = None) -> LoginThrottle:
    return LoginThrottle(clock or FakeClock())


def test_an_added_trainee_signs_in_with_the_pin(store):
    added = add_trainee(store, "  Aiko ", "2468")
    assert added.name == "Aiko"
    result = sign_in(store, "Aiko", "2468", name_throttles(), fresh_session())
    assert result.trainee == added and not result.throttled


def test_the_pin_is_stored_hashed(store):
    trainee = add_trainee(store, "Aiko", "2468")
    with store.engine.connect() as conn:
        stored = conn.execute(select(trainee_pins.c.pin_hash).where(trainee_pins.c.trainee_id == trainee.id)).scalar_one()
    assert stored.startswith("scrypt$") and "2468" not in stored


def test_a_wrong_pin_and_an_unknown_name_are_refused_alike(store):
    add_trainee(store, "Aiko", "2468")
    book = name_throttles()
    wrong_pin = sign_in(store, "Aiko", "1357", book, fresh_session())
    unknown = sign_in(store, "Nobody", "1357", book, fresh_session())
    assert wrong_pin.trainee is None and unknown.trainee is None
    assert (wrong_pin.retry_after, wrong_pin.throttled) == (unknown.retry_after, unknown.throttled)


def test_wrong_pins_are_throttled_per_name_across_sessions(store):
    add_trainee(store, "Aiko", "2468")
    book = name_throttles()
    assert sign_in(store, "Aiko", "0000", book, fresh_session()).retry_after == 1.0
    # a new browser session does not reset the name's wait, even with the right PIN
    refused = sign_in(store, " aiko", "2468", book, fresh_session())
    assert refused.throttled and refused.trainee is None
    # another name is not held up
    add_trainee(store, "Ben", "1357")
    assert sign_in(store, "Ben", "1357", book, fresh_session()).trainee is not None


def test_a_trainee_without_a_pin_cannot_sign_in(store):
    legacy = store.trainee("Chie")  # made before PINs existed
    assert not has_pin(store, legacy.id)
    for guess in ("", "0000", "Chie"):
        clock = FakeClock()
        book = name_throttles()
        assert sign_in(store, "Chie", guess, book, fresh_session(clock)).trainee is None


def test_a_new_pin_replaces_the_old_one(store):
    legacy = store.trainee("Chie")
    set_pin(store, legacy.id, "9753", None)
    assert has_pin(store, legacy.id)
    set_pin(store, legacy.id, "8642", None)
    book = name_throttles()
    assert sign_in(store, "Chie", "8642", book, fresh_session()).trainee == legacy
    old = sign_in(store, "Chie", "9753", name_throttles(), fresh_session())
    assert old.trainee is None


def test_a_taken_name_is_refused_and_nothing_changes(store):
    first = add_trainee(store, "Aiko", "2468")
    with pytest.raises(NameTakenError):
        add_trainee(store, "Aiko", "1357")
    assert store.trainees(EVERY_STORE) == [first]
    assert sign_in(store, "Aiko", "2468", name_throttles(), fresh_session()).trainee == first


def test_a_bad_pin_adds_no_trainee(store):
    with pytest.raises(PinRuleError):
        add_trainee(store, "Aiko", "12")
    with pytest.raises(ValueError):
        add_trainee(store, "   ", "2468")
    assert store.trainees(EVERY_STORE) == []


def test_names_share_a_throttle_whatever_their_case_width_and_spaces():
    assert throttle_key(" Aiko ") == throttle_key("AIKO") == throttle_key("aiko") == throttle_key("Ａｉｋｏ")


def test_a_trainee_changes_their_pin_with_the_current_one(store):
    from quiz.access.accounts import change_pin

    aiko = add_trainee(store, "Aiko", "2468")
    book = name_throttles()
    assert change_pin(store, aiko, "2468", "1357", book, fresh_session()).unlocked
    assert sign_in(store, "Aiko", "1357", name_throttles(), fresh_session()).trainee == aiko
    assert sign_in(store, "Aiko", "2468", name_throttles(), fresh_session()).trainee is None


def test_a_wrong_current_pin_changes_nothing_and_is_throttled_with_sign_ins(store):
    from quiz.access.accounts import change_pin

    clock = FakeClock()
    aiko = add_trainee(store, "Aiko", "2468")
    names = name_throttles(clock)
    refused = change_pin(store, aiko, "0000", "1357", names, fresh_session(clock))
    assert not refused.unlocked and refused.retry_after == 1.0
    # the name's wait holds for a sign-in too, whatever throttle objects it comes with
    assert sign_in(store, "Aiko", "2468", name_throttles(clock), fresh_session(clock)).throttled
    clock.advance(1.0)  # and the old PIN still works once it is over
    assert sign_in(store, "Aiko", "2468", names, fresh_session(clock)).trainee == aiko
    with pytest.raises(PinRuleError):
        change_pin(store, aiko, "2468", "12", names, fresh_session(clock))
    with pytest.raises(PinRuleError) as weak:
        change_pin(store, aiko, "2468", "1234", names, fresh_session(clock))
    assert weak.value.rule == "weak"
    assert sign_in(store, "Aiko", "2468", names, fresh_session(clock)).trainee == aiko


def test_a_pin_change_changes_the_credential_version(store):
    from quiz.access.accounts import change_pin, credential_version

    aiko = add_trainee(store, "Aiko", "2468")
    before = credential_version(store, aiko.id)
    signed_in = sign_in(store, "Aiko", "2468", name_throttles(), fresh_session())
    assert signed_in.credential == before is not None
    assert change_pin(store, aiko, "2468", "1357", name_throttles(), fresh_session()).unlocked
    assert credential_version(store, aiko.id) not in (None, before)
    assert credential_version(store, store.trainee("Chie").id) is None  # no PIN yet


def test_the_credential_guard_lets_an_answer_be_stored_only_while_the_pin_holds(store):
    """The PIN check of a click that gives an answer runs in the answer's transaction: once the
    PIN changed elsewhere, neither the attempt nor the card's schedule is written."""
    from datetime import timedelta

    from quiz.access.accounts import credential_guard, credential_version
    from quiz.db import reviews as review_store
    from quiz.db.answers import save_answer
    from quiz.model.errors import CredentialChangedError
    from tests.db.test_answers import T0, answer

    aiko = add_trainee(store, "Aiko", "2468")
    guard = credential_guard(store, aiko.id, credential_version(store, aiko.id))
    save_answer(store, answer(aiko.id, True, T0), guard)
    schedule = review_store.schedule(store, aiko.id, "pkm-k-cut-vs-shuffle")
    set_pin(store, aiko.id, "5820", None)  # a supervisor's new PIN, or the trainee's own elsewhere

    with pytest.raises(CredentialChangedError):
        save_answer(store, answer(aiko.id, False, T0 + timedelta(days=1)), guard)

    assert len(store.attempts()) == 1
    assert review_store.schedule(store, aiko.id, "pkm-k-cut-vs-shuffle") == schedule
    renewed = credential_guard(store, aiko.id, credential_version(store, aiko.id))  # signed in again
    save_answer(store, answer(aiko.id, False, T0 + timedelta(days=1)), renewed)
    assert len(store.attempts()) == 2


@pytest.mark.postgres
def test_on_postgres_the_pin_check_is_kept_until_a_new_pin_is_set_anywhere(postgres_url):
    """The PIN check of each click (``credential_version``, and the guard of an answer's
    transaction) costs no query while no server says the PIN changed; a PIN set by another
    process (the server's ``set-pin`` command, as on another server) is seen once its notice
    arrives, and one set here at once."""
    import subprocess
    import sys

    from sqlalchemy import event

    from quiz.access.accounts import credential_guard, credential_version
    from quiz.db.answers import save_answer
    from quiz.db.store import Store
    from quiz.model.errors import CredentialChangedError
    from tests.db.test_answers import T0, answer
    from tests.waiting import wait_until

    url = postgres_url
    store = Store(url)
    try:
        aiko = add_trainee(store, "Aiko", "2468")
        watch = store.watches.kept("quiz_credentials")
        wait_until(lambda: watch.live, "the server listens for PIN changes")
        queries: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *args: queries.append(args[2]))
        before = credential_version(store, aiko.id)
        assert [credential_version(store, aiko.id) for _ in range(5)] == [before] * 5
        guard = credential_guard(store, aiko.id, before)
        save_answer(store, answer(aiko.id, True, T0), guard)
        assert len([q for q in queries if "trainee_pins" in q]) == 1  # the first check's only

        done = subprocess.run([sys.executable, "-m", "quiz", "set-pin", "Aiko", "--database-url", url],
                              input="8051\n8051\n", capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        wait_until(lambda: credential_version(store, aiko.id) != before, "a PIN set in another process is seen")
        assert sign_in(store, "Aiko", "8051", name_throttles(), fresh_session()).credential \
            == credential_version(store, aiko.id)
        with pytest.raises(CredentialChangedError):  # the stale session's answer is refused
            save_answer(store, answer(aiko.id, False, T0), guard)
        assert len(store.attempts()) == 1

        seen = credential_version(store, aiko.id)
        set_pin(store, aiko.id, "3079", None)  # in this process: seen at the next check, no waiting
        assert credential_version(store, aiko.id) not in (seen, None)
    finally:
        store.dispose()
