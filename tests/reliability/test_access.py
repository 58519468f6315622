"""Access: the supervisor's lock, and a trainee's progress behind their name and PIN.

The supervisor's lock (AppTest). What tests/ui/test_team.py, tests/e2e/test_team.py and
tests/test_supervisor_auth.py already cover is not repeated here (a wrong password shows no
trainee, the first wait is 1 s, the throttle's arithmetic). These add: the locked page and
its wrong-password answer are identical with an empty database and with trainees in it
(also when the guess is a trainee's name), and a second attempt right after a wrong one is
refused with a wait message, in the same session and in a new one, even with the right
password.

A trainee's progress (a real browser, trainees Aiko and Ben with PINs and answers): a
signed-out visitor, also one opening ``?trainee=Aiko``, sees no trainee's name (but in the
sign-in form's name field that the URL fills in) and no figures, only the request to sign
in; a wrong PIN and an unknown name get the same answer; the right PIN shows Aiko's
progress; after Sign out, Progress asks to sign in again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from quiz.access.supervisors import account_throttle, create_account
from quiz.access.throttles import LoginThrottle
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.ui import supervisor_gate
from tests.e2e import driver
from tests.e2e.configured_server import running
from tests.e2e.server import AppServer
from tests.recording import record
from tests.ui import supervisor
from tests.ui.supervisor import ACCOUNT

pytestmark = pytest.mark.reliability

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = {"team": "quiz/ui/pages/team.py", "content": "quiz/ui/pages/content.py"}
PASSWORD = "店長-reliability-2024"
TRAINEES = ("Aiko Tanaka", "Ben Ishikawa")
WRONG = "That name and password do not match an account. You can try again in 1 s."
THROTTLED = "Too many wrong attempts. Wait 1 s, then try again."
PINS = {"Aiko": "2468", "Ben": "1357"}  # the trainees of the browser tests, each with one answer
NOT_MATCHING = "That name and PIN do not match. Try again in 1 s."
SIGNED_OUT_PAGES = [  # (path, title, trainee in the URL)
    ("", "Practice", None), ("", "Practice", "Aiko"), ("progress", "Progress", None),
    ("progress", "Progress", "Aiko"), ("review", "Review", "Aiko"), ("exam", "Mock exam", "Aiko"),
]


class FakeClock:
    """The process throttle's clock, moved by hand: "right after" is exact, not a race."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def configured(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from supervisor.fresh_gate(monkeypatch)


def forget_server_throttle(url: str) -> None:
    """Lift the account's wait, kept in the database (a fresh guess for the next check)."""
    store = Store(url)
    try:
        account_throttle(store, ACCOUNT).lift()
    finally:
        store.dispose()


def right_answer(trainee_id: int) -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id, card_id="ygo-tardiness-1min-store", ruleset="yugioh-ocg",
        category="tardiness", card_kind="scenario", chosen_infraction="tardiness",
        standard_infraction="tardiness", chosen_penalty="warning", standard_penalty="warning",
        infraction_result="correct", penalty_result="correct", fixes_result="correct", correct=True,
        seconds=7.0, answered_at=dt.datetime.now(dt.UTC),
    )


def database(folder: Path, with_trainees: bool) -> str:
    url = f"sqlite:///{folder / ('team.db' if with_trainees else 'empty.db')}"
    store = Store(url)
    try:
        create_account(store, ACCOUNT, PASSWORD, "admin", None, None)
        for name in TRAINEES if with_trainees else ():
            record(store, right_answer(store.trainee(name).id))
    finally:
        store.dispose()
    return url


