"""Fixtures of the browser tests: one Streamlit server and one Chromium per session.

``app_server`` runs ``streamlit run app.py`` on a free port with its own SQLite file;
``page`` is a fresh browser context per test, screenshotted into test-artifacts/e2e/ when
the test fails (with the server's log next to it).
"""

from __future__ import annotations

import glob
import re
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.e2e.driver import ARTIFACTS, VIEWPORT, find_chromium, full_page_screenshot, page_maker
from tests.e2e.server import AppServer
from tests.e2e.shared_browser import shared_chromium

TIMEOUT_MS = 30_000  # one Streamlit run on a busy 2-core CI machine stays well below this


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Keep each phase's report on the item (``rep_setup``, ``rep_call``) for the fixtures."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The app on a free port and an empty database, shared by every browser test."""
    server = AppServer(tmp_path_factory.mktemp("e2e"))
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(app_server: AppServer) -> AppServer:
    """The session's server, started again if an earlier test left it stopped."""
    app_server.start()
    return app_server


@pytest.fixture(scope="session")
def browser():
    path, reason = find_chromium()
    if path is None:
        pytest.skip(reason)
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    with shared_chromium(path) as chromium:  # the one Chromium tests/reliability uses too
        yield chromium


@pytest.fixture
def new_page(request: pytest.FixtureRequest, browser, server) -> Iterator[Callable[..., Any]]:
    """A maker of a page in a browser context of its own (viewport, locale, time zone, a
    phone's touch); on failure each page is saved in test-artifacts/e2e/ with the log of the
    test's ``server`` (a module's own server where it has one)."""
    with page_maker(request, browser, [server]) as make:
        yield make


@pytest.fixture
def page(request: pytest.FixtureRequest, browser, server: AppServer):
    """A new browser context and page; on failure every open page is saved as a PNG."""
    _clear_failure(request.node.name)
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC")
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(2 * TIMEOUT_MS)
    page = context.new_page()
    try:
        yield page
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            _save_failure(request.node.name, context.pages, server)
        context.close()


def _stem(test_name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", test_name)


def _clear_failure(test_name: str) -> None:
    """Remove what an earlier failed run of this test left, so the folder shows this run only."""
    if ARTIFACTS.is_dir():
        for old in ARTIFACTS.glob(f"{glob.escape(_stem(test_name))}*"):
            if re.fullmatch(rf"{re.escape(_stem(test_name))}(-\d+)?(\.png|\.streamlit\.log)", old.name):
                old.unlink(missing_ok=True)


def _save_failure(test_name: str, pages: list, server: AppServer) -> None:
    stem = _stem(test_name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for number, open_page in enumerate(pages, start=1):
        name = stem if number == 1 else f"{stem}-{number}"
        try:
            full_page_screenshot(open_page, ARTIFACTS / f"{name}.png")
        except Exception as error:  # noqa: BLE001 - a broken page must not hide the test's own failure
            print(f"e2e: no screenshot of {open_page.url}: {error}")
    if server.log_path.exists():
        shutil.copyfile(server.log_path, ARTIFACTS / f"{stem}.streamlit.log")
