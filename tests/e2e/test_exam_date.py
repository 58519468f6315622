"""The exam date in a real browser: a trainee with studied cards sets the day of their exam on
Progress and sees the readiness forecast for it by the exam's blueprint; clearing it hides it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from quiz.db import reviews as review_store
from quiz.db.exam_dates import exam_days
from quiz.db.store import Store
from quiz.db.study_games import keep_studied_games
from quiz.db.time_zones import set_time_zone
from quiz.model.attempt import utc_now
from quiz.training.exam_dates import exam_start, game_forecast
from quiz.training.presets import load_presets
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, main, metric, open_page, settle
from tests.shipped_content import shipped_content
from tests.ui.seeding import seed

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

CONTENT = shipped_content()
TRAINEE, PIN = "Hana Mori", "hana-1357"
GAME = "yugioh-ocg"


def test_setting_the_exam_date_shows_the_forecast_for_that_day(page, server) -> None:
    trainee = driver.seed_trainee(server.database_url, TRAINEE, PIN)
    store = Store(server.database_url)
    try:
        set_time_zone(store, trainee.id, "UTC")
        keep_studied_games(store, trainee.id, [GAME], CONTENT.rulesets)
        for card in [c for c in CONTENT.knowledge_cards if c.ruleset == GAME][:6]:
            seed(store, CONTENT, trainee.id, card, True, utc_now() - timedelta(days=3))
        schedules = review_store.schedules(store, trainee.id)
    finally:
        store.dispose()
    day = (utc_now() + timedelta(days=40)).date()
    presets, _ = load_presets(set(CONTENT.rulesets), content=CONTENT)
    expected = game_forecast(CONTENT, presets, GAME, schedules, exam_start(day, "UTC"))
    assert expected is not None and 0 < expected.readiness < 1

    open_page(page, server.url, "progress", title="Progress", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    expect(main(page).get_by_role("heading", name="Exam date")).to_be_visible()
    name = CONTENT.rulesets[GAME].document.short_name.get("en")
    year = main(page).get_by_role("spinbutton", name=f"year, {name}: exam date")
    driver.scroll_into_view(page, year)
    year.click()
    page.keyboard.type(day.strftime("%Y%m%d"))  # year, month and day, each field moving on to the next
    main(page).get_by_role("heading", name="Exam date").click()  # the field loses focus: the date is sent
    label = f"Readiness on {day.isoformat()}"
    expect(metric(page, label)).to_have_text(f"{expected.readiness:.0%}")
    expect(main(page).get_by_text("40 days to go.")).to_be_visible()
    table = main(page).get_by_test_id("stDataFrame").last
    expect(table).to_be_visible()
    settle(page)
    assert_no_exception(page)

    check = Store(server.database_url)
    try:
        assert exam_days(check, trainee.id) == {GAME: day}
    finally:
        check.dispose()

    page.reload()  # kept: drawn again after a reload
    settle(page)
    expect(metric(page, label)).to_have_text(f"{expected.readiness:.0%}")
    assert_no_exception(page)
