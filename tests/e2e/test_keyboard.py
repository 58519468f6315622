"""Practice with the keyboard alone, on a desktop: every part of an answer chosen, the answer
checked and the next card dealt without the mouse.

Tab and Shift+Tab move between the parts of the form, a card's findings first; in a
selectbox, typing filters the list and Enter picks the option shown first; in a group of
choices, the arrow keys choose; in a finding's yes/no pair, the arrow keys move and Space
chooses; a finding's number is typed (and taken when Tab leaves its box);
Ctrl+Enter (⌘+Enter) checks; N deals the next card. The Check button says so when the pointer rests on it.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, main, open_page, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE, PIN = "Kenta", "kenta-2468"
CARDS = 6  # answered in a row, whatever kinds the deal gives
MAX_TABS = 16  # stops within the form: its findings, its parts, their help buttons, Check
MINUTES = "3"  # typed into a finding's number box (minutes late): any whole number will do
# What the focused element is, the way the loop below tells its parts apart: a selectbox or
# multiselect, a finding's yes/no button (a segmented control's button, role radio), a choice
# of a radio group (an input), a finding's number box.
PART = """el => el.getAttribute('role') === 'combobox' ? 'combobox'
    : el.tagName === 'BUTTON' && el.getAttribute('role') === 'radio' ? 'finding'
    : el.type === 'radio' ? 'radio' : el.type === 'number' ? 'number' : ''"""


def answer_by_keyboard(page) -> None:
    """Choose every part of the card's form with the keyboard (a floor call's opened by Rule),
    then check with Ctrl+Enter."""
    driver.open_ruling(page, keyboard=True)
    form = main(page).get_by_test_id("stForm").first
    check = form.get_by_role("button", name=driver.label("Check"))
    expect(check).to_be_visible()
    settle(page)
    parts = form.get_by_role("combobox").or_(form.get_by_role("radio")).or_(form.get_by_role("spinbutton"))
    expect(parts.first).to_be_visible()
    parts.first.focus()  # where a Tab from the card's text lands
    focused = page.locator("*:focus")
    for _ in range(MAX_TABS):
        if check.evaluate("button => button === document.activeElement"):
            break
        part = focused.evaluate(PART)
        if part == "combobox":
            page.keyboard.press("ArrowDown")  # opens the list, an entry highlighted (the first, at first)
            # an option: the fixes' list has no "Select all" entry to pick every fix at once
            expect(focused).to_have_attribute("aria-activedescendant", re.compile(r"-option-\d+$"))
            page.keyboard.press("Enter")
            if driver.is_multiselect(focused):  # a multiselect keeps its list open for more
                expect(form.get_by_test_id("stMultiSelectTagsContainer").first).to_have_text(re.compile(r"\S"))
                page.keyboard.press("Escape")
            else:
                expect(focused).not_to_have_value("")
        elif part == "radio":  # the arrow key moves to the next choice of the group and chooses it
            page.keyboard.press("ArrowRight")
            expect(focused).to_be_checked()
        elif part == "finding":  # a yes/no pair: the arrow key moves between them, Space chooses
            page.keyboard.press("ArrowRight")
            expect(focused).to_have_attribute("aria-checked", "false")
            page.keyboard.press("Space")
            expect(focused).to_have_attribute("aria-checked", "true")
        elif part == "number":  # typed; taken when Tab leaves the box (Enter would submit the form)
            page.keyboard.type(MINUTES)
            expect(focused).to_have_value(MINUTES)
        page.keyboard.press("Tab")
    else:
        pytest.fail("Tab never reached the Check button")
    for control in form.locator(driver.FINDING_CONTROL).all():  # every finding answered on the way
        driver.expect_finding_answered(control)
    page.keyboard.press("Control+Enter")


def test_cards_answered_checked_and_dealt_with_the_keyboard_alone(page, server) -> None:
    driver.seed_trainee(server.database_url, TRAINEE, PIN)
    open_page(page, server.url, "", title="Practice", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    driver.open_ruling(page, keyboard=True)  # a floor call dealt first: its form, for the hint on Check
    check = main(page).get_by_test_id("stForm").first.get_by_role("button", name=driver.label("Check"))
    check.hover()  # how to answer with the keyboard, said where the pointer rests
    expect(page.get_by_test_id("stTooltipContent")).to_contain_text("Keyboard: Tab moves between the parts")
    for _ in range(CARDS):
        answer_by_keyboard(page)
        banner = main(page).get_by_test_id("stAlertContentSuccess").or_(main(page).get_by_test_id("stAlertContentError"))
        expect(banner.first).to_be_visible()
        next_card = main(page).get_by_role("button", name=driver.label("Next card"))
        expect(next_card).to_be_visible()
        settle(page)
        page.locator("body").press("n")
        expect(next_card).to_have_count(0)
        driver.expect_card(page)  # its form, or a floor call's investigation (Rule, from the keyboard)
    assert_no_exception(page)
