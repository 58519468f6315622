"""On a phone a new card and a new page start at their top (``quiz.ui.scroll``): Next card,
tapped at the end of the feedback, shows the next card's beginning, not the middle of its
scenario; a page opened from the menu opens at its title; a rerun of the same page keeps
where the reader is. No key to press on a touch screen: the Check button shows no
"Ctrl + Enter"."""

from __future__ import annotations

import pytest

from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.driver import main, settle, sidebar

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

PIN = "top-2468"
TO_THE_END = "() => { const m = document.querySelector('[data-testid=\"stMain\"]'); m.scrollTo(0, m.scrollHeight); }"
SCROLLED = "() => document.querySelector('[data-testid=\"stMain\"]').scrollTop"


def scrolled(page) -> float:
    page.evaluate(driver.SCROLL_SETTLED)
    return float(page.evaluate(SCROLLED))


def test_a_new_card_and_a_new_page_start_at_their_top_on_a_phone(new_page, server) -> None:
    lang = "ja"
    page = driver.phone_signed_in(new_page, server, "Top of the card", PIN, lang)
    # floor calls only: a call, its conversation and its feedback are longer than a phone's
    # screen, so there is an end of the feedback to scroll to (a short knowledge card's fits
    # the screen whole: Next card would be tapped at the top, and the test prove nothing)
    main(page).get_by_role("radio", name=t("practice.pool.floor_calls", lang), exact=True).click()
    expect(driver.rule_button(page)).to_be_visible()
    driver.open_ruling(page)  # a floor call shows its form once Rule is tapped
    check = main(page).get_by_test_id("stForm").get_by_role("button", name=driver.label(t("answer.check", lang)))
    expect(check).to_be_visible()
    expect(check.locator("kbd")).to_be_hidden()  # the shortcut's badge: no keyboard on a phone
    main(page).get_by_role("button", name=driver.label(t("answer.dont_know", lang))).click()
    next_card = main(page).get_by_role("button", name=driver.label(t("practice.next", lang)))
    expect(next_card).to_be_visible()
    settle(page)
    main(page).get_by_test_id("stExpander").last.scroll_into_view_if_needed()  # the end of the feedback
    assert scrolled(page) > 0
    next_card.tap()
    title = main(page).get_by_role("heading", level=1)
    expect(next_card).to_have_count(0)
    driver.expect_card(page)  # its form, or a floor call's investigation
    settle(page)
    expect(title).to_be_in_viewport()  # the new card from its beginning
    assert scrolled(page) == 0

    # down to the end of the card, then another page from the menu: it opens at its title
    page.evaluate(TO_THE_END)
    assert scrolled(page) > 0
    page.get_by_role("button", name=t("streamlit.label_expand_sidebar", lang), exact=True).click()
    sidebar(page).get_by_test_id("stSidebarNavLink").filter(has_text=t("exam.nav", lang)).click()
    expect(main(page).get_by_role("heading", name=t("exam.nav", lang), level=1)).to_be_visible()
    settle(page)
    page.get_by_role("button", name=t("streamlit.label_collapse_sidebar", lang), exact=True).click()
    expect(main(page).get_by_role("heading", level=1)).to_be_in_viewport()
    assert scrolled(page) == 0

    # a rerun of the same page (a setting of the custom exam, far down) stays where it is
    unseen = main(page).get_by_role("switch", name=t("exam.custom_unseen_first", lang))
    unseen.scroll_into_view_if_needed()
    before = scrolled(page)
    assert before > 0
    main(page).get_by_test_id("stCheckbox").filter(has_text=t("exam.custom_unseen_first", lang)).locator("label").click()
    expect(unseen).to_be_checked()
    settle(page)
    assert scrolled(page) == pytest.approx(before, abs=2)
    driver.assert_no_exception(page)
