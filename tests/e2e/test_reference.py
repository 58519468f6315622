"""The Reference page: each game's penalty ladder, and the search that filters the infractions."""

from __future__ import annotations

import re

import pytest

from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, docs_screenshot, main, open_page, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

ROWS = re.compile(r"^(\d+) rules shown$")


def visible_panel(page):
    return main(page).locator('[data-testid="stTabPanel"]:visible')


def grids(panel):
    """The accessible tables behind the panel's ``st.dataframe`` canvases, in page order."""
    return panel.get_by_test_id("stDataFrame").locator('table[role="grid"]')


def ladder_names(panel) -> list[str]:
    """The row headers of the ladder's static table (``st.table``), lightest first."""
    table = panel.get_by_test_id("stTable").first.locator("table")
    expect(table).to_be_visible()
    return [text.strip() for text in table.locator("tbody tr th").all_inner_texts()]


def rules_shown(panel) -> int:
    caption = panel.get_by_text(ROWS)
    expect(caption).to_be_visible()
    match = ROWS.match(caption.inner_text().strip())
    assert match, caption.inner_text()
    return int(match.group(1))


def test_reference_shows_each_ladder_and_the_search_filters(page, server, content) -> None:
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
        seen[ladders[ladder]] = rules_shown(panel)
    assert set(seen) == set(content.rulesets), "every game has its own tab"

    # the Yu-Gi-Oh! document has a tardiness rule; searching for it leaves fewer rows
    tabs.nth(list(seen).index("yugioh-ocg")).click()
    panel = visible_panel(page)
    everything = seen["yugioh-ocg"]
    docs_screenshot(page, "reference")
    search = panel.get_by_role("textbox", name="Search")
    search.fill("tardiness")
    search.press("Enter")
    expect(panel.get_by_text(ROWS)).not_to_have_text(f"{everything} rules shown")
    settle(page)
    found = rules_shown(panel)
    assert 0 < found < everything
    expect(grids(panel).last).to_have_attribute("aria-rowcount", str(found + 1))
    expect(grids(panel).last.locator("tbody")).to_contain_text("Tardiness")

    search.fill("")
    search.press("Enter")
    expect(panel.get_by_text(ROWS)).to_have_text(f"{everything} rules shown")
    assert_no_exception(page)
