"""Browser steps shared by the reliability tests (on top of tests/e2e/driver.py).

Imported only by modules that have already checked for a browser
(``driver.require_browser()``), since it needs Playwright.
"""

from __future__ import annotations

from typing import Any

from tests.e2e import driver
from tests.e2e.driver import main, settle


def answer_shown_card(page, button: str = "Check") -> str:
    """Answer the card in the main form with its first choices and press ``button``; the
    card's kind (``driver.answer_with_first_choices``). Any answer will do: right or wrong,
    it is stored."""
    kind = driver.answer_with_first_choices(page, button)
    settle(page)
    return kind


def feedback(page):
    """The right/wrong banner shown once an answer is checked."""
    return main(page).get_by_test_id("stAlertContentSuccess").or_(main(page).get_by_test_id("stAlertContentError"))


class ScriptWatch:
    """Records every JavaScript dialog (alert, confirm, prompt) a page opens, and dismisses it."""

    def __init__(self, page) -> None:
        self.dialogs: list[str] = []
        page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()


# Everything a payload could have planted in the page, counted in the live DOM.
PLANTED = """() => {
    const scripts = [...document.querySelectorAll('script')]
        .filter(s => /__pwned|alert\\(/.test(s.textContent || '')).length;
    return {
        pwned: typeof window.__pwned,
        scripts,
        images: document.querySelectorAll('img[src="x"], img[onerror], svg[onload]').length,
        handlers: document.querySelectorAll('[onerror], [onload], [onclick], [onmouseover]').length,
        javascript_links: document.querySelectorAll('a[href^="javascript:" i], [src^="javascript:" i]').length,
    };
}"""
NOTHING_PLANTED = {"pwned": "undefined", "scripts": 0, "images": 0, "handlers": 0, "javascript_links": 0}


def assert_inert(page, watch: ScriptWatch) -> None:
    """No payload ran (no dialog, no ``window.__pwned``) and none became an element."""
    settle(page)
    assert watch.dialogs == []
    assert page.evaluate(PLANTED) == NOTHING_PLANTED
