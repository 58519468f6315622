"""The browser's Back button: one step per page visited, landing on each page in turn.

Streamlit starts a page switch's run without the URL's parameters and puts each change of
``st.query_params`` into the history; the app keeps ``lang`` and ``trainee`` in the URL in
one change, so a page change is one history entry (it was three: every Back but one of
three did nothing visible).
"""

from __future__ import annotations

import pytest

from tests.e2e import driver
from tests.e2e.driver import main, open_page, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

PAGES = ("Review", "Progress", "Reference")


def heading(page, title: str):
    return main(page).get_by_role("heading", name=title, level=1)


def test_each_page_change_is_one_back_step(page, server) -> None:
    driver.seed_trainee(server.database_url, "Hana Back", "hana-2468")
    open_page(page, server.url, "", title="Practice", lang="en")
    driver.sign_in(page, "Hana Back", "hana-2468")
    settle(page)
    start = page.evaluate("history.length")
    for steps, title in enumerate(PAGES, start=1):
        page.get_by_role("link", name=title, exact=True).first.click()
        expect(heading(page, title)).to_be_visible()
        settle(page)
        assert page.evaluate("history.length") == start + steps, f"after {title}"
        assert driver.url_param("lang", "en").search(page.url) and driver.url_param("trainee", "Hana Back").search(page.url)

    for title in (*reversed(PAGES[:-1]), "Practice"):  # Back, Back, Back: each lands on the page before
        page.go_back()
        expect(heading(page, title)).to_be_visible()
        settle(page)
        assert driver.url_param("trainee", "Hana Back").search(page.url)  # still signed in, name kept
    expect(page.get_by_test_id("stSidebar").get_by_role("button", name="Sign out", exact=True)).to_be_visible()
