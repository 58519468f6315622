"""Widget values kept from page to page.

Streamlit forgets a keyed widget's value when a run draws a page without it (another page of
the app), and the next page that draws it starts from its default. A value kept here under
a key of its own is put back into the widget before it is drawn, and the widget's callback
keeps each change.
"""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

PREFIX = "kept:"


def kept_widget(key: str, default: Any, valid: Callable[[Any], bool] = lambda _: True) -> dict[str, Any]:
    """The ``key``, ``on_change`` and ``args`` of a widget whose value is kept: its kept value
    (``default`` when none, or when no longer ``valid``) is put in place first."""
    value = st.session_state.get(PREFIX + key, default)
    st.session_state[key] = value if valid(value) else default
    return {"key": key, "on_change": _keep_change, "args": (key,)}


def keep(key: str, value: Any) -> None:
    """Draw the widget ``key`` with ``value`` from the next run on."""
    st.session_state[PREFIX + key] = value


def forget(key: str) -> None:
    st.session_state.pop(PREFIX + key, None)
    st.session_state.pop(key, None)


def kept_value(key: str, default: Any = None) -> Any:
    """The widget's kept value (its value once drawn)."""
    return st.session_state.get(PREFIX + key, default)


def _keep_change(key: str) -> None:
    keep(key, st.session_state.get(key))
