"""Two stores' supervisors side by side in a real browser: each signs in with their
own account in a browser context of their own, and each Team page lists, offers and downloads
only their store's trainees, at the same time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, offered_trainees, running
from tests.e2e.driver import assert_no_exception, main, settle
from tests.two_stores import PASSWORD, b_leaks, seed_two_stores

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

EN = "en"


def w(key: str, **values: Any) -> str:
    return t(key, EN, **values)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    """A deployment with two stores, their trainees' answers and a supervisor account each."""
    server = ConfiguredServer(tmp_path_factory.mktemp("e2e-two-supervisors"))
    with running(server):
        store = Store(server.database_url)
        try:
            seed_two_stores(store, at=utc_now())
        finally:
            store.dispose()
        yield server


@pytest.fixture
def new_page(request: pytest.FixtureRequest, browser, server) -> Iterator[Callable[..., Any]]:
    with driver.page_maker(request, browser, [server]) as make:
        yield make


def signs_in_on_team(page, server, account: str) -> None:
    driver.open_page(page, server.url, "team", title=w("team.title"), lang=EN)
    form = main(page).get_by_test_id("stForm")
    form.get_by_label(w("gate.name"), exact=True).fill(account)
    form.get_by_label(w("gate.password"), exact=True).fill(PASSWORD)
    settle(page)
    form.get_by_role("button", name=w("gate.sign_in")).click()
    expect(main(page).get_by_role("button", name=w("gate.sign_out"))).to_be_visible()
    expect(main(page).get_by_test_id("stDataFrame").first).to_be_visible()
    settle(page)


def trainees_csv(page, folder: Path) -> str:
    """The Trainees tab's table as downloaded."""
    with page.expect_download() as download:
        main(page).get_by_test_id("stDownloadButton").first.click()
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return path.read_bytes().decode("utf-8-sig")


def test_each_supervisor_sees_only_their_store_side_by_side(new_page, server, tmp_path) -> None:
    sato, kobayashi = new_page(), new_page()
    signs_in_on_team(sato, server, "Sato")  # store A (Shibuya)
    signs_in_on_team(kobayashi, server, "Kobayashi")  # store B (Umeda), while A's page is open
    a_csv, b_csv = trainees_csv(sato, tmp_path), trainees_csv(kobayashi, tmp_path)
    assert "Aiko" in a_csv and b_leaks(a_csv) == []
    assert "Ben-of-Umeda" in b_csv and "Aiko" not in b_csv and "Solo" not in b_csv
    assert offered_trainees(sato) == ["Aiko"]
    assert offered_trainees(kobayashi) == ["Ben-of-Umeda"]
    assert b_leaks(main(sato).inner_text()) == []  # A's page, after B's choices: still only A
    main(sato).get_by_role("tab", name=w("team.tab_trainees")).click()
    assert b_leaks(trainees_csv(sato, tmp_path)) == []
    for page in (sato, kobayashi):
        assert_no_exception(page)