def open_page(url: str, page: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("QUIZ_DATABASE_URL", url)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    at.switch_page(PAGES[page]).run()
    assert not at.exception, at.exception
    return at


def main_text(at: AppTest) -> str:
    """Everything in the main area (every element's full protobuf: texts, labels, values)."""
    return "\n".join(str(node.proto) for node in at.main if getattr(node, "proto", None) is not None)


def give(at: AppTest, password: str) -> AppTest:
    supervisor.unlock(at, password)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("page", ["team", "content"])
def test_the_locked_page_answers_alike_with_or_without_trainees(tmp_path, monkeypatch, page):
    seen: dict[bool, list[str]] = {}
    for with_trainees in (False, True):
        url = database(tmp_path, with_trainees)
        forget_server_throttle(url)
        at = open_page(url, page, monkeypatch)
        texts = [main_text(at)]
        texts.append(main_text(give(at, "a-guess")))
        assert [e.value for e in at.error] == [WRONG]
        forget_server_throttle(url)
        at.session_state[supervisor_gate.THROTTLE_KEY] = LoginThrottle()  # a fresh wait for the next guess
        texts.append(main_text(give(at, TRAINEES[0])))  # a trainee's name as the guess: no different
        assert [e.value for e in at.error] == [WRONG]
        assert not at.dataframe and not at.tabs and not at.download_button
        seen[with_trainees] = texts
    assert seen[True] == seen[False]
    assert not any(name in text for text in seen[True] for name in TRAINEES[1:])
    assert all(TRAINEES[0] not in text for text in seen[True])  # the guess is not echoed back either


def test_a_second_attempt_right_after_a_wrong_one_is_refused_with_a_wait(tmp_path, monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(supervisor_gate, "throttle_clock", clock)
    url = database(tmp_path, with_trainees=True)
    store = Store(url)
    throttle = account_throttle(store, ACCOUNT, clock)  # the account's, in the database

    first = open_page(url, "team", monkeypatch)
    give(first, "wrong-1")
    assert [e.value for e in first.error] == [WRONG]
    give(first, "wrong-2")  # at once: refused without being checked, and the wait does not grow
    assert [e.value for e in first.error] == [THROTTLED]
    give(first, PASSWORD)  # even the right password waits its turn
    assert [e.value for e in first.error] == [THROTTLED]
    assert not first.dataframe and throttle.state().failures == 1

    # a new browser session does not start afresh: the server-wide wait holds it too
    second = open_page(url, "team", monkeypatch)
    give(second, PASSWORD)
    assert [e.value for e in second.error] == [THROTTLED] and not second.dataframe

    clock.now += 1.0  # the wait is over
    give(second, PASSWORD)
    assert not second.error
    assert list(second.dataframe[0].value["Trainee"]) == list(TRAINEES)
    assert throttle.state() is None and throttle.wait() == 0.0
    store.dispose()


# --- a trainee's progress, in a real browser -----------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The app on a database where Aiko and Ben have a PIN and one answer each."""
    server = AppServer(tmp_path_factory.mktemp("access"))
    store = Store(server.database_url)
    try:
        for name, pin in PINS.items():
            record(store, right_answer(driver.seed_trainee(server.database_url, name, pin).id))
    finally:
        store.dispose()
    with running(server):
        yield server


@pytest.fixture
def visitor(request: pytest.FixtureRequest):
    """A fresh browser page (``page`` of tests/e2e), or a skip without Playwright or Chromium."""
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    return request.getfixturevalue("page")


def names_in_page(page) -> list[str]:
    """The trainees whose name is in the page (its text, its HTML and attributes), leaving
    out the value the URL put into the sign-in form's name field."""
    form = driver.sign_in_form(page)
    if form.count():
        form.get_by_label("Name", exact=True).evaluate("field => field.setAttribute('data-prefilled', '')")
    html = page.evaluate("""() => {
        const copy = document.documentElement.cloneNode(true);
        copy.querySelectorAll('[data-prefilled]').forEach(field => field.removeAttribute('value'));
        return copy.outerHTML;
    }""")
    text = page.locator("body").inner_text()
    return [name for name in PINS if name in html or name in text]


def expect_no_progress(page) -> None:
    """The page asks to sign in and shows no figure, chart or table."""
    from playwright.sync_api import expect

    expect(driver.main(page).get_by_text(driver.WORDS["en"].ask_to_sign_in)).to_be_visible()
    for element in ("stMetric", "stVegaLiteChart", "stDataFrame", "stForm"):
        expect(driver.main(page).get_by_test_id(element)).to_have_count(0)


@pytest.mark.e2e
def test_a_signed_out_visitor_sees_no_names_and_no_progress(visitor, server) -> None:
    for path, title, trainee in SIGNED_OUT_PAGES:
        params = {"lang": "en"} | ({"trainee": trainee} if trainee else {})
        driver.open_page(visitor, server.url, path, title=title, **params)
        driver.expect_signed_out(visitor, prefilled=trainee or "")
        expect_no_progress(visitor)
        assert names_in_page(visitor) == [], f"/{path}?trainee={trainee}"


@pytest.mark.e2e
def test_a_wrong_pin_and_an_unknown_name_get_the_same_answer(visitor, server) -> None:
    from playwright.sync_api import expect

    answers = []
    for name, pin in (("Ben", "9999"), ("Nobody", PINS["Aiko"])):  # a real name, then a real PIN
        driver.open_page(visitor, server.url, "progress", title="Progress", lang="en")  # a new session each
        driver.submit_sign_in(visitor, name, pin)
        error = driver.sidebar(visitor).get_by_test_id("stAlertContentError")
        expect(error).to_be_visible()
        driver.settle(visitor)
        answers.append((error.inner_text(), driver.main(visitor).inner_text()))
        expect_no_progress(visitor)
        expect(driver.sidebar(visitor).get_by_role("button", name="Sign out")).to_have_count(0)
    assert answers[0] == answers[1]
    assert answers[0][0] == NOT_MATCHING


@pytest.mark.e2e
def test_the_right_pin_shows_the_trainees_progress(visitor, server) -> None:
    from playwright.sync_api import expect

    driver.open_page(visitor, server.url, "progress", title="Progress", lang="en", trainee="Aiko")
    driver.expect_signed_out(visitor, prefilled="Aiko")
    driver.sign_in(visitor, "Aiko", PINS["Aiko"], type_name=False)
    expect(driver.metric(visitor, "Answered")).to_have_text("1")
    expect(driver.metric(visitor, "Accuracy")).to_be_visible()
    assert names_in_page(visitor) == ["Aiko"]  # and never Ben's
    driver.assert_no_exception(visitor)


@pytest.mark.e2e
def test_after_signing_out_progress_asks_to_sign_in_again(visitor, server) -> None:
    from playwright.sync_api import expect

    driver.open_page(visitor, server.url, "progress", title="Progress", lang="en")
    driver.sign_in(visitor, "Aiko", PINS["Aiko"])
    expect(driver.metric(visitor, "Answered")).to_have_text("1")
    driver.sign_out(visitor)
    expect_no_progress(visitor)
    driver.go_to(visitor, "Practice", "Practice")
    driver.go_to(visitor, "Progress", "Progress")
    # a shared store computer: nothing says who was here, in the form or the address
    driver.expect_signed_out(visitor, prefilled="")
    assert "trainee=" not in visitor.url
    expect_no_progress(visitor)
    assert names_in_page(visitor) == []
    driver.assert_no_exception(visitor)
