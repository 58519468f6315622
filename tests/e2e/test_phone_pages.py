"""Every page on a phone (390×844), in Japanese: drawn without an error, nothing wider than
the screen (no sideways scrolling of the page or of its main area, no chart cut at the
screen's edge), and no English left in the app's own texts. The Progress page's charts, the
penalty confusion grid among them, fit a phone in English and in Japanese, every label drawn
(``test-artifacts/e2e/phone-<lang>-progress.png`` and ``…-confusion.png`` to look at). Pages
are picked from the sidebar on a phone (the top navigation moves there), which closes.

A trainee with a week of answers (scenario cards of both games among them, with penalties
off the key) is signed in, so the trainee's pages show their figures; the supervisor's pages
are unlocked with the password. ``QUIZ_SCREENSHOTS=1`` saves each page as
``phone-ja-<page>.png``.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import KnowledgeCard, ScenarioCard
from quiz.model.words import t
from quiz.report.charts import wrap_label
from quiz.training.answer_outcomes import verdict_for
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, running, sign_in_as_supervisor
from tests.e2e.driver import ARTIFACTS, assert_no_exception, main, settle, sidebar
from tests.e2e.test_trainee_day import EN, JA, PHONE, Day
from tests.recording import record
from tests.shipped_content import shipped_content

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

CONTENT = shipped_content()
TRAINEE, PIN = "佐藤陽菜", "hina-2468"
SCENARIOS_PER_GAME = 6  # answered with a penalty picked at random off each game's ladder
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
                    outcome = answer_card(CONTENT, GivenAnswer(card, choice, trainee.id, 20.0))
                    record(store, replace(outcome.record, answered_at=utc_now() - dt.timedelta(days=days_ago)))
            for ruleset in CONTENT.rulesets.values():  # a confusion grid per game on Progress
                ladder = [p.id for p in ruleset.ladder]
                scenarios = [c for c in CONTENT.cards.values()
                             if isinstance(c, ScenarioCard) and c.ruleset == ruleset.id]
                for card in rng.sample(scenarios, SCENARIOS_PER_GAME):
                    verdict = verdict_for(CONTENT, card)
                    given = ScenarioAnswer(verdict.infraction, rng.choice(ladder), verdict.fixes, verdict.players)
                    record(store, answer_card(CONTENT, GivenAnswer(card, given, trainee.id, 40.0)).record)
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


def charts_cut(page) -> list[str]:
    """What of the main area is cut at the screen's edge: the main area scrolling sideways
    inside the page (Streamlit's main area scrolls in a box of its own, so the page itself
    does not get wider), and each chart reaching past the screen or past the main area's
    column. Empty when everything fits. Each chart shown is waited for until it is drawn (a
    chart in a tab not selected is not shown, and has no size)."""
    charts = main(page).get_by_test_id("stVegaLiteChart")
    for chart in charts.all():
        if chart.is_visible():
            expect(chart.locator("svg, canvas").first).to_be_visible()
    return page.evaluate("""() => {
        const cut = [], screen = window.innerWidth;
        const area = document.querySelector('[data-testid="stMain"]');
        if (area.scrollWidth > area.clientWidth) {
            cut.push(`the main area scrolls sideways by ${area.scrollWidth - area.clientWidth} px`);
        }
        const block = area.querySelector('[data-testid="stMainBlockContainer"]');
        const style = getComputedStyle(block), column = block.getBoundingClientRect();
        const right = Math.min(screen, column.right - parseFloat(style.paddingRight));
        area.querySelectorAll('[data-testid="stVegaLiteChart"]').forEach((chart, n) => {
            const box = chart.getBoundingClientRect();
            if (box.width === 0 && box.height === 0) return;  // in a tab not selected
            if (box.left < -0.5 || box.right > right + 0.5) {
                cut.push(`chart ${n}: ${Math.round(box.left)} to ${Math.round(box.right)} px, ` +
                         `the column ends at ${Math.round(right)} px (screen ${screen} px)`);
            }
        });
        return cut;
    }""")


def chart_texts(chart) -> list[str]:
    """The texts drawn in a chart (Streamlit draws Vega-Lite as SVG: a label on several lines
    is one text of several tspans, read here joined)."""
    return chart.evaluate("el => [...el.querySelectorAll('svg text')].map(t => t.textContent)")


def confusion_chart(page, lang: str):
    """The Progress page's penalty confusion grid: the chart under its heading."""
    heading = page.get_by_role("heading", name=t("progress.confusion", lang), exact=True)
    box = main(page).get_by_test_id("stElementContainer").filter(has=heading)
    return box.locator("xpath=following-sibling::div[1]").get_by_test_id("stVegaLiteChart")


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
        if supervised and not unlocked:  # the sign-in holds for the session
            sign_in_as_supervisor(page, "ja")
            unlocked = True
        settle(page)
        assert_no_exception(page)
        day.step(name)  # a screenshot, and no English left
        assert wider_than_the_screen(page) <= 0, f"{title}: {wider_than_the_screen(page)} px wider than a phone"
        assert charts_cut(page) == [], f"{title}: cut at the screen's edge"
    expect(sidebar(page)).to_have_attribute("data-collapsed", "true")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_progress_charts_fit_a_phone(phone_page, server, lang: str) -> None:
    """Every chart of Progress within the screen, the confusion grid of both games with every
    penalty of each ladder drawn on both axes; screenshots to look at by eye."""
    if lang == "ja" and driver.has_cjk_font() is False:
        pytest.skip("no Japanese font for Chromium (fonts-noto-cjk; make browser installs it)")
    page = phone_page  # its browser says ja-JP: the language comes from the URL
    words = {"en": EN, "ja": JA}[lang]
    day = Day(page, words, TRAINEE, phone=True, shots=f"phone-{lang}")
    page.goto(driver.app_url(server.url, "progress", lang=lang))
    day.open_sidebar()
    driver.sign_in(page, TRAINEE, PIN, lang)
    day.close_sidebar()
    grid = confusion_chart(page, lang)
    expect(grid.locator("svg")).to_be_visible()
    settle(page)
    assert_no_exception(page)
    assert wider_than_the_screen(page) <= 0
    assert charts_cut(page) == []
    texts = chart_texts(grid)
    for ruleset in CONTENT.rulesets.values():
        assert ruleset.document.short_name.get(lang) in texts
        for rung in ruleset.ladder:
            drawn = "".join(wrap_label(ruleset.name_of("penalty", rung.id, lang)))
            assert texts.count(drawn) >= 2, f"{drawn!r} not on both axes of the {ruleset.id} grid"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    grid.scroll_into_view_if_needed()
    grid.screenshot(path=str(ARTIFACTS / f"phone-{lang}-confusion.png"))
    driver.full_page_screenshot(page, ARTIFACTS / f"phone-{lang}-progress.png")


