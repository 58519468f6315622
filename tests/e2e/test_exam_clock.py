"""The mock exam's clock runs in the browser: no server run a second, one run at the deadline.

Every script run a browser asks for is a message it sends on the app's websocket (a rerun
of the page or of a fragment), so the frames the page sends count the runs it asked for.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from sqlalchemy import update

from quiz.db import exams as exam_store
from quiz.db.store import Store
from quiz.db.tables import exams
from quiz.model.attempt import utc_now
from quiz.training.exams import Exam
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, main, metric, open_page, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

PIN = "clock-8642"
CLOCK = re.compile(r"^\d\d:\d\d$")
SAVED = re.compile(r"^Saved: .+\. You can change it until you hand in; it is marked then\.$")
OBSERVED_S = 10.0
BACKGROUND = """() => {  // what a tab behind another reports (headless Chromium keeps every tab visible)
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


class SentFrames:
    """The times (``time.time()``) of the frames the page sent on Streamlit's websocket."""

    def __init__(self, page) -> None:
        self.times: list[float] = []
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        if socket.url.endswith("/_stcore/stream"):
            socket.on("framesent", lambda _frame: self.times.append(time.time()))

    def since(self, moment: float) -> list[float]:
        return [t for t in self.times if t >= moment]


def seconds(reading: str) -> int:
    minutes, secs = reading.split(":")
    return int(minutes) * 60 + int(secs)


def start_custom_exam(page, server, trainee: str, minutes: int) -> None:
    """Sign in on the Mock exam page and start a two-question custom exam of ``minutes``."""
    driver.seed_trainee(server.database_url, trainee, PIN)
    open_page(page, server.url, "exam", title="Mock exam", lang="en")
    driver.sign_in(page, trainee, PIN)
    for label, value in (("Questions", "2"), ("Time limit (minutes)", str(minutes))):
        box = main(page).get_by_label(label, exact=True)
        box.fill(value)
        box.press("Enter")
        settle(page)
    expect(main(page).get_by_text(re.compile(r"^\d+ cards to draw from\.$"))).to_be_visible()
    main(page).get_by_test_id("stBaseButton-primary").filter(has_text="Start this exam").last.click()
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    settle(page)


def open_exam(server, trainee: str) -> Exam:
    store = Store(server.database_url)
    try:
        found = store.find_trainee(trainee)
        assert found is not None
        exam = exam_store.open_exam(store, found.id, utc_now())
    finally:
        store.dispose()
    assert exam is not None
    return exam


def test_the_time_left_counts_down_with_no_server_run(page, server) -> None:
    frames = SentFrames(page)
    start_custom_exam(page, server, "Clock watcher", minutes=30)
    clock = metric(page, "Time left")
    expect(clock).to_have_text(CLOCK)
    expect(clock).not_to_have_text(clock.inner_text())  # the browser's count has begun
    before, window_start = seconds(clock.inner_text()), time.time()
    page.wait_for_timeout(OBSERVED_S * 1000)  # intended: the observation window
    after, window_end = seconds(clock.inner_text()), time.time()

    assert frames.since(window_start) == []  # no run asked for: neither the page nor a fragment
    elapsed = window_end - window_start
    assert elapsed - 1.5 <= before - after <= elapsed + 1.5
    assert 25 * 60 < after < 30 * 60

    # a reload counts from the server's reading (the tab's state is gone, the sign-in kept: resume)
    page.reload()
    driver.expect_signed_in(page, "Clock watcher")
    main(page).get_by_role("button", name="Resume").click()
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    left = (open_exam(server, "Clock watcher").deadline - utc_now()).total_seconds()
    expect(clock).to_have_text(CLOCK)
    assert abs(seconds(clock.inner_text()) - left) <= 2
    assert_no_exception(page)


def bring_deadline_forward(page, server, trainee: str, seconds: float) -> None:
    """The trainee's open exam made to end ``seconds`` from now (a time limit is whole minutes
    on the page), and the exam resumed after a reload, so the page's clock counts down to
    the new deadline: the test waits for it, not for a whole minute."""
    exam = open_exam(server, trainee)
    store = Store(server.database_url)
    try:
        with store.engine.begin() as conn:
            conn.execute(update(exams).where(exams.c.id == exam.id)
                         .values(deadline=utc_now() + timedelta(seconds=seconds)))
    finally:
        store.dispose()
    page.reload()
    main(page).get_by_role("button", name="Resume").click()
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    settle(page)


def test_a_background_tab_hands_its_exam_in_at_the_deadline(page, server) -> None:
    frames = SentFrames(page)
    start_custom_exam(page, server, "Background examinee", minutes=1)
    bring_deadline_forward(page, server, "Background examinee", 25)
    deadline = open_exam(server, "Background examinee").deadline.timestamp()
    # a Save first: the question's own run leaves the clock, drawn with the page, armed
    driver.answer_with_first_choices(page, button="Save answer")
    expect(main(page).get_by_text(SAVED)).to_be_visible()
    expect(main(page).get_by_text("1 of 2 answered", exact=True)).to_be_visible()
    other = page.context.new_page()  # the trainee looks at another tab meanwhile
    other.goto(driver.app_url(server.url, "reference", lang="en"))
    other.bring_to_front()
    page.evaluate(BACKGROUND)
    gone_back = time.time()

    warning = main(page).get_by_text("Time ran out.", exact=False).first
    expect(warning).to_be_visible(timeout=(deadline - time.time() + 30) * 1000)
    asked = frames.since(gone_back)
    assert asked, "the tab asked for no run at the deadline"
    assert deadline <= asked[0] <= deadline + 2.0  # the first run asked for: at the deadline
    assert len(asked) <= 3  # that fragment run, the page's run it asks for: not one a second
    store = Store(server.database_url)
    try:
        trainee = store.find_trainee("Background examinee")
        assert trainee is not None
        assert exam_store.open_exam(store, trainee.id, utc_now()) is None
    finally:
        store.dispose()
    assert_no_exception(page)
