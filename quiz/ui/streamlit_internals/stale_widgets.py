"""Forget what Streamlit keeps of widgets no longer on the page.

Streamlit keeps each widget's metadata (serde, callback, arguments) for the session's life,
even after it drops the widget's value as stale. Every card's form has widgets of its own,
so a long session kept about seven more per answer: memory, and work for every full garbage
collection. Streamlit offers no public way to drop them, so this reaches into four private
attributes of its session state (``SafeSessionState._state``, ``SessionState._old_state``,
``._new_widget_state`` and ``._key_id_mapper``). As ``rerun_limit``, it is written for the
Streamlit versions of ``version.STREAMLIT_VERSIONS`` and does nothing under another, or when
one of those attributes is gone, with an error logged once;
``tests/ui/streamlit_internals/test_stale_widgets.py`` fails on either, so an upgrade looks here.
"""

from __future__ import annotations

import dataclasses
import logging
from functools import cache

from streamlit.runtime.scriptrunner_utils.script_run_context import (
    FragmentThreadState,
    ThreadState,
    get_script_run_ctx,
)
from streamlit.runtime.state.common import is_element_id
from streamlit.runtime.state.safe_session_state import SafeSessionState
from streamlit.runtime.state.session_state import KeyIdMapper, SessionState, WStates

from quiz.ui.streamlit_internals.version import fits

log = logging.getLogger(__name__)
FIELDS = (  # what is read or changed here, by class
    (SessionState, ("_old_state", "_new_widget_state", "_key_id_mapper")),
    (WStates, ("states", "widget_metadata")),
    (FragmentThreadState, ("fragment_id",)),  # what ThreadState.get() returns
)
KEY_ID_MAPPER = ("id_key_mapping", "get_id_from_key", "delete")


def check_internals() -> list[str]:
    """What differs in Streamlit's internals from what this module was written for (empty
    when nothing; the version is ``version.supported``'s)."""
    problems = []
    if "_state" not in SafeSessionState.__annotations__:
        problems.append("SafeSessionState._state is gone")
    gone = [(kind.__name__, name) for kind, names in FIELDS for name in names
            if name not in {f.name for f in dataclasses.fields(kind)}]
    gone += [("KeyIdMapper", name) for name in KEY_ID_MAPPER if not hasattr(KeyIdMapper, name)]
    problems += [f"{kind}.{name} is gone" for kind, name in gone]
    return problems


@cache
def enabled() -> bool:
    """Whether this Streamlit is one written for (checked once per process)."""
    return fits(check_internals, "stale widgets are not forgotten", log)


def forget_stale_widgets() -> int:
    """In a fragment, before it draws any widget: drop the metadata and key of every widget
    of this fragment whose value Streamlit has dropped (not on the page since its last run
    ended). Widgets outside the fragment are left alone. Returns how many were dropped (0
    outside a fragment, or under another Streamlit)."""
    ctx = get_script_run_ctx()
    if ctx is None or not enabled():
        return 0
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
    return len(stale)
