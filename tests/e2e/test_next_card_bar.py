"""On a phone the feedback's details, once opened, run ~2 screens below the card: Next card
stays in view while they are read, in both languages, on Practice. With
``QUIZ_SCREENSHOTS=1`` it saves docs/screenshots/next-bar-<lang>-phone.png (the README's)."""

from __future__ import annotations

import pytest

from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.driver import main, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

PIN = "next-2468"
IN_VIEW = "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }"



@pytest.mark.parametrize("lang", ["ja", "en"])
def test_next_card_stays_in_view_down_to_the_end_of_the_feedback_on_a_phone(new_page, server, lang: str) -> None:
    page = driver.phone_signed_in(new_page, server, f"Next bar {lang}", PIN, lang)
    main(page).get_by_role("button", name=driver.label(t("answer.dont_know", lang))).click()
    next_card = main(page).get_by_role("button", name=driver.label(t("practice.next", lang)))
    expect(next_card).to_be_visible()
    settle(page)
    driver.open_details(page, lang)  # the feedback's folded details, opened: ~2 screens to read
    end = main(page).get_by_test_id("stExpander").last  # the last thing of the feedback: report a problem
    end.scroll_into_view_if_needed()
    page.evaluate(driver.SCROLL_SETTLED)
    assert end.evaluate(IN_VIEW), "the end of the feedback is on screen"
    assert next_card.evaluate(IN_VIEW), "and Next card with it, without scrolling back up"
    if driver.screenshots_wanted():  # the README's picture: the phone's screen as it is, not the whole page
        page.screenshot(path=str(driver.SCREENSHOTS / f"next-bar-{lang}-phone.png"), animations="disabled")
    next_card.tap()
    expect(main(page).get_by_role("button", name=driver.label(t("answer.dont_know", lang)))).to_be_visible()
