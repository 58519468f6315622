"""A reload keeps you signed in, in Japanese on a phone: sign in, start an exam,
reload: still signed in and the exam resumes; sign out, reload: signed out. A PIN changed on
one device ends the other device's token. Phone browsers reload background tabs all the time.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.driver import main, settle, sidebar
from tests.e2e.test_trainee_day import PHONE

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

JA = "ja"
PIN, NEW_PIN = "stay-2468", "stay-9753"



def phone(new_page) -> Any:
    page = new_page(PHONE, "ja-JP", "Asia/Tokyo", phone=True)
    driver.as_phone_browser(page)
    return page


def device_cookie(page) -> str | None:
    return next((c["value"] for c in page.context.cookies() if c["name"] == "quiz_device"), None)


def start_an_exam(page, questions: int = 2) -> None:
    box = main(page).get_by_label(t("exam.custom_questions", JA), exact=True)
    box.fill(str(questions))
    box.press("Enter")
    settle(page)
    main(page).get_by_test_id("stBaseButton-primary").filter(has_text=t("exam.start", JA)).last.click()
    expect(main(page).get_by_text(t("exam.question", JA, n=1, total=questions), exact=True)).to_be_visible()


def test_a_reload_mid_exam_keeps_the_trainee_signed_in_and_the_exam_resumes(new_page, server) -> None:
    name = "Stay Exam"
    driver.seed_trainee(server.database_url, name, PIN)
    page = phone(new_page)
    driver.open_page(page, server.url, "exam", lang=JA)
    driver.sign_in(page, name, PIN, JA)
    page.wait_for_function("() => document.cookie.includes('quiz_device=')")  # written by the page's script
    start_an_exam(page)

    page.reload()
    driver.expect_signed_in(page, name, JA)
    offer = main(page).get_by_text(re.compile("^" + re.escape(t("exam.open", JA, name="§", answered=0, total=2,
                                                                   left="§")).split("§")[0]))
    expect(offer).to_be_visible()
    settle(page)
    main(page).get_by_role("button", name=t("exam.resume", JA)).click()
    expect(main(page).get_by_text(t("exam.question", JA, n=1, total=2), exact=True)).to_be_visible()

    page.get_by_test_id("stExpandSidebarButton").tap()  # on a phone the sidebar is closed once signed in
    token = device_cookie(page)
    driver.sign_out(page, JA)
    # the cookie stays, its token ended: it signs nobody in, and only marks the device as the
    # trainee's (a guesser of the name elsewhere does not hold up a sign-in here)
    assert device_cookie(page) == token
    page.reload()
    driver.expect_signed_out(page, JA, prefilled="")
    expect(sidebar(page).get_by_text(t("accounts.exam_running_signed_out", JA))).to_have_count(0)


def test_a_pin_changed_on_one_device_ends_the_other_device_s_token(new_page, server) -> None:
    name = "Stay Pin"
    driver.seed_trainee(server.database_url, name, PIN)
    laptop = new_page(driver.VIEWPORT, "ja-JP", "Asia/Tokyo")
    other = phone(new_page)
    for page in (laptop, other):
        driver.open_page(page, server.url, "", lang=JA)
        driver.sign_in(page, name, PIN, JA)
        page.wait_for_function("() => document.cookie.includes('quiz_device=')")
    # the laptop changes the PIN (and keeps its own sign-in, with a new token)
    panel = sidebar(laptop).get_by_test_id("stExpander").filter(has_text=t("shell.change_pin", JA))
    panel.locator("summary").click()
    panel.get_by_label(t("shell.current_pin", JA), exact=True).fill(PIN)
    panel.get_by_label(t("shell.new_pin", JA), exact=True).fill(NEW_PIN)
    panel.get_by_label(t("shell.pin_again", JA), exact=True).fill(NEW_PIN)
    settle(laptop)
    old_token = device_cookie(laptop)
    panel.get_by_role("button", name=t("shell.change_pin", JA), exact=True).click()
    expect(sidebar(laptop).get_by_text(t("shell.pin_changed", JA))).to_be_visible()
    # the page's script writes the laptop's new token (the old one ended with the old PIN)
    laptop.wait_for_function("(old) => document.cookie.includes('quiz_device=') && !document.cookie.includes(old)",
                             arg=old_token)
    laptop.reload()
    driver.expect_signed_in(laptop, name, JA)

    other.reload()  # a new session on the phone: its token ended with the old PIN
    driver.expect_signed_out(other, JA, prefilled=name)


def test_a_device_whose_token_ended_is_told_its_exam_still_runs(new_page, server) -> None:
    """The signed-out page says an exam is running while its clock goes on, to the
    device that was signed in (its token names the trainee), and to no other."""
    from sqlalchemy import update

    from quiz.db.store import Store
    from quiz.db.tables import trainee_devices
    from quiz.model.attempt import utc_now

    name = "Stay Ended"
    driver.seed_trainee(server.database_url, name, PIN)
    page = phone(new_page)
    driver.open_page(page, server.url, "exam", lang=JA)
    driver.sign_in(page, name, PIN, JA)
    page.wait_for_function("() => document.cookie.includes('quiz_device=')")
    start_an_exam(page)
    store = Store(server.database_url)
    try:
        with store.engine.begin() as conn:  # the device's 14 days are over
            conn.execute(update(trainee_devices).values(expires_at=utc_now()))
    finally:
        store.dispose()
    page.reload()
    driver.expect_signed_out(page, JA, prefilled=name)
    expect(sidebar(page).get_by_text(t("accounts.exam_running_signed_out", JA))).to_be_visible()
    stranger = phone(new_page)  # another phone, never signed in: told nothing
    driver.open_page(stranger, server.url, "exam", lang=JA, trainee=name)
    driver.expect_signed_out(stranger, JA, prefilled=name)
    expect(sidebar(stranger).get_by_text(t("accounts.exam_running_signed_out", JA))).to_have_count(0)
