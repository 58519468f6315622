"""Spaced review in a real browser: a due card is served, a wrong answer brings it back soon."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from quiz.db import reviews as review_store
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, choose_language, go_to, main, open_page, settle, sidebar
from tests.shipped_content import shipped_content
from tests.ui.seeding import seed

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE, PIN = "Reviewer", "review-1234"
CONTENT = shipped_content()
CARD = CONTENT.knowledge_cards[0]


def due_in_sidebar(page, text: str):
    """The sidebar's due count (its text follows the icon's name)."""
    return sidebar(page).get_by_text(re.compile(rf"(^|\s){re.escape(text)}$"))


def test_a_due_card_is_served_answered_and_rescheduled(page, server) -> None:
    trainee = driver.seed_trainee(server.database_url, TRAINEE, PIN)
    store = Store(server.database_url)
    try:
        seed(store, CONTENT, trainee.id, CARD, True, utc_now() - timedelta(days=5))  # due three days ago
    finally:
        store.dispose()

    open_page(page, server.url, "review", title="Review", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    expect(due_in_sidebar(page, "Due for review: 1")).to_be_visible()
    expect(main(page).get_by_text("Due now: 1", exact=True)).to_be_visible()
    expect(main(page).get_by_role("heading", name="Rules knowledge", level=3)).to_be_visible()  # title hidden

    wrong = next(c for c in CARD.choices if c.id != CARD.answer)
    form = main(page).get_by_test_id("stForm")
    choices = form.get_by_role("radiogroup", name="Your answer", exact=True)
    choices.locator("label").filter(has_text=wrong.text.en).click()
    expect(choices.get_by_role("radio", name=wrong.text.en, exact=True)).to_be_checked()
    form.get_by_role("button", name=driver.label("Check")).click()
    settle(page)

    expect(main(page).get_by_test_id("stAlertContentError")).to_be_visible()
    expect(main(page).get_by_text("This card comes back in 10 minutes.", exact=True)).to_be_visible()
    driver.docs_screenshot(page, "review")
    expect(due_in_sidebar(page, "Due for review: 0")).to_be_visible()
    store = Store(server.database_url)
    try:
        row = store.attempts(trainee.id).iloc[-1]
        schedule = review_store.schedule(store, trainee.id, CARD.id)
    finally:
        store.dispose()
    assert (row["card_id"], row["mode"], bool(row["correct"])) == (CARD.id, "review", False)
    assert schedule.due - row["answered_at"].to_pydatetime() == timedelta(minutes=10)

    main(page).get_by_role("button", name=driver.label("Next card")).click()
    expect(main(page).get_by_text("Nothing is due for review right now.", exact=True)).to_be_visible()
    expect(main(page).get_by_text("The next card is due in 10 minutes.", exact=True)).to_be_visible()
    expect(due_in_sidebar(page, "Due for review: 0")).to_be_visible()  # kept by the card's run, not drawn again
    assert_no_exception(page)

    choose_language(page, "日本語")  # then another page: the sidebar's choices must survive both
    expect(main(page).get_by_role("heading", name="復習", level=1)).to_be_visible()
    expect(main(page).get_by_text("次のカードは10分後に復習できます。", exact=True)).to_be_visible()
    go_to(page, "成績", "成績")
    expect(main(page).get_by_role("heading", name="今日の準備度", level=3)).to_be_visible()
    expect(main(page).get_by_test_id("stVegaLiteChart").last).to_be_visible()
    go_to(page, "復習", "復習")
    expect(main(page).get_by_text("次のカードは10分後に復習できます。", exact=True)).to_be_visible()
    expect(due_in_sidebar(page, "復習待ちのカード: 0枚")).to_be_visible()
