"""The supervisor's password gate, as AppTests pass it."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def unlock(at: AppTest, password: str) -> AppTest:
    """Type ``password`` into the page's supervisor gate and press Unlock."""
    at.main.text_input[0].input(password)
    at.main.button[0].click().run()
    return at
