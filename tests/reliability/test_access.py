"""The supervisor's lock: the same answer whoever trained, and guessing is slowed.

What tests/ui/test_team.py, tests/e2e/test_team.py and tests/test_supervisor_auth.py
already cover is not repeated here (a wrong password shows no trainee, the first wait is
1 s, the throttle's arithmetic). These add: the locked page and its wrong-password
answer are identical with an empty database and with trainees in it (also when the guess
is a trainee's name), and a second attempt right after a wrong one is refused with a wait
message, in the same session and in a new one, even with the right password.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from quiz.attempt import AttemptRecord
from quiz.store import Store
from quiz.supervisor_auth import PASSWORD_ENV, LoginThrottle
from quiz.ui import supervisor_gate

pytestmark = pytest.mark.reliability

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = {"team": "quiz/ui/pages/team.py", "content": "quiz/ui/pages/content.py"}
PASSWORD = "店長-reliability-2024"
TRAINEES = ("Aiko Tanaka", "Ben Ishikawa")
WRONG = "That password is not right. You can try again in 1 s."
THROTTLED = "Too many wrong attempts. Wait 1 s, then try again."
PROCESS_THROTTLE = supervisor_gate.process_throttle  # the cached one (one test swaps it for its own)


class FakeClock:
    """The process throttle's clock, moved by hand: "right after" is exact, not a race."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    PROCESS_THROTTLE.clear()
    yield
    PROCESS_THROTTLE.clear()


def database(folder: Path, with_trainees: bool) -> str:
    url = f"sqlite:///{folder / ('team.db' if with_trainees else 'empty.db')}"
    store = Store(url)
    try:
        for name in TRAINEES if with_trainees else ():
            trainee = store.trainee(name)
            store.record(AttemptRecord(
                trainee_id=trainee.id, card_id="ygo-tardiness-1min-store", ruleset="yugioh-ocg",
                category="tardiness", card_kind="scenario", chosen_infraction="tardiness",
                standard_infraction="tardiness", chosen_penalty="warning", standard_penalty="warning",
                infraction_result="correct", penalty_result="correct", fixes_result="correct", correct=True,
                seconds=7.0, answered_at=dt.datetime.now(dt.timezone.utc),
            ))
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
    at.main.text_input[0].input(password)
    at.main.button[0].click().run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("page", ["team", "content"])
def test_the_locked_page_answers_alike_with_or_without_trainees(tmp_path, monkeypatch, page):
    seen: dict[bool, list[str]] = {}
    for with_trainees in (False, True):
        PROCESS_THROTTLE.clear()
        at = open_page(database(tmp_path, with_trainees), page, monkeypatch)
        texts = [main_text(at)]
        texts.append(main_text(give(at, "a-guess")))
        assert [e.value for e in at.error] == [WRONG]
        PROCESS_THROTTLE.clear()
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
    throttle = LoginThrottle(clock, ceiling=supervisor_gate.PROCESS_CEILING)
    monkeypatch.setattr(supervisor_gate, "process_throttle", lambda: throttle)  # the server-wide one
    url = database(tmp_path, with_trainees=True)

    first = open_page(url, "team", monkeypatch)
    give(first, "wrong-1")
    assert [e.value for e in first.error] == [WRONG]
    give(first, "wrong-2")  # at once: refused without being checked, and the wait does not grow
    assert [e.value for e in first.error] == [THROTTLED]
    give(first, PASSWORD)  # even the right password waits its turn
    assert [e.value for e in first.error] == [THROTTLED]
    assert not first.dataframe and throttle.failures == 1

    # a new browser session does not start afresh: the server-wide wait holds it too
    second = open_page(url, "team", monkeypatch)
    give(second, PASSWORD)
    assert [e.value for e in second.error] == [THROTTLED] and not second.dataframe

    clock.now += 1.0  # the wait is over
    give(second, PASSWORD)
    assert not second.error
    assert list(second.dataframe[0].value["Trainee"]) == list(TRAINEES)
    assert throttle.failures == 0 and throttle.wait() == 0.0
