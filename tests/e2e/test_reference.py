"""The Reference page: each game's penalty ladder, and the search that filters the infractions."""

from __future__ import annotations

import re

import pytest

from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, docs_screenshot, main, open_page, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

COUNT = re.compile(r"^(\d+) infractions?$")
FOUND = re.compile(r"^(\d+) infractions? found$")


def visible_panel(page):
    return main(page).locator('[data-testid="stTabPanel"]:visible')


def ladder_names(panel) -> list[str]:
    """The row headers of the ladder's static table (``st.table``), lightest first."""
    table = panel.get_by_test_id("stTable").first.locator("table")
    expect(table).to_be_visible()
    return [text.strip() for text in table.locator("tbody tr th").all_inner_texts()]


def infractions_listed(panel) -> int:
    caption = panel.get_by_text(COUNT)
    expect(caption).to_be_visible()
    match = COUNT.match(caption.inner_text().strip())
    assert match, caption.inner_text()
    return int(match.group(1))


def test_reference_shows_each_ladder_and_one_search_across_the_games(page, server, content) -> None:
    open_page(page, server.url, "reference", title="Reference", lang="en")
    ladders = {tuple(p.name.en for p in ruleset.ladder): ruleset.id for ruleset in content.rulesets.values()}
    tabs = main(page).get_by_role("tab")
    expect(tabs).to_have_count(len(content.rulesets) + 1)  # one per game, and the comparison

    seen: dict[str, int] = {}
    for number in range(len(content.rulesets)):
        tabs.nth(number).click()
        expect(tabs.nth(number)).to_have_attribute("aria-selected", "true")
        panel = visible_panel(page)
        expect(panel.get_by_role("heading", name="Penalty ladder (lightest first)")).to_be_visible()
        ladder = tuple(ladder_names(panel))
        assert ladder in ladders, f"tab {number}: {ladder} is no game's ladder"
        seen[ladders[ladder]] = infractions_listed(panel)
    assert set(seen) == set(content.rulesets), "every game has its own tab"
    assert seen == {rid: len(r.infractions) for rid, r in content.rulesets.items()}

    # an infraction opens to its rules in words and its lines quoted in full, wrapped
    tabs.nth(list(seen).index("yugioh-ocg")).click()
    panel = visible_panel(page)
    tardiness = panel.get_by_test_id("stExpander").filter(has_text="Tardiness · Match Loss")
    tardiness.locator("summary").click()
    expect(tardiness).to_contain_text("Duel Loss — The player was 5 to 9 minutes late after the call")
    quote = tardiness.locator("blockquote").first
    expect(quote).to_contain_text("自分の席についていなかった。")
    box, panel_box = quote.bounding_box(), panel.bounding_box()
    assert box and panel_box and box["x"] + box["width"] <= panel_box["x"] + panel_box["width"] + 1
    docs_screenshot(page, "reference")

    # one search for every game: each result names its game
    search = main(page).get_by_role("textbox", name="Search every game")
    search.fill("draw")
    search.press("Enter")
    found = main(page).get_by_text(FOUND)
    expect(found).to_be_visible()
    settle(page)
    results = main(page).get_by_test_id("stExpander").locator("summary").filter(
        has_text=re.compile(r"(Pokémon TCG|Yu-Gi-Oh! OCG) · "))
    expect(results.filter(has_text="Pokémon TCG · ")).not_to_have_count(0)
    expect(results.filter(has_text="Yu-Gi-Oh! OCG · ")).not_to_have_count(0)
    count = int(FOUND.match(found.inner_text().strip()).group(1))
    expect(results).to_have_count(count)

    # the comparison says when each penalty applies
    search.fill("")
    search.press("Enter")
    expect(main(page).get_by_text(FOUND)).to_have_count(0)
    tabs.last.click()
    expect(visible_panel(page)).to_contain_text("Match Loss — if the player was 10 or more minutes late after the call")
    assert_no_exception(page)
