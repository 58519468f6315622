"""Every page on a phone (390×844), in Japanese: drawn without an error, nothing wider than
the screen (no sideways scrolling of the page), and no English left in the app's own texts.

A trainee with a week of answers is signed in, so the trainee's pages show their figures; the
supervisor's pages are unlocked with the password. ``QUIZ_SCREENSHOTS=1`` saves each page
as ``phone-ja-<page>.png``.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from quiz.content.loader import load_content
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import KnowledgeCard
from quiz.training.answering import answer_card
from tests.e2e import driver
from tests.e2e.configured_server import SUPERVISOR_PASSWORD, ConfiguredServer, running
from tests.e2e.driver import assert_no_exception, main, settle, sidebar
from tests.e2e.test_trainee_day import JA, PHONE, Day
from tests.recording import record

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

CONTENT = load_content()
TRAINEE, PIN = "佐藤陽菜", "hina-2468"
# (the page's link and title, its name in the screenshots, whether the supervisor password opens it)
PAGES = (("練習", "practice", False), ("復習", "review", False), ("模擬試験", "exam", False),
         ("成績", "progress", False), ("資料", "reference", False), ("チーム", "team", True),
         ("コンテンツ", "content", True), ("問題の点検", "items", True))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    """A server with a supervisor password and a trainee who answered knowledge cards for a week."""
    server = ConfiguredServer(tmp_path_factory.mktemp("e2e-phone"))
    with running(server):
        trainee = driver.seed_trainee(server.database_url, TRAINEE, PIN)
        store = Store(server.database_url)
        try:
            rng = random.Random(7)
            cards = [c for c in CONTENT.cards.values() if isinstance(c, KnowledgeCard)]
            for days_ago in range(7):
                for card in rng.sample(cards, 5):
                    choice = card.answer if rng.random() < 0.7 else card.choices[0].id
                    outcome = answer_card(CONTENT, card, choice, trainee.id, 20.0)
                    record(store, replace(outcome.record, answered_at=utc_now() - dt.timedelta(days=days_ago)))
        finally:
            store.dispose()
        yield server


@pytest.fixture
def phone_page(request: pytest.FixtureRequest, browser, server) -> Iterator[Callable[..., Any]]:
    with driver.page_maker(request, browser, [server]) as make:
        yield make(PHONE, "ja-JP", "Asia/Tokyo", phone=True)


def wider_than_the_screen(page) -> int:
    """How many pixels the page is wider than the screen (0: no sideways scrolling)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def test_every_page_fits_a_phone_in_japanese(phone_page, server) -> None:
    if driver.has_cjk_font() is False:
        pytest.skip("no Japanese font for Chromium (fonts-noto-cjk; make browser installs it)")
    page = phone_page
    day = Day(page, JA, TRAINEE, phone=True, shots="phone-ja")
    page.goto(driver.app_url(server.url, ""))
    expect(main(page).get_by_role("heading", name="練習", level=1)).to_be_visible()
    day.open_sidebar()
    driver.sign_in(page, TRAINEE, PIN, "ja")
    day.close_sidebar()
    unlocked = False
    for title, name, supervised in PAGES:
        day.go_to(title)
        if supervised and not unlocked:  # the password holds for the session
            main(page).get_by_label("管理者パスワード", exact=True).fill(SUPERVISOR_PASSWORD)
            main(page).get_by_role("button", name="ロックを解除", exact=True).click()
            expect(main(page).get_by_label("管理者パスワード", exact=True)).to_have_count(0)
            unlocked = True
        settle(page)
        assert_no_exception(page)
        day.step(name)  # a screenshot, and no English left
        assert wider_than_the_screen(page) <= 0, f"{title}: {wider_than_the_screen(page)} px wider than a phone"
    expect(sidebar(page)).to_have_attribute("data-collapsed", "true")
