"""Forget what Streamlit keeps of widgets no longer on the page.

Streamlit keeps each widget's metadata (its serde, callback and arguments) for the life of
the session, by widget id, even after the widget's value is dropped as stale (Streamlit
1.67: ``WState.remove_stale_widgets`` filters the values, never ``widget_metadata``).
Every card's form has widgets of its own (keys by card number), so a session kept about
seven widgets' metadata per answer: memory that grew with every answer, and that each of
Python's full garbage collections walked again.
"""

from __future__ import annotations

import logging
from functools import cache

from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState, get_script_run_ctx
from streamlit.runtime.state.common import is_element_id

log = logging.getLogger(__name__)


def forget_stale_widgets() -> int:
    """In a fragment, before it draws any widget: drop the metadata, and the key, of every
    widget of this fragment that has no value kept (not on the page since its last run
    ended: Streamlit already dropped its value). Widgets outside the fragment are left
    alone. Returns how many were dropped (0 outside a fragment, or if Streamlit changed)."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return 0
    try:
        fragment_id = ThreadState.get().fragment_id  # what Streamlit gives the widgets drawn now
        if fragment_id is None:
            return 0
        state = ctx.session_state._state  # SafeSessionState -> SessionState
        widgets = state._new_widget_state
        kept = set(widgets.states).union(key for key in state._old_state if is_element_id(key))
        stale = [widget_id for widget_id, metadata in widgets.widget_metadata.items()
                 if metadata.fragment_id == fragment_id and widget_id not in kept]
        keys = state._key_id_mapper
        for widget_id in stale:
            del widgets.widget_metadata[widget_id]
            user_key = keys.id_key_mapping.get(widget_id)
            if user_key is not None and keys.get_id_from_key(user_key) == widget_id:
                keys.delete(user_key)
    except (AttributeError, KeyError, TypeError):  # Streamlit's internals changed: keep everything
        _warn_once()
        return 0
    return len(stale)


@cache
def _warn_once() -> None:
    log.warning("stale widgets are not forgotten: Streamlit's session state changed shape", exc_info=True)
