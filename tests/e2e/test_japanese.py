"""The Japanese interface: its own words, real CJK glyphs (no tofu boxes), a Japanese search."""

from __future__ import annotations

import re

import pytest

from tests.e2e import driver
from tests.e2e.driver import ARTIFACTS, assert_no_exception, go_to, main, open_page, settle, sidebar

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

LISTED = re.compile(r"^(\d+)件の違反$")
FOUND = re.compile(r"^(\d+)件の違反が見つかりました$")
TRAINEE, PIN = "Yui", "yui-8642"


def assert_real_glyphs(locator, all_distinct: bool = True) -> None:
    """No character of the element is drawn as the missing-glyph box (and, for short fixed
    words, no two different characters are drawn alike, as tofu boxes would be)."""
    glyphs = driver.distinct_glyphs(locator)
    assert not glyphs["tofu"], f"drawn as missing-glyph boxes: {glyphs['tofu']!r}"
    if all_distinct:
        assert glyphs["distinct"] == len(glyphs["chars"]), f"characters drawn alike: {glyphs}"


def test_japanese_interface_renders_cjk_text(page, server, content) -> None:
    if driver.has_cjk_font() is False:
        pytest.skip("no Japanese font for Chromium (fonts-noto-cjk; make browser installs it)")
    driver.seed_trainee(server.database_url, TRAINEE, PIN)
    open_page(page, server.url, "", title="練習", lang="ja", trainee=TRAINEE)
    navigation = page.get_by_role("navigation")
    for name in ("練習", "成績", "資料"):
        expect(navigation.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(sidebar(page).get_by_role("heading", name="受講者")).to_be_visible()
    # signed out: the Japanese sign-in form (the name filled in from the URL) and the request to sign in
    driver.expect_signed_out(page, "ja", prefilled=TRAINEE)
    expect(sidebar(page).get_by_test_id("stExpander").get_by_text("新しい受講者", exact=True)).to_be_visible()
    assert_real_glyphs(sidebar(page).get_by_role("button", name="サインイン", exact=True))
    driver.sign_in(page, TRAINEE, PIN, "ja", type_name=False)
    driver.open_ruling(page)  # a floor call, dealt at random, shows its form once Rule is pressed
    expect(main(page).get_by_test_id("stForm").get_by_role("button", name="答え合わせ")).to_be_visible()
    settle(page)

    assert_real_glyphs(main(page).get_by_role("heading", name="練習", level=1))
    assert_real_glyphs(sidebar(page).get_by_role("heading", name="受講者"))
    card_title = main(page).get_by_role("heading", level=3).first  # the card's title, in Japanese
    expect(card_title).to_have_text(re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"))  # kana or kanji
    assert_real_glyphs(card_title, all_distinct=False)
    # a screenshot to look at by eye (test-artifacts/ is not committed)
    driver.full_page_screenshot(page, ARTIFACTS / "japanese-practice.png")
    settle(page)

    # the reference in Japanese, searched with a Japanese word
    go_to(page, "資料", "資料")
    tabs = main(page).get_by_role("tab")
    ygo = content.rulesets["yugioh-ocg"].document
    tab = tabs.filter(has_text=ygo.title.ja).or_(tabs.filter(has_text=ygo.short_name.ja)).first
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")
    panel = main(page).locator('[data-testid="stTabPanel"]:visible')
    listed = panel.get_by_text(LISTED)
    expect(listed).to_be_visible()
    everything = int(LISTED.match(listed.inner_text().strip()).group(1))
    assert_real_glyphs(listed)
    search = main(page).get_by_role("textbox", name="すべてのゲームから検索")  # one search, every game
    search.fill("遅刻")
    search.press("Enter")
    found_caption = main(page).get_by_text(FOUND)
    expect(found_caption).to_be_visible()
    settle(page)
    found = int(FOUND.match(found_caption.inner_text().strip()).group(1))
    assert 0 < found < everything
    assert_real_glyphs(found_caption)
    # two words in any order, each found where the document says it
    search.fill("取り忘れ サイド")
    search.press("Enter")
    expect(main(page).get_by_text("2件の違反が見つかりました")).to_be_visible()
    expect(main(page).get_by_text(re.compile(r"^該当する記載：.+ › ②「警告」、「手札へのペナルティ」 › 違反例（アプリ内の写しの27行目）$"))).to_be_visible()
    assert_no_exception(page)
