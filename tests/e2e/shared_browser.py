"""One Chromium for the whole test run, shared by every conftest that needs a browser.

Playwright's sync API allows one running instance per thread: a second
``sync_playwright()`` while the first is open fails ("using Playwright Sync API inside the
asyncio loop"). The browser tests in ``tests/e2e/`` and ``tests/reliability/`` each have a
session-scoped ``browser`` fixture (a fixture belongs to its conftest), so both take the
browser from here: the first user starts Playwright and Chromium, the last one closes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.e2e.driver import CHROMIUM_ARGS

_shared: dict[str, Any] = {"users": 0, "manager": None, "browser": None}


@contextmanager
def shared_chromium(executable: str) -> Iterator[Any]:
    """The run's Chromium (headless, with the flags CI needs), started on first use."""
    if _shared["users"] == 0:
        from playwright.sync_api import sync_playwright

        manager = sync_playwright()
        playwright = manager.__enter__()
        try:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        except BaseException:
            manager.__exit__(None, None, None)
            raise
        _shared.update(manager=manager, browser=browser)
    _shared["users"] += 1
    try:
        yield _shared["browser"]
    finally:
        _shared["users"] -= 1
        if _shared["users"] == 0:
            browser, manager = _shared["browser"], _shared["manager"]
            _shared.update(manager=None, browser=None)
            try:
                browser.close()
            finally:
                manager.__exit__(None, None, None)
