"""The trainee's corner of the sidebar: sign in with a name and PIN, add yourself, join or
leave a store, change your PIN, sign out.

The URL's ``trainee`` parameter just fills in the name: nobody sees a list of names, and
``?trainee=NAME`` opens nothing without the PIN. Who is signed in, and how a session stays
so, is ``quiz.ui.trainee_session``.
"""

from __future__ import annotations

import math
from dataclasses import replace

import streamlit as st

from quiz.access.accounts import NameTakenError, add_trainee, credential_version, sign_in
from quiz.access.pins import PIN_MAX, PinRuleError, same_pin
from quiz.access.stores import CODE_INPUT_MAX, leave_store, redeem, store_name
from quiz.access.work_limits import claim_join_code
from quiz.db.store import Store, Trainee
from quiz.model.errors import JoinCodeError, NameRuleError
from quiz.model.names import NAME_INPUT_MAX, NAME_MAX
from quiz.model.words import t
from quiz.report.join_qr import JOIN_PARAM
from quiz.ui import device_sign_in as device
from quiz.ui.errors import database_failure_words
from quiz.ui.folds import fold
from quiz.ui.markdown import escape_markdown
from quiz.ui.pin_forms import change_pin_form, pin_problem
from quiz.ui.streamlit_internals import client
from quiz.ui.trainee_session import (
    FIRST_VISIT_KEY,
    MESSAGE_KEY,
    SIGNED_IN_KEY,
    credential_holds,
    resume_signed_in,
    session_throttle,
    shared_name_throttles,
    show_message,
    sign_out,
    start_session,
)

PIN_FOLD, STORE_FOLD = "pin-fold", "store-fold"  # the signed-in panel's folds (quiz.ui.folds)
NAME_PROBLEMS = {"invisible": "accounts.name_invisible", "mixed_script": "accounts.name_mixed_script"}


def trainee_panel(store: Store, language: str) -> Trainee | None:
    """Draw the panel; the signed-in trainee, or None."""
    st.subheader(t("shell.trainee", language))
    trainee = resume_signed_in(store)
    if trainee is not None and not credential_holds(store, trainee):
        sign_out()
        st.session_state[MESSAGE_KEY] = ("sign-in", "accounts.signed_out_pin_changed", {}, "info")
        # the cookie stays: its token ended with the PIN, but still marks the device as the trainee's
        trainee = None
    device.draw_cookie_change()
    if trainee is not None:
        _signed_in_panel(store, trainee, language)
        # folds drawn once opened: every full run of every page draws this panel, and these
        # two forms (four text boxes, a store's name read) were a fifth of a practice run's calls
        for words, key, icon, form in (("shell.change_pin", PIN_FOLD, ":material/key:", change_pin_form),
                                       ("shell.join_store", STORE_FOLD, ":material/storefront:", _store_form)):
            box = fold(t(words, language), key, icon=icon)
            if box is not None:
                with box:
                    form(store, trainee, language)
        return trainee
    _sign_in_form(store, language)
    # a join code's link (quiz.report.join_qr) opens the sign-up with the code filled in
    joining = st.query_params.get(JOIN_PARAM, "")[:CODE_INPUT_MAX]
    with st.expander(t("shell.new_trainee", language), icon=":material/person_add:", expanded=bool(joining)):
        _new_trainee_form(store, language, joining)
    return None


def _signed_in_panel(store: Store, trainee: Trainee, language: str) -> None:
    st.markdown(f":material/person: **{escape_markdown(trainee.name)}**")
    if st.button(t("shell.sign_out", language), icon=":material/logout:", key="sign-out"):
        device.forget_this_device(store)  # this device signs in again only with the PIN
        sign_out()
        # the cookie stays: its ended token signs nobody in, and keeps marking the device as a
        # place the trainee signs in (a guesser of their name elsewhere does not hold them here)
        st.session_state["sign-in-name"] = ""  # a shared store computer keeps no trace of who was here
        st.query_params.pop("trainee", None)
        st.rerun()


def _sign_in_form(store: Store, language: str) -> None:
    # the name from the URL, once: after that the field keeps what was typed
    st.session_state.setdefault("sign-in-name", st.query_params.get("trainee", "")[:NAME_MAX])
    with st.form("sign-in", border=False):
        st.text_input(t("shell.name", language), max_chars=NAME_MAX, key="sign-in-name")
        st.text_input(t("shell.pin", language), type="password", max_chars=PIN_MAX, key="sign-in-pin")
        st.form_submit_button(t("shell.sign_in", language), type="primary", icon=":material/login:",
                              key="sign-in-submit", on_click=_on_sign_in, args=(store,))
    show_message("sign-in", language)


def _on_sign_in(store: Store) -> None:
    """The sign-in button's callback: check the PIN, then clear it whatever the outcome."""
    state = st.session_state
    name, pin = state.get("sign-in-name", ""), state.get("sign-in-pin", "")
    state["sign-in-pin"] = ""
    try:
        result = sign_in(store, name, pin, shared_name_throttles(), session_throttle(), address=client.address(),
                         device_token=st.context.cookies.get(device.COOKIE))
        if result.trainee is not None:
            start_session(store, result.trainee, result.credential)
            device.remember_this_device(store, result.trainee.id)
            return
    except Exception as error:  # a locked database, a full disk: the app's words, not Streamlit's box
        words = database_failure_words(error)
        if words is None:
            raise
        state.pop(SIGNED_IN_KEY, None)
        state[MESSAGE_KEY] = ("sign-in", words, {})
        return
    if result.too_long:
        state["sign-in-name"] = ""  # an oversized value is not kept in the session either
        key = "accounts.too_long"
    elif result.locked:
        key = "accounts.locked"
    else:
        key = "shell.sign_in_throttled" if result.throttled else "shell.sign_in_failed"
    state[MESSAGE_KEY] = ("sign-in", key, {"seconds": math.ceil(result.retry_after)})


