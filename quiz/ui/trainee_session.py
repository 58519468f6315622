"""Who is signed in in this browser session, and what the sign-in forms leave for the next run.

Who is signed in lives in this browser session, and a reload signs back in with the
device's token (``quiz.ui.device_sign_in``: expiring, revocable, ended by a new PIN; never
the PIN). A signed-in session keeps the trainee's credential version and checks it on every
run (one primary-key lookup, or on PostgreSQL the version kept in the server's memory until a
notice says it changed: ``quiz.db.watches``): when the PIN was changed in another session, or
replaced by a supervisor, this session is signed out.

Throttles (``quiz.access.accounts``): per name in the database (every server, not reset
by anything a client sends), and per browser session in its state (a courtesy only: a new
session or a client's ``clear_cache`` starts it afresh).
"""

from __future__ import annotations

import streamlit as st

from quiz.access.accounts import NameThrottles, credential_guard, credential_version, name_throttles
from quiz.access.throttles import LoginThrottle
from quiz.db.answers import WriteGuard
from quiz.db.store import Store, Trainee
from quiz.db.time_zones import time_zone_for
from quiz.model.words import t
from quiz.ui import device_sign_in as device

SIGNED_IN_KEY = "trainee"  # the signed-in Trainee
FIRST_VISIT_KEY = "first_visit"  # set when a trainee has just added themselves
CREDENTIAL_KEY = "trainee_credential"  # their credential_version when they signed in (or changed the PIN)
THROTTLE_KEY = "trainee_sign_in_throttle"
MESSAGE_KEY = "sign_in_message"  # (form, text key, values[, "success"/"info"]): what a form's callback left
SESSION_CEILING = 300.0
KEPT_ON_SIGN_OUT = frozenset({"language", "games", "categories", THROTTLE_KEY, device.TRIED_KEY})


@st.cache_resource(show_spinner=False)
def shared_name_throttles() -> NameThrottles:
    """The per-name throttles. They hold no state (it is in the database), so clearing this
    cache, as any client can with ``BackMsg.clear_cache``, resets no wait and no lock-out."""
    return name_throttles()


def session_throttle() -> LoginThrottle:
    """This browser session's throttle, shared by signing in and changing the PIN."""
    return st.session_state.setdefault(THROTTLE_KEY, LoginThrottle(ceiling=SESSION_CEILING))


def signed_in() -> Trainee | None:
    trainee = st.session_state.get(SIGNED_IN_KEY)
    return trainee if isinstance(trainee, Trainee) else None


def resume_signed_in(store: Store) -> Trainee | None:
    """The signed-in trainee, signing a new session (a reload) back in by this device's token."""
    return signed_in() or _resumed_on_this_device(store)


def _resumed_on_this_device(store: Store) -> Trainee | None:
    """A new session (a reload, a dropped tab) signed back in by the device's token; else None,
    telling a trainee whose token ended that their exam still runs."""
    resumed = device.resume_on_this_device(store)
    if resumed is None or resumed.trainee is None:
        if resumed is not None and resumed.exam_running:
            st.session_state[MESSAGE_KEY] = ("sign-in", "accounts.exam_running_signed_out", {}, "info")
        return None
    st.session_state[SIGNED_IN_KEY] = resumed.trainee
    st.session_state[CREDENTIAL_KEY] = resumed.credential
    st.query_params["trainee"] = resumed.trainee.name
    return resumed.trainee


def still_signed_in(store: Store) -> bool:
    """Whether the session's trainee, if any, may go on: their PIN is still the one this
    session signed in with (checked on a fragment's own run; the sidebar checks every full run)."""
    trainee = signed_in()
    return trainee is None or credential_holds(store, trainee)


def answer_guard(store: Store) -> WriteGuard | None:
    """The PIN check of a click that stores an answer, made in the answer's own transaction
    (``quiz.access.accounts.credential_guard``); None when no trainee is signed in with a
    known credential (then ``still_signed_in`` checks)."""
    trainee = signed_in()
    if trainee is None or CREDENTIAL_KEY not in st.session_state:
        return None
    return credential_guard(store, trainee.id, st.session_state[CREDENTIAL_KEY])


def credential_holds(store: Store, trainee: Trainee) -> bool:
    """Whether the trainee's PIN is still the one this session signed in with (or changed to)."""
    current = credential_version(store, trainee.id)
    state = st.session_state
    if CREDENTIAL_KEY not in state:  # signed in without the form (tests): this PIN from now on
        state[CREDENTIAL_KEY] = current
    return state[CREDENTIAL_KEY] == current


def start_session(store: Store, trainee: Trainee, credential: str | None) -> None:
    """Forget what the previous trainee of this browser left behind, then sign in (called
    from a button's callback: the run that follows draws the signed-in app). The browser's
    time zone is kept for a trainee who has none yet, so that a supervisor's view of their
    days agrees with their own from the first answer on."""
    sign_out()
    time_zone_for(store, trainee.id, st.context.timezone)
    st.session_state[SIGNED_IN_KEY] = trainee
    st.session_state[CREDENTIAL_KEY] = credential
    st.query_params["trainee"] = trainee.name


def sign_out() -> None:
    """Forget the trainee and everything of theirs in this session, keeping its settings."""
    for key in list(st.session_state):
        if key not in KEPT_ON_SIGN_OUT:
            del st.session_state[key]


def show_message(form: str, language: str) -> None:
    """The message a callback left for ``form`` (an error unless it says otherwise), shown once."""
    message = st.session_state.get(MESSAGE_KEY)
    if message is not None and message[0] == form:
        del st.session_state[MESSAGE_KEY]
        show = {("success",): st.success, ("info",): st.info}.get(tuple(message[3:]), st.error)
        show(t(message[1], language, **message[2]))
