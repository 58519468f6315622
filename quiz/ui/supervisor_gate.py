"""The lock in front of the Team page: the password form, throttled, kept for the session.

Two throttles hold wrong guesses back: one in the browser session's state (a courtesy: a new
session or a client's ``BackMsg.clear_cache`` starts it afresh) and ``server_throttle``, kept
in the database, which every session of every server shares and nothing a client sends
resets. Its failures fade (``quiz.access.supervisor.SUPERVISOR_POLICY``), so a slow guesser
cannot keep the supervisor out.
"""

from __future__ import annotations

import math
import os
from typing import Any, Mapping

import streamlit as st

from quiz.access.supervisor import (
    PASSWORD_MAX,
    PASSWORD_SECRET,
    SUPERVISOR_POLICY,
    LoginThrottle,
    attempt_login,
    configured_password,
    supervisor_throttle,
    unlock_token,
)
from quiz.access.throttles import StoredThrottle, ThrottlePolicy
from quiz.db.store import Store
from quiz.ui.shell import Shell

UNLOCK_KEY = "supervisor_unlock"
THROTTLE_KEY = "supervisor_throttle"
SESSION_CEILING = 300.0  # one browser session: the wait grows to five minutes
PROCESS_CEILING = SUPERVISOR_POLICY.ceiling  # every session of every server together (in the database)


@st.cache_resource(show_spinner=False)
def process_throttle() -> ThrottlePolicy:
    """The rules of the server-wide throttle. Its state is in the database, not here: clearing
    this cache (as any client can) resets nothing."""
    return SUPERVISOR_POLICY


def server_throttle(store: Store) -> StoredThrottle:
    """The throttle every session of every server on ``store``'s database shares."""
    return supervisor_throttle(store, policy=process_throttle())


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
        given = st.text_input(shell.t("team.password"), type="password", max_chars=PASSWORD_MAX)
        pressed = st.form_submit_button(shell.t("team.unlock"), type="primary")
    if pressed:
        session = st.session_state.setdefault(THROTTLE_KEY, LoginThrottle(ceiling=SESSION_CEILING))
        result = attempt_login(given or "", expected, [session, server_throttle(shell.store)])
        if result.unlocked:
            st.session_state[UNLOCK_KEY] = token
            st.rerun()
        if result.too_long:
            st.error(shell.t("accounts.password_too_long", max=PASSWORD_MAX))
        else:
            seconds = math.ceil(result.retry_after)
            st.error(shell.t("team.throttled" if result.throttled else "team.wrong_password", seconds=seconds))
    return False


def lock(shell: Shell) -> None:
    """A button that locks the page again for this session."""
    if st.button(shell.t("team.lock"), icon=":material/lock:"):
        st.session_state.pop(UNLOCK_KEY, None)
        st.rerun()
