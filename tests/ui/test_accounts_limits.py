"""Accounts in the real app (AppTest, real database): throttles that clearing Streamlit's caches
does not reset, a PIN change that signs the trainee's other sessions out, look-alike names and
weak PINs refused with a reason, and the lock-out and its lifting on the Team page.

(8 MiB names and PINs: Streamlit 1.67 cuts a text widget's value to its ``max_chars`` when it
reads what a client sent, so they never reach the forms' callbacks; the core functions refuse
them anyway, before any hashing or query: tests/test_names.py.)
"""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from quiz.access.accounts import LOCK_AFTER, NameThrottles, add_trainee, name_throttles, set_pin
from quiz.access.accounts import sign_in as core_sign_in
from quiz.access.throttles import LoginThrottle, ThrottlePolicy
from quiz.db import audit
from quiz.model.attempt import utc_now
from quiz.ui import supervisor_gate, trainee_session
from tests.fake_clock import FakeClock
from tests.scopes import EVERY_STORE
from tests.shipped_content import shipped_content
from tests.ui import seeding, supervisor
from tests.ui.test_sign_in import add_me, change_my_pin, sign_in, signed_in_name

PIN = "2468"
PASSWORD = "店長-accounts"
TEAM = "quiz/ui/pages/team.py"


@pytest.fixture(autouse=True)
def fresh_gate(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


@pytest.fixture
def aiko(store):
    """Aiko, with a PIN and one answer (so the Team page lists her)."""
    trainee = add_trainee(store, "Aiko", PIN)
    content = shipped_content()
    seeding.seed(store, content, trainee.id, content.knowledge_cards[0], True, utc_now())
    return trainee


@pytest.fixture
def visitor(open_app):
    """A new browser session, signed out (optionally on another page)."""
    return lambda page=None: open_app(trainee=None, page=page)


def clear_cache() -> None:
    """What the server does on a client's ``BackMsg.clear_cache`` (the client's session state
    goes too: the tests go on in a new session, which clears it as well)."""
    st.cache_data.clear()
    st.cache_resource.clear()


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


@pytest.fixture
def still_clock(monkeypatch) -> FakeClock:
    """The server-wide throttles (per trainee name, and per supervisor account) on a clock that
    stands still: "at once" then holds however long a loaded machine takes between two
    AppTest sessions (their first wait is 1 s)."""
    clock = FakeClock()
    monkeypatch.setattr(trainee_session, "name_throttles", lambda: name_throttles(clock))
    monkeypatch.setattr(supervisor_gate, "throttle_clock", clock)
    clear_cache()  # the throttles the app keeps are made again, on this clock
    return clock


def test_clearing_the_caches_between_guesses_resets_no_pin_throttle(aiko, visitor, still_clock):
    assert "do not match" in errors(sign_in(visitor(), "Aiko", "9999"))[0]
    clear_cache()
    at = sign_in(visitor(), "Aiko", PIN)  # the right PIN, at once, from a new session
    assert signed_in_name(at) is None
    assert "Too many wrong tries" in errors(at)[0]


def give_password(at: AppTest, password: str) -> AppTest:
    supervisor.unlock(at, password)
    assert not at.exception, at.exception
    return at


def test_clearing_the_caches_between_guesses_resets_no_supervisor_throttle(aiko, visitor, monkeypatch, still_clock):
    supervisor.make_account(PASSWORD)
    assert "do not match" in errors(give_password(visitor(TEAM), "a-guess"))[0]
    clear_cache()
    at = give_password(visitor(TEAM), PASSWORD)
    assert "Too many wrong attempts" in errors(at)[0]
    assert not at.tabs and not at.dataframe


def test_changing_the_pin_signs_the_other_session_out(aiko, visitor):
    here = sign_in(visitor(), "Aiko", PIN)
    elsewhere = sign_in(visitor(), "Aiko", PIN)
    assert signed_in_name(here) == signed_in_name(elsewhere) == "Aiko"
    change_my_pin(here, PIN, "5820")
    assert "Your PIN is changed" in here.success[0].value
    elsewhere.run()
    assert signed_in_name(elsewhere) is None
    assert any("PIN was changed" in text for text in errors(elsewhere) + [i.value for i in elsewhere.info])
    assert "practice" not in elsewhere.session_state  # nothing of the trainee is left there
    here.run()
    assert signed_in_name(here) == "Aiko"  # the session that changed it stays signed in


def test_a_new_pin_from_a_supervisor_signs_the_trainee_out_everywhere(aiko, store, visitor):
    elsewhere = sign_in(visitor(), "Aiko", PIN)
    set_pin(store, aiko.id, "5820", None)
    elsewhere.run()
    assert signed_in_name(elsewhere) is None


@pytest.mark.parametrize(
    "name, message",
    [("Alice\u200b", "invisible"), ("\u202eecilA", "invisible"), ("Alic\u0435", "one script"),
     ("AIKO", "That name is taken"), ("Ａｉｋｏ", "That name is taken")],
)
def test_a_look_alike_name_is_refused_with_a_reason(aiko, store, visitor, name, message):
    at = add_me(visitor(), name, "5820")
    assert signed_in_name(at) is None
    assert message in errors(at)[0]
    assert [t.name for t in store.trainees(EVERY_STORE)] == ["Aiko"]


@pytest.mark.parametrize("weak", ["1234", "0000", "9876", "１１１１"])
def test_a_weak_pin_is_refused_in_every_form(aiko, store, visitor, weak, monkeypatch):
    at = add_me(visitor(), "Chie", weak)
    assert "too easy to guess" in errors(at)[0] and store.find_trainee("Chie") is None
    at = change_my_pin(sign_in(visitor(), "Aiko", PIN), PIN, weak)
    assert "too easy to guess" in errors(at)[0]
    supervisor.make_account(PASSWORD)
    team = give_password(visitor(TEAM), PASSWORD)
    team.selectbox(key="team-trainee").select("Aiko").run()
    team.text_input(key="new-pin").set_value(weak)
    team.text_input(key="new-pin-again").set_value(weak)
    team.button(key="new-pin-submit").click().run()
    assert "too easy to guess" in errors(team)[0]
    assert core_sign_in(store, "Aiko", PIN, name_throttles(), LoginThrottle()).trainee == aiko


def test_a_locked_name_is_told_so_and_a_supervisor_unlocks_it(aiko, store, visitor, monkeypatch):
    """A lock left by the old policy (ten wrong PINs locked a name; nothing locks one now)."""
    clock = FakeClock()
    legacy = NameThrottles(ThrottlePolicy(base=1.0, factor=2.0, ceiling=60.0, lock_after=LOCK_AFTER), clock)
    for _ in range(LOCK_AFTER):
        clock.advance(core_sign_in(store, "Aiko", "9999", legacy, LoginThrottle(clock)).retry_after)
    at = sign_in(visitor(), "Aiko", PIN)
    assert signed_in_name(at) is None
    assert "locked" in errors(at)[0] and "supervisor" in errors(at)[0]
    supervisor.make_account(PASSWORD)
    team = give_password(visitor(TEAM), PASSWORD)
    team.selectbox(key="team-trainee").select("Aiko").run()
    assert any("locked" in w.value for w in team.warning)
    team.button(key=f"unlock-{aiko.id}").click().run()
    assert not team.exception and not team.warning
    lifted = [(e.actor, e.target) for e in audit.entries(store, EVERY_STORE) if e.action == "lock_lifted"]
    assert lifted == [(supervisor.ACCOUNT, "Aiko")]  # the audit log names who lifted it
    assert signed_in_name(sign_in(visitor(), "Aiko", PIN)) == "Aiko"
