"""Staying signed in across a reload: the device's token in a cookie (``quiz.access.device_tokens``).

A reload or a phone's dropped background tab starts a new Streamlit session; its first run
reads the cookie the browser sent with the connection (``st.context.cookies``) and signs the
trainee back in when the token holds. Streamlit cannot set a cookie from the server, so a
small script of ours, in an iframe of the page's origin (as the exam clock's), writes it in
the page once after signing in. Signing out ends the token but keeps the cookie: it signs
nobody in, and tells the sign-in throttles that the device is its trainee's
(``quiz.access.accounts.known_device``). The cookie holds only the token
(``SameSite=Strict``, ``Secure`` on HTTPS, ``DEVICE_DAYS`` long), never a name or PIN.
"""

from __future__ import annotations

import json

import streamlit as st

from quiz.access.device_tokens import DEVICE_DAYS, Resumed, issue, resume, revoke
from quiz.db.store import Store
from quiz.model.attempt import utc_now

COOKIE = "quiz_device"
TOKEN_KEY = "device_token"  # the token this session signed in with or was issued
TRIED_KEY = "device_resume_tried"  # this session read its cookie already
PENDING_KEY = "device_cookie_pending"  # the token to write into the cookie, or "" to clear it

_SCRIPT = """<!doctype html><html><body><script>
(function () {
  var page = window.parent, value = %(value)s, age = value ? %(age)d : 0;
  page.document.cookie = "%(name)s=" + value + "; Max-Age=" + age + "; Path=/; SameSite=Strict"
    + (page.location.protocol === "https:" ? "; Secure" : "");
})();
</script></body></html>"""


def resume_on_this_device(store: Store) -> Resumed | None:
    """Once per session: who this device's cookie signs back in (a ``Resumed``), or None when
    it sent none or it was read already. A token that no longer holds stays in the cookie
    (``quiz.access.accounts.known_device``)."""
    if st.session_state.get(TRIED_KEY):
        return None
    st.session_state[TRIED_KEY] = True
    token = st.context.cookies.get(COOKIE)
    if not token:
        return None
    resumed = resume(store, token, utc_now())
    if resumed.trainee is not None:
        st.session_state[TOKEN_KEY] = token
    # a token that no longer signs in is kept: it still marks the device as its trainee's, whose
    # sign-in here a guesser of their name elsewhere does not hold up (quiz.access.accounts)
    return resumed


def remember_this_device(store: Store, trainee_id: int) -> None:
    """After signing in: a token for this device, written into its cookie by the next run."""
    token = issue(store, trainee_id, utc_now())
    st.session_state[TOKEN_KEY] = st.session_state[PENDING_KEY] = token
    st.session_state[TRIED_KEY] = True


def forget_this_device(store: Store) -> None:
    """On signing out: end this device's token (its cookie stays: it signs nobody in)."""
    revoke(store, st.session_state.get(TOKEN_KEY), utc_now())


def draw_cookie_change() -> None:
    """Write or clear the cookie, once, when signing in or out asked for it."""
    pending = st.session_state.pop(PENDING_KEY, None)
    if pending is None:
        return
    st.iframe(cookie_script(pending), height=1, tab_index=-1)


def cookie_script(token: str) -> str:
    """The iframe's page that sets the cookie to ``token`` (clears it for ""); the token is
    JSON with ``<`` escaped: no value can end the script element."""
    value = json.dumps(token).replace("<", "\\u003c")
    return _SCRIPT % {"value": value, "age": DEVICE_DAYS * 86400, "name": COOKIE}
