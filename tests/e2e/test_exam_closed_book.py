"""A closed-book mock exam in a real browser: the study pages wait for it, the way back leads
to its question, and its results list every answer when asked, in English and in Japanese."""

from __future__ import annotations

import re

import pytest

from quiz.db.exams import start_exam
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.training.exams import ExamSpec
from quiz.training.pools import card_pool
from tests.e2e import driver
from tests.e2e.driver import ARTIFACTS, assert_no_exception, go_to, main, open_page, settle
from tests.shipped_content import shipped_content

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE, PIN = "Closed Book", "book-2468"
WAITING = re.compile(r"^A closed-book exam is running: Custom exam, \d\d:\d\d left\.")


def start_closed_book_exam(database_url: str) -> None:
    """A running closed-book exam of two Yu-Gi-Oh! tardiness cards, for the seeded trainee."""
    start_exam_for(database_url, TRAINEE)


def start_exam_for(database_url: str, name: str) -> None:
    """A running closed-book exam of two Yu-Gi-Oh! tardiness cards, for ``name``."""
    content = shipped_content()
    cards = tuple(card_pool(content, ["yugioh-ocg"], ["yugioh-ocg/tardiness"])[:2])
    spec = ExamSpec(questions=2, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",), closed_book=True)
    store = Store(database_url)
    try:
        start_exam(store, store.find_trainee(name).id, "custom", spec, cards, (1, 2), utc_now())
    finally:
        store.dispose()


def test_a_closed_book_exam_closes_the_study_pages_and_its_results_show_every_answer(page, server) -> None:
    driver.seed_trainee(server.database_url, TRAINEE, PIN)
    start_closed_book_exam(server.database_url)
    open_page(page, server.url, "", title="Practice", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    expect(main(page).get_by_text(WAITING)).to_be_visible()
    expect(driver.card_shown(page)).to_have_count(0)  # no card drawn (no form, no floor call's Rule)
    go_to(page, "Reference", "Reference")
    expect(main(page).get_by_text(WAITING)).to_be_visible()
    expect(main(page).get_by_role("textbox")).to_have_count(0)  # no search, no rules

    main(page).get_by_role("button", name="Back to the exam").click()
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    driver.answer_with_first_choices(page, button="Save answer")
    settle(page)
    expect(main(page).get_by_text("1 of 2 answered", exact=True)).to_be_visible()
    main(page).get_by_role("button", name="Hand in", exact=True).click()
    expect(main(page).get_by_text(re.compile(r"^Hand in now\? Unanswered: 1"))).to_be_visible()  # asked first
    settle(page)
    main(page).get_by_role("button", name="Hand in", exact=True).nth(1).click()
    expect(main(page).get_by_role("heading", name=re.compile(r"^Wrong answers \([12]\)$"))).to_be_visible()
    main(page).get_by_role("radio", name="Every answer").click()  # a segmented control's button
    expect(main(page).get_by_role("heading", name="Every answer (2)")).to_be_visible()
    settle(page)
    assert_no_exception(page)
    if driver.screenshots_wanted():
        driver.full_page_screenshot(page, ARTIFACTS / "exam-results-every-en.png")

    driver.choose_language(page, "日本語")
    expect(main(page).get_by_role("heading", name="模擬試験", level=1)).to_be_visible()
    settle(page)
    if not main(page).get_by_role("heading", name="すべての問題（2問）").count():
        main(page).get_by_role("radio", name="すべての問題").click()
    expect(main(page).get_by_role("heading", name="すべての問題（2問）")).to_be_visible()
    settle(page)
    assert_no_exception(page)
    if driver.screenshots_wanted():
        driver.full_page_screenshot(page, ARTIFACTS / "exam-results-every-ja.png")

    go_to(page, "練習", "練習")  # handed in: the study pages are open again
    expect(main(page).get_by_text(re.compile("持ち込み不可の模擬試験の最中です"))).to_have_count(0)


def practice_answers(database_url: str, name: str) -> int:
    store = Store(database_url)
    try:
        return int((store.attempts(store.find_trainee(name).id)["mode"] == "practice").sum())
    finally:
        store.dispose()


def test_a_practice_tab_open_before_the_exam_waits_at_its_next_click(page, server) -> None:
    """Practice was open in this tab when the exam started elsewhere (another tab, the phone):
    Check and Next card run only the card, yet neither grades nor deals; the tab waits."""
    trainee = "Open Tab"
    driver.seed_trainee(server.database_url, trainee, PIN)
    open_page(page, server.url, "", title="Practice", lang="en")
    driver.sign_in(page, trainee, PIN)
    driver.answer_with_first_choices(page)
    next_card = main(page).get_by_role("button", name="Next card")
    expect(next_card).to_be_visible()  # checked: stored, the feedback shown
    assert practice_answers(server.database_url, trainee) == 1

    start_exam_for(server.database_url, trainee)  # on another device
    next_card.click()
    expect(main(page).get_by_text(WAITING)).to_be_visible()
    expect(driver.card_shown(page)).to_have_count(0)  # no next card dealt (no form, no floor call's Rule)

    main(page).get_by_role("button", name="Back to the exam").click()
    expect(main(page).get_by_text("Question 1 of 2", exact=True)).to_be_visible()
    main(page).get_by_role("button", name="Hand in", exact=True).click()
    settle(page)
    main(page).get_by_role("button", name="Hand in", exact=True).nth(1).click()
    expect(main(page).get_by_role("heading", name=re.compile(r"^Wrong answers"))).to_be_visible()

    go_to(page, "Practice", "Practice")  # handed in: a card again; then an exam starts before its Check
    driver.open_ruling(page)  # a floor call's form opened before the exam starts (Rule would then wait too)
    start_exam_for(server.database_url, trainee)
    driver.answer_with_first_choices(page)
    expect(main(page).get_by_text(WAITING)).to_be_visible()
    expect(main(page).get_by_role("button", name="Next card")).to_have_count(0)  # no feedback
    settle(page)
    assert_no_exception(page)
    assert practice_answers(server.database_url, trainee) == 1  # the Check was not graded
