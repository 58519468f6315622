"""The lock in front of the Team page: the password form, throttled, kept for the session."""

from __future__ import annotations

import math
import os
from typing import Any, Mapping

import streamlit as st

from quiz.supervisor_auth import PASSWORD_SECRET, LoginThrottle, attempt_login, configured_password, unlock_token
from quiz.ui.shell import Shell

UNLOCK_KEY = "supervisor_unlock"
THROTTLE_KEY = "supervisor_throttle"
SESSION_CEILING = 300.0  # one browser session: the wait grows to five minutes
PROCESS_CEILING = 30.0  # every session together: short enough that guessing cannot lock the supervisor out


@st.cache_resource(show_spinner=False)
def process_throttle() -> LoginThrottle:
    """One throttle for the whole server, so new sessions do not reset the wait."""
    return LoginThrottle(ceiling=PROCESS_CEILING)


def _secrets() -> Mapping[str, Any]:
    """The Streamlit secret, or nothing when the app has no secrets file."""
    try:
        return {PASSWORD_SECRET: st.secrets.get(PASSWORD_SECRET)}
    except FileNotFoundError:
        return {}


def supervisor_unlocked(shell: Shell, purpose: str = "team") -> bool:
    """True once this session gave the right password; otherwise draw the lock and say why.

    ``purpose`` names the page (``team`` or ``content``) whose explanations are shown.
    """
    expected = configured_password(os.environ, _secrets())
    if expected is None:
        st.info(shell.t(f"{purpose}.not_configured"))
        return False
    token = unlock_token(expected)
    if st.session_state.get(UNLOCK_KEY) == token:
        return True
    st.caption(shell.t(f"{purpose}.locked"))
    with st.form("supervisor-login", clear_on_submit=True):
        given = st.text_input(shell.t("team.password"), type="password", max_chars=200)
        pressed = st.form_submit_button(shell.t("team.unlock"), type="primary")
    if pressed:
        session = st.session_state.setdefault(THROTTLE_KEY, LoginThrottle(ceiling=SESSION_CEILING))
        result = attempt_login(given, expected, [session, process_throttle()])
        if result.unlocked:
            st.session_state[UNLOCK_KEY] = token
            st.rerun()
        seconds = math.ceil(result.retry_after)
        st.error(shell.t("team.throttled" if result.throttled else "team.wrong_password", seconds=seconds))
    return False


def lock(shell: Shell) -> None:
    """A button that locks the page again for this session."""
    if st.button(shell.t("team.lock"), icon=":material/lock:"):
        st.session_state.pop(UNLOCK_KEY, None)
        st.rerun()
