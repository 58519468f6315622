"""The trainee's corner of the sidebar: sign in with a name and PIN, add yourself, sign out.

Who is signed in lives only in this browser session; the URL's ``trainee`` parameter just
fills in the name after a refresh. Nobody sees a list of names, and ``?trainee=NAME``
opens nothing without the PIN.
"""

from __future__ import annotations

import math

import streamlit as st

from quiz.i18n import t
from quiz.login import LoginThrottle, ThrottleBook
from quiz.markdown import escape_markdown
from quiz.pin import PIN_MAX, PinRuleError
from quiz.store import Store, Trainee
from quiz.tables import NAME_MAX
from quiz.trainee_accounts import NameTakenError, add_trainee, name_throttles, set_pin, sign_in

SIGNED_IN_KEY = "trainee"  # the signed-in Trainee
THROTTLE_KEY = "trainee_sign_in_throttle"
SESSION_CEILING = 300.0
KEPT_ON_SIGN_OUT = frozenset({"language", "games", "categories", THROTTLE_KEY})


@st.cache_resource(show_spinner=False)
def _name_throttles() -> ThrottleBook:
    """One book of per-name throttles for the whole server, so new sessions do not reset it."""
    return name_throttles()


def signed_in() -> Trainee | None:
    trainee = st.session_state.get(SIGNED_IN_KEY)
    return trainee if isinstance(trainee, Trainee) else None


def trainee_panel(store: Store, language: str) -> Trainee | None:
    """Draw the panel; the signed-in trainee, or None."""
    st.subheader(t("shell.trainee", language))
    trainee = signed_in()
    if trainee is not None:
        _signed_in_panel(trainee, language)
        return trainee
    _sign_in_form(store, language)
    with st.expander(t("shell.new_trainee", language), icon=":material/person_add:"):
        _new_trainee_form(store, language)
    return None


def _signed_in_panel(trainee: Trainee, language: str) -> None:
    if st.query_params.get("trainee") != trainee.name:  # the URL follows the session, never leads it
        st.query_params["trainee"] = trainee.name
    st.markdown(f":material/person: **{escape_markdown(trainee.name)}**")
    if st.button(t("shell.sign_out", language), icon=":material/logout:", key="sign-out"):
        _sign_out()
        st.rerun()


def _sign_in_form(store: Store, language: str) -> None:
    remembered = st.query_params.get("trainee", "")[:NAME_MAX]
    with st.form("sign-in", clear_on_submit=True, border=False):
        name = st.text_input(t("shell.name", language), value=remembered, max_chars=NAME_MAX, key="sign-in-name")
        pin = st.text_input(t("shell.pin", language), type="password", max_chars=PIN_MAX, key="sign-in-pin")
        pressed = st.form_submit_button(t("shell.sign_in", language), type="primary", icon=":material/login:",
                                        key="sign-in-submit")
    if not pressed:
        return
    if name.strip():
        st.query_params["trainee"] = name.strip()  # refills the cleared form
    session = st.session_state.setdefault(THROTTLE_KEY, LoginThrottle(ceiling=SESSION_CEILING))
    result = sign_in(store, name, pin, _name_throttles(), session)
    if result.trainee is not None:
        _start_session(result.trainee)
    key = "shell.sign_in_throttled" if result.throttled else "shell.sign_in_failed"
    st.error(t(key, language, seconds=math.ceil(result.retry_after)))


def _new_trainee_form(store: Store, language: str) -> None:
    with st.form("new-trainee", clear_on_submit=True, border=False):
        name = st.text_input(t("shell.name", language), max_chars=NAME_MAX, key="new-trainee-name")
        pin = st.text_input(t("shell.pin", language), type="password", max_chars=PIN_MAX,
                            help=t("shell.pin_help", language), key="new-trainee-pin")
        again = st.text_input(t("shell.pin_again", language), type="password", max_chars=PIN_MAX,
                              key="new-trainee-pin-again")
        pressed = st.form_submit_button(t("shell.create", language), icon=":material/person_add:",
                                        key="new-trainee-submit")
    if not pressed:
        return
    if not name.strip():
        st.error(t("shell.name_missing", language))
    elif _pins_agree(pin, again, language):
        try:
            created = add_trainee(store, name, pin)
        except NameTakenError:
            st.error(t("shell.name_taken", language))
        except PinRuleError as error:
            st.error(t(f"shell.pin_{error.rule}", language))
        except ValueError:
            st.error(t("shell.name_invalid", language, max=NAME_MAX))
        else:
            _start_session(created)


def new_pin_form(store: Store, trainee: Trainee, language: str) -> None:
    """A form that gives ``trainee`` a new PIN (for a supervisor, when one is forgotten)."""
    with st.form(f"new-pin-{trainee.id}", clear_on_submit=True, border=False):
        pin = st.text_input(t("shell.pin", language), type="password", max_chars=PIN_MAX,
                            help=t("shell.pin_help", language), key="new-pin")
        again = st.text_input(t("shell.pin_again", language), type="password", max_chars=PIN_MAX, key="new-pin-again")
        pressed = st.form_submit_button(t("team.set_pin", language), icon=":material/key:", key="new-pin-submit")
    if pressed and _pins_agree(pin, again, language):
        try:
            set_pin(store, trainee.id, pin)
        except PinRuleError as error:
            st.error(t(f"shell.pin_{error.rule}", language))
        else:
            st.success(t("team.pin_set", language, name=escape_markdown(trainee.name)))


def _pins_agree(pin: str, again: str, language: str) -> bool:
    if pin != again:
        st.error(t("shell.pins_differ", language))
        return False
    return True


def _start_session(trainee: Trainee) -> None:
    """Forget what the previous trainee of this browser left behind, then sign in."""
    _sign_out()
    st.session_state[SIGNED_IN_KEY] = trainee
    st.query_params["trainee"] = trainee.name
    st.rerun()


def _sign_out() -> None:
    for key in list(st.session_state):
        if key not in KEPT_ON_SIGN_OUT:
            del st.session_state[key]
