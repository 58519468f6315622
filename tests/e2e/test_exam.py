"""A whole short mock exam in a real browser: start, tick, answer, refresh, resume, hand in."""

from __future__ import annotations

import re

import pytest

from quiz.db.store import Store
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, go_to, main, metric, open_page, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE, PIN = "Examinee", "exam-9753"
CLOCK = re.compile(r"^\d\d:\d\d$")
SAVED = re.compile(r"^Saved: .+\. You can change it until you hand in; it is marked then\.$")


def answer_the_question(page) -> None:
    """Answer the question shown with the first choices (right or wrong) and save it."""
    driver.answer_with_first_choices(page, button="Save answer")
    settle(page)


def no_marks(page) -> None:
    """Nothing says right or wrong while the exam runs."""
    expect(main(page).get_by_test_id("stAlertContentSuccess")).to_have_count(0)
    expect(main(page).get_by_test_id("stAlertContentError")).to_have_count(0)


def stored_answers(server) -> list[bool]:
    store = Store(server.database_url)
    try:
        trainee = store.find_trainee(TRAINEE)
        rows = store.attempts(trainee.id)
    finally:
        store.dispose()
    assert set(rows["mode"]) == {"exam"} and rows["exam_id"].nunique() == 1
    return [bool(c) for c in rows["correct"]]


def test_a_two_question_exam_from_start_to_results(page, server) -> None:
    driver.seed_trainee(server.database_url, TRAINEE, PIN)
    open_page(page, server.url, "exam", title="Mock exam", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    questions = main(page).get_by_label("Questions", exact=True)
    questions.fill("2")
    questions.press("Enter")
    expect(main(page).get_by_text(re.compile(r"^\d+ cards to draw from\.$"))).to_be_visible()
    settle(page)
    main(page).get_by_test_id("stBaseButton-primary").filter(has_text="Start this exam").last.click()

    # the first question, and a clock that ticks by itself
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    clock = metric(page, "Time left")
    expect(clock).to_have_text(CLOCK)
    first_reading = clock.inner_text()
    expect(clock).not_to_have_text(first_reading, timeout=5_000)
    assert first_reading.startswith(("30:", "29:"))

    answer_the_question(page)
    expect(main(page).get_by_text("1 of 2 answered", exact=True)).to_be_visible()
    expect(main(page).get_by_text(SAVED)).to_be_visible()  # Save does not skip ahead
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    no_marks(page)
    main(page).get_by_role("button", name="Next", exact=True).click()
    expect(main(page).get_by_text("Question 2 of 2", exact=True)).to_be_visible()
    assert len(stored_answers(server)) == 1  # in the database before the exam is handed in

    # a refresh loses the tab's state but not the sign-in (the device's token); the exam is
    # found in the database and resumed
    page.reload()
    driver.expect_signed_in(page, TRAINEE)
    resume_offer = re.compile(r"You have an exam in progress: Custom exam — 1 of 2 answered")
    expect(main(page).get_by_text(resume_offer)).to_be_visible()
    settle(page)
    main(page).get_by_role("button", name="Resume").click()
    expect(main(page).get_by_text("Question 2 of 2", exact=True)).to_be_visible()
    answer_the_question(page)
    expect(main(page).get_by_text(SAVED)).to_be_visible()
    no_marks(page)

    main(page).get_by_role("button", name="Hand in", exact=True).click()
    right = sum(stored_answers(server))
    verdict = "Passed" if right == 2 else "Not passed"  # 80 % of 2 questions needs both right
    expect(main(page).get_by_text(f"{verdict} — {right} of 2 right", exact=False).first).to_be_visible()
    expect(metric(page, "Score")).to_have_text(f"{right} / 2")
    expect(metric(page, "Unanswered")).to_have_text("0")
    expect(main(page).get_by_role("heading", name=f"Wrong answers ({2 - right})")).to_be_visible()
    settle(page)
    assert_no_exception(page)
    driver.docs_screenshot(page, "exam-results")

    # listed on the Progress page (the table is drawn on a canvas; its rows are tested with AppTest)
    go_to(page, "Progress", "Progress")
    expect(main(page).get_by_role("heading", name="Mock exams")).to_be_visible()
    expect(main(page).get_by_text("No mock exams taken yet.")).to_have_count(0)
    assert_no_exception(page)