def _new_trainee_form(store: Store, language: str, joining: str = "") -> None:
    st.session_state.setdefault("new-trainee-code", joining)  # the link's code, once: then what is typed
    with st.form("new-trainee", border=False):
        st.text_input(t("shell.name", language), max_chars=NAME_MAX, key="new-trainee-name")
        st.text_input(t("shell.pin", language), type="password", max_chars=PIN_MAX,
                      help=t("shell.pin_help", language), key="new-trainee-pin")
        st.text_input(t("shell.pin_again", language), type="password", max_chars=PIN_MAX, key="new-trainee-pin-again")
        st.text_input(t("shell.join_code", language), max_chars=CODE_INPUT_MAX, key="new-trainee-code",
                      help=t("shell.join_code_help", language))
        st.form_submit_button(t("shell.create", language), icon=":material/person_add:", key="new-trainee-submit",
                              on_click=_on_new_trainee, args=(store,))
    show_message("new-trainee", language)


def _on_new_trainee(store: Store) -> None:
    """The add button's callback: add and sign in, or say why not (keeping the name typed)."""
    state = st.session_state
    name, pin, again = (state.get(key, "") for key in ("new-trainee-name", "new-trainee-pin", "new-trainee-pin-again"))
    state["new-trainee-pin"] = state["new-trainee-pin-again"] = ""
    problem: tuple[str, dict[str, object]]
    if len(name) > NAME_INPUT_MAX:
        state["new-trainee-name"] = ""  # an oversized value is not kept in the session either
        problem = ("shell.name_invalid", {"max": NAME_MAX})
    elif not name.strip():
        problem = ("shell.name_missing", {})
    elif not same_pin(pin, again):
        problem = ("shell.pins_differ", {})
    elif (wait := _join_code_wait(store, state.get("new-trainee-code", ""))) > 0:
        problem = ("shell.join_code_wait", {"seconds": math.ceil(wait)})
    else:
        try:
            created = add_trainee(store, name, pin, state.get("new-trainee-code", "")[:CODE_INPUT_MAX] or None)
        except NameTakenError:
            problem = ("shell.name_taken", {})
        except JoinCodeError as error:
            problem = (f"shell.join_code_{error.rule}", {})
        except PinRuleError as error:
            problem = (pin_problem(error), {})
        except NameRuleError as error:
            problem = (NAME_PROBLEMS.get(error.rule, "shell.name_invalid"), {"max": NAME_MAX})
        except Exception as error:  # a full disk, a database down: the app's words, not Streamlit's box
            words = database_failure_words(error)
            if words is None:
                raise
            problem = (words, {})
        else:
            start_session(store, created, credential_version(store, created.id))
            device.remember_this_device(store, created.id)
            state[FIRST_VISIT_KEY] = True  # the welcome asks their games and daily goal (quiz.ui.first_visit)
            return
    state[MESSAGE_KEY] = ("new-trainee", *problem)


def _join_code_wait(store: Store, typed: str) -> float:
    """0 when a join code may be tried now (counted against this session and its client
    address, ``quiz.access.work_limits``), else the seconds to wait; nothing typed: 0, uncounted."""
    if not typed.strip():
        return 0.0
    return claim_join_code(store, client.session_id(), client.address()).wait


def _store_form(store: Store, trainee: Trainee, language: str) -> None:
    """Join a store with a join code, or leave the one joined (a self-study player again)."""
    joined = store_name(store, trainee.store_id)
    st.caption(t("shell.in_store", language, store=escape_markdown(joined)) if joined
               else t("shell.no_store", language))
    with st.form("join-store", clear_on_submit=True, border=False):
        code = st.text_input(t("shell.join_code", language), max_chars=CODE_INPUT_MAX, key="join-store-code")
        pressed = st.form_submit_button(t("shell.join_submit", language), key="join-store-submit")
    if pressed:
        wait = _join_code_wait(store, code or "-")
        try:
            if wait > 0:
                raise JoinCodeError("wait", "too many join codes tried")
            info = redeem(store, trainee.id, code or "")
        except JoinCodeError as error:
            st.error(t(f"shell.join_code_{error.rule}", language, seconds=math.ceil(wait)))
        else:
            st.session_state[SIGNED_IN_KEY] = replace(trainee, store_id=info.id)
            st.session_state[MESSAGE_KEY] = ("join-store", "shell.joined", {"store": escape_markdown(info.name)},
                                             "success")
            st.rerun()
    if joined and st.button(t("shell.leave_store", language), key="leave-store"):
        leave_store(store, trainee.id)
        st.session_state[SIGNED_IN_KEY] = replace(trainee, store_id=None)
        st.rerun()
    show_message("join-store", language)
