"""The supervisor's password gate, as AppTests pass it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from quiz.access.supervisor import PASSWORD_ENV
from quiz.ui.supervisor_gate import process_throttle


def unlock(at: AppTest, password: str) -> AppTest:
    """Type ``password`` into the page's supervisor gate and press Unlock."""
    at.main.text_input[0].input(password)
    at.main.button[0].click().run()
    return at


def fresh_gate(monkeypatch: pytest.MonkeyPatch, password: str | None = None) -> Iterator[None]:
    """For an autouse fixture: the supervisor password set to ``password`` (none by default),
    and no wait left in the gate's throttle by another test, before and after."""
    if password is None:
        monkeypatch.delenv(PASSWORD_ENV, raising=False)
    else:
        monkeypatch.setenv(PASSWORD_ENV, password)
    process_throttle.clear()
    yield
    process_throttle.clear()
