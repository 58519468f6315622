"""The mock exam's clock and question where a candidate looks, in Chromium: on a desktop the
name and the clock stay in view under the page's header while the question scrolls beneath
them; on a phone the question starts on the first screen, after Start tapped at the bottom of the
choice of exams (a question shown anew scrolls the page to its top; the navigator of every
question is below the question, not above)."""

from __future__ import annotations

import re

import pytest

from tests.e2e import driver
from tests.e2e.driver import main, open_page, settle
from tests.waiting import wait_until

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

PIN = "view-2468"


def start_exam(page, server, trainee: str, questions: int) -> None:
    driver.seed_trainee(server.database_url, trainee, PIN)
    open_page(page, server.url, "exam", title="Mock exam", lang="en")
    driver.sign_in(page, trainee, PIN)
    box = main(page).get_by_label("Questions", exact=True)
    box.fill(str(questions))
    box.press("Enter")
    settle(page)
    expect(main(page).get_by_text(re.compile(r"^\d+ cards to draw from\.$"))).to_be_visible()
    main(page).get_by_test_id("stBaseButton-primary").filter(has_text="Start this exam").last.click()
    expect(main(page).get_by_text(f"Question 1 of {questions}", exact=True)).to_be_visible()
    settle(page)


def in_viewport(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_clock_stays_in_view_on_a_desktop(page, server) -> None:
    start_exam(page, server, "Clock in view", 20)
    clock = driver.metric(page, "Time left")
    expect(clock).to_be_visible()
    hand_in = main(page).get_by_role("button", name="Hand in")
    hand_in.scroll_into_view_if_needed()  # the bottom of the question
    wait_until(lambda: in_viewport(page, hand_in), "the page scrolled to the Hand in button")
    assert in_viewport(page, hand_in)
    assert in_viewport(page, clock), clock.bounding_box()


def test_the_question_starts_on_a_phones_first_screen(new_page, server) -> None:
    phone = new_page(driver.PHONE, "en-US", phone=True)
    start_exam(phone, server, "Phone examinee", 20)
    body = main(phone).get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^Question 1 of 20$"))
    navigator = main(phone).get_by_text("Questions", exact=True)
    expect(body.first).to_be_visible()
    # the page's script scrolls a question shown anew to the top
    wait_until(lambda: in_viewport(phone, body.first), "the question scrolled into the first screen")
    assert in_viewport(phone, body.first), body.first.bounding_box()
    assert navigator.bounding_box()["y"] > phone.viewport_size["height"]  # below the question, not above it
