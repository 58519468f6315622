"""Signing in from the sidebar: a trainee sees only their own progress.

Every test goes through the real forms of the real app (AppTest) on a real database.
"""

from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from quiz.access.accounts import NAME_CEILING, add_trainee, name_throttles
from quiz.access.accounts import sign_in as core_sign_in
from quiz.access.throttles import LoginThrottle
from quiz.model.attempt import utc_now
from quiz.ui.folds import open_key
from quiz.ui.sign_in import PIN_FOLD, STORE_FOLD
from quiz.ui.trainee_session import SESSION_CEILING, THROTTLE_KEY
from tests.fake_clock import FakeClock
from tests.scopes import EVERY_STORE
from tests.shipped_content import shipped_content
from tests.ui import seeding

PIN = "2468"


@pytest.fixture
def open_signed_out(open_app):
    """Open the app as a visitor: nobody signed in, optionally with more URL parameters."""

    def start(query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
        return open_app(trainee=None, page=page, query=query)

    return start


def submit(at: AppTest, form: str, **fields: str) -> AppTest:
    """Fill the text inputs ``<form>-<field>`` of a sidebar form and press its button."""
    for field, value in fields.items():
        at.text_input(key=f"{form}-{field.replace('_', '-')}").set_value(value)
    at.button(key=f"{form}-submit").click().run()
    assert not at.exception, at.exception
    return at


def open_fold(at: AppTest, key: str) -> AppTest:
    """Open one of the signed-in panel's folds (``quiz.ui.folds``: drawn once opened), as a tap does."""
    at.session_state[open_key(key)] = True
    return at.run()


def sign_in(at: AppTest, name: str, pin: str) -> AppTest:
    return submit(at, "sign-in", name=name, pin=pin)


def add_me(at: AppTest, name: str, pin: str, again: str | None = None) -> AppTest:
    return submit(at, "new-trainee", name=name, pin=pin, pin_again=pin if again is None else again)


def welcome(at: AppTest, games: list[str], goal: int | None = None) -> AppTest:
    """Answer a new trainee's welcome (quiz.ui.first_visit): their games and daily goal."""
    at.pills(key="first-visit-games").set_value(games)
    if goal is not None:
        at.segmented_control(key="first-visit-goal").set_value(goal)
    next(b for b in at.button if b.label in ("Start", "始める")).click().run()
    assert not at.exception, at.exception
    return at


def shown_text(at: AppTest) -> str:
    """Every text the app shows (markdown, captions, alerts, metrics, titles)."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "info", "error", "success", "warning", "title", "subheader", "header"):
        parts.extend(str(element.value) for element in getattr(at, kind))
    parts.extend(f"{m.label} {m.value}" for m in at.metric)
    return "\n".join(parts)


def signed_in_name(at: AppTest) -> str | None:
    buttons = [b for b in at.sidebar.button if b.key == "sign-out"]
    if not buttons:
        return None
    names = [m.value for m in at.sidebar.markdown if m.value.startswith(":material/person:")]
    return names[0].removeprefix(":material/person: **").removesuffix("**") if names else ""


@pytest.fixture
def aiko(store):
    trainee = add_trainee(store, "Aiko", PIN)
    content = shipped_content()
    seeding.seed(store, content, trainee.id, content.knowledge_cards[0], True, utc_now())
    add_trainee(store, "Ben", "1357")
    return trainee


def test_a_visitor_sees_no_names_and_no_progress(aiko, open_signed_out):
    for query, page in (({}, None), ({"trainee": "Aiko"}, "quiz/ui/pages/progress.py"), ({"trainee": "Ben"}, None)):
        at = open_signed_out(query, page)
        assert signed_in_name(at) is None
        assert not at.sidebar.selectbox  # no roster to pick from
        assert any("Sign in, or add yourself" in info.value for info in at.info)
        assert not at.metric
        text = shown_text(at)
        assert "Aiko" not in text and "Ben" not in text
        # the URL's name only fills in the sign-in form
        assert at.text_input(key="sign-in-name").value == query.get("trainee", "")


def test_the_right_pin_signs_in_and_shows_only_that_trainees_progress(aiko, open_signed_out):
    at = sign_in(open_signed_out(page="quiz/ui/pages/progress.py"), "Aiko", PIN)
    assert signed_in_name(at) == "Aiko"
    assert at.query_params["trainee"] == "Aiko"
    assert next(m for m in at.metric if m.label == "Answered").value == "1"


def test_a_wrong_pin_and_an_unknown_name_get_the_same_answer(aiko, open_signed_out):
    wrong = sign_in(open_signed_out(), "Aiko", "1111")
    unknown = sign_in(open_signed_out(), "Nobody", "1111")
    assert signed_in_name(wrong) is None and signed_in_name(unknown) is None
    assert [e.value for e in wrong.error] == [e.value for e in unknown.error]
    assert "do not match" in wrong.error[0].value


def test_a_second_try_right_away_is_held_back_even_with_the_right_pin(aiko, open_signed_out):
    """"Right away" on the session throttle's own clock, which stands still here: on a loaded
    machine the two AppTest runs can be more than the first wait (1 s) apart."""
    at = open_signed_out()
    at.session_state[THROTTLE_KEY] = LoginThrottle(FakeClock(), ceiling=SESSION_CEILING)
    at = sign_in(at, "Aiko", "1111")
    at = sign_in(at, "Aiko", PIN)
    assert signed_in_name(at) is None
    assert "Too many wrong tries" in at.error[0].value


def test_the_url_cannot_switch_a_signed_in_trainee(aiko, open_signed_out):
    at = sign_in(open_signed_out(), "Aiko", PIN)
    at.query_params["trainee"] = "Ben"
    at.run()
    assert signed_in_name(at) == "Aiko"
    assert at.query_params["trainee"] == "Aiko"


def test_adding_yourself_signs_you_in_and_answers_are_kept_under_your_name(store, open_signed_out):
    at = add_me(open_signed_out(), "Chie", "9753")
    assert signed_in_name(at) == "Chie"
    assert store.find_trainee("Chie") is not None
    welcome(at, ["yugioh-ocg"])  # the welcome asks the games and the daily goal first
    assert at.session_state["practice"].card is not None  # then a card is dealt at once
    # and a later session signs in with the PIN chosen here
    assert signed_in_name(sign_in(open_signed_out(), "Chie", "9753")) == "Chie"


@pytest.mark.parametrize(
    "name, pin, again, message",
    [
        ("Aiko", "9753", None, "That name is taken"),
        ("Chie", "9753", "9754", "The two PINs differ"),
        ("Chie", "12", None, "at least 4 characters"),
        ("   ", "9753", None, "Enter a name"),
    ],
)
def test_a_refused_new_trainee_is_told_why_and_nothing_is_added(
    aiko, store, open_signed_out, name, pin, again, message
):
    at = add_me(open_signed_out(), name, pin, again)
    assert signed_in_name(at) is None
    assert message in at.error[0].value
    assert [t.name for t in store.trainees(EVERY_STORE)] == ["Aiko", "Ben"]


def test_signing_out_forgets_the_trainee_and_their_card(aiko, open_signed_out):
    at = sign_in(open_signed_out(), "Aiko", PIN)
    assert at.session_state["practice"].card is not None
    at.button(key="sign-out").click().run()
    assert signed_in_name(at) is None
    assert "practice" not in at.session_state
    assert any("Sign in, or add yourself" in info.value for info in at.info)
    assert at.session_state["language"] == "en"  # the visitor's own choices stay


def test_a_supervisor_gives_a_forgotten_pin_a_new_one(aiko, store, monkeypatch, open_signed_out):
    from quiz.db import audit
    from tests.scopes import EVERY_STORE
    from tests.ui import supervisor

    supervisor.prepare(monkeypatch)
    boss = supervisor.make_account("boss-password")
    at = supervisor.unlock(open_signed_out(page="quiz/ui/pages/team.py"), "boss-password")
    at.selectbox(key="team-trainee").select("Aiko").run()
    at.text_input(key="new-pin").set_value("1122")
    at.text_input(key="new-pin-again").set_value("1122")
    at.button(key="new-pin-submit").click().run()
    assert "can sign in with the new PIN" in at.success[0].value
    assert signed_in_name(sign_in(open_signed_out(), "Aiko", "1122")) == "Aiko"
    resets = [(e.account_id, e.actor, e.target) for e in audit.entries(store, EVERY_STORE) if e.action == "pin_reset"]
    assert resets == [(boss.id, boss.name, "Aiko")]  # the audit log names who reset it


def test_after_a_refused_try_the_name_stays_and_the_pin_is_cleared(aiko, open_signed_out):
    at = sign_in(open_signed_out({"trainee": "Ben"}), "Aiko", "1111")
    assert at.text_input(key="sign-in-name").value == "Aiko"  # what was typed, not the URL's name
    assert at.text_input(key="sign-in-pin").value == ""
    at = add_me(at, "Chie", "9753", again="9754")
    assert at.text_input(key="new-trainee-name").value == "Chie"
    assert at.text_input(key="new-trainee-pin").value == "" and at.text_input(key="new-trainee-pin-again").value == ""
    assert "The two PINs differ" in at.error[0].value
    at.run()  # an error is shown once, not on every later run
    assert not at.error


def change_my_pin(at: AppTest, current: str, new: str, again: str | None = None) -> AppTest:
    return submit(open_fold(at, PIN_FOLD), "change-pin", current=current, new=new, again=new if again is None else again)


def test_the_pin_and_store_forms_are_drawn_once_their_folds_are_opened(aiko, open_signed_out):
    at = sign_in(open_signed_out(), "Aiko", PIN)
    assert {"Change my PIN", "My store"} <= {e.label for e in at.sidebar.expander}
    boxes = ("change-pin-current", "change-pin-new", "change-pin-again", "join-store-code")
    assert not {w.key for w in at.sidebar.text_input} & set(boxes)
    open_fold(at, PIN_FOLD)
    assert {w.key for w in at.sidebar.text_input} & set(boxes) == set(boxes[:3])
    open_fold(at, STORE_FOLD)
    assert {w.key for w in at.sidebar.text_input} >= set(boxes)
    at.session_state[open_key(PIN_FOLD)] = False
    at.run()  # closed again: its boxes are gone, and what was typed with them
    assert {w.key for w in at.sidebar.text_input} & set(boxes) == {"join-store-code"}


def test_a_trainee_changes_their_own_pin(aiko, open_signed_out):
    at = change_my_pin(sign_in(open_signed_out(), "Aiko", PIN), PIN, "1122")
    assert "Your PIN is changed" in at.success[0].value
    assert all(at.text_input(key=k).value == "" for k in ("change-pin-current", "change-pin-new", "change-pin-again"))
    assert signed_in_name(sign_in(open_signed_out(), "Aiko", "1122")) == "Aiko"
    assert signed_in_name(sign_in(open_signed_out(), "Aiko", PIN)) is None


@pytest.mark.parametrize(
    "current, new, again, message",
    [("0000", "1122", None, "not your current PIN"), (PIN, "1122", "1123", "The two PINs differ"),
     (PIN, "11", None, "at least 4 characters")],
)
def test_a_refused_pin_change_keeps_the_old_pin(aiko, store, open_signed_out, current, new, again, message):
    at = change_my_pin(sign_in(open_signed_out(), "Aiko", PIN), current, new, again)
    assert message in at.error[0].value and not at.success
    assert signed_in_name(at) == "Aiko"  # still signed in
    # checked once the wait a wrong current PIN sets off is over (it counts as a wrong sign-in)
    later = name_throttles(clock=lambda: time.time() + NAME_CEILING)
    assert core_sign_in(store, "Aiko", PIN, later, LoginThrottle()).trainee == aiko


def test_signing_out_leaves_no_name_in_the_url_or_the_form(aiko, open_signed_out):
    """A shared store computer: after Sign out, the next person sees neither who was here
    in the address nor their name in the sign-in field, on this run and after a reload."""
    at = sign_in(open_signed_out(), "Aiko", PIN)
    assert at.query_params["trainee"] == "Aiko"
    at.button(key="sign-out").click().run()
    assert "trainee" not in at.query_params
    assert at.text_input(key="sign-in-name").value == ""
    at.run()
    assert at.text_input(key="sign-in-name").value == ""


@pytest.mark.parametrize("typed, again", [("１１２２", "1122"), ("1122", "１１２２")])
def test_a_pin_typed_in_full_width_digits_is_the_same_pin(aiko, store, open_signed_out, typed, again):
    """Sign-in treats full-width digits as ASCII (NFKC); so do the forms that ask twice."""
    at = add_me(open_signed_out(), "Chie", typed, again)
    assert signed_in_name(at) == "Chie" and not at.error
    at = change_my_pin(sign_in(open_signed_out(), "Aiko", PIN), PIN, typed, again)
    assert "Your PIN is changed" in at.success[0].value
    assert signed_in_name(sign_in(open_signed_out(), "Aiko", "1122")) == "Aiko"


def test_signing_in_keeps_the_browsers_time_zone_for_the_supervisors_view(aiko, store, open_signed_out):
    """A trainee who only ever practised once showed on the Team drill-down in UTC (12月2日)
    while their own Progress said 12月3日: signing in keeps the browser's zone at once."""
    from quiz.db.time_zones import time_zone_of

    assert time_zone_of(store, aiko.id) is None
    at = open_signed_out()
    at.context = {"timezone": "Asia/Tokyo"}
    submit(at, "sign-in", name="Aiko", pin=PIN)
    assert at.session_state["trainee"].id == aiko.id
    assert time_zone_of(store, aiko.id) == "Asia/Tokyo"