def test_a_page_picked_on_a_phone_closes_the_sidebar(phone_page, server) -> None:
    """On a phone the top navigation is not drawn: the pages are listed in the sidebar, and
    picking one there closes the sidebar over the new page (Streamlit does it on a phone's
    browser, told by its user agent; a desktop browser's narrow window keeps it open)."""
    page = phone_page
    driver.as_phone_browser(page)
    day = Day(page, JA, TRAINEE, phone=True, shots="phone-ja")
    page.goto(driver.app_url(server.url, ""))
    expect(main(page).get_by_role("heading", name="練習", level=1)).to_be_visible()
    expect(page.get_by_test_id("stHeader").get_by_role("link", name="成績")).to_have_count(0)
    day.open_sidebar()
    sidebar(page).get_by_test_id("stSidebarNavLink").filter(has_text="成績").click()
    expect(main(page).get_by_role("heading", name="成績", level=1)).to_be_visible()
    expect(sidebar(page)).to_have_attribute("data-collapsed", "true")
    expect(main(page).get_by_role("heading", name="成績", level=1)).to_be_in_viewport()
    settle(page)
    assert_no_exception(page)


def test_the_sidebar_opens_for_sign_in_and_closes_after_it_on_a_phone(request, browser, phone_page, server) -> None:
    """A first visit on a phone finds the sign-in open (it is in the sidebar); signing in
    closes the sidebar over the page. On a desktop the sidebar stays open."""
    page = phone_page
    page.goto(driver.app_url(server.url, ""))
    expect(sidebar(page)).to_have_attribute("data-collapsed", "false")
    expect(driver.sign_in_form(page, "ja")).to_be_in_viewport()
    driver.sign_in(page, TRAINEE, PIN, "ja")
    expect(sidebar(page)).to_have_attribute("data-collapsed", "true")
    expect(main(page).get_by_role("heading", level=1)).to_be_in_viewport()
    assert_no_exception(page)
    with driver.page_maker(request, browser, [server]) as make:
        desktop = make()
        desktop.goto(driver.app_url(server.url, ""))
        driver.sign_in(desktop, TRAINEE, PIN)
        settle(desktop)
        expect(sidebar(desktop)).to_have_attribute("data-collapsed", "false")
