"""Setting a PIN: the trainee's own change of it (in the sidebar), and a supervisor's new PIN
for a trainee who forgot theirs (which lifts a lock-out of their name and signs them out)."""

from __future__ import annotations

import math

import streamlit as st

from quiz.access.accounts import change_pin, credential_version, lift_lockout, lockout_of, set_pin
from quiz.access.pins import PIN_MAX, PinRuleError, same_pin
from quiz.db.store import Store, Trainee
from quiz.model.local_time import local_text
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.ui import device_sign_in as device
from quiz.ui.errors import database_failure_words
from quiz.ui.markdown import escape_markdown
from quiz.ui.streamlit_internals import client
from quiz.ui.trainee_session import (
    CREDENTIAL_KEY,
    MESSAGE_KEY,
    session_throttle,
    shared_name_throttles,
    show_message,
)


def change_pin_form(store: Store, trainee: Trainee, language: str) -> None:
    """The signed-in trainee's form to change their PIN."""
    with st.form("change-pin", border=False):
        st.text_input(t("shell.current_pin", language), type="password", max_chars=PIN_MAX, key="change-pin-current")
        st.text_input(t("shell.new_pin", language), type="password", max_chars=PIN_MAX,
                      help=t("shell.pin_help", language), key="change-pin-new")
        st.text_input(t("shell.pin_again", language), type="password", max_chars=PIN_MAX, key="change-pin-again")
        st.form_submit_button(t("shell.change_pin", language), key="change-pin-submit",
                              on_click=_on_change_pin, args=(store, trainee))
    show_message("change-pin", language)


def _on_change_pin(store: Store, trainee: Trainee) -> None:
    """The change button's callback: every field is cleared whatever the outcome."""
    state = st.session_state
    current, new, again = (state.get(key, "") for key in ("change-pin-current", "change-pin-new", "change-pin-again"))
    state["change-pin-current"] = state["change-pin-new"] = state["change-pin-again"] = ""
    if not same_pin(new, again):
        state[MESSAGE_KEY] = ("change-pin", "shell.pins_differ", {})
        return
    try:
        result = change_pin(store, trainee, current, new, shared_name_throttles(), session_throttle(),
                            address=client.address(), device_token=st.context.cookies.get(device.COOKIE))
    except PinRuleError as error:
        state[MESSAGE_KEY] = ("change-pin", pin_problem(error), {})
        return
    except Exception as error:  # a locked database, a full disk: the app's words, not Streamlit's box
        words = database_failure_words(error)
        if words is None:
            raise
        state[MESSAGE_KEY] = ("change-pin", words, {})
        return
    if result.unlocked:
        state[CREDENTIAL_KEY] = credential_version(store, trainee.id)  # this session stays signed in
        device.remember_this_device(store, trainee.id)  # and this device: the new PIN ended its token
        state[MESSAGE_KEY] = ("change-pin", "shell.pin_changed", {}, "success")
    elif result.too_long:
        state[MESSAGE_KEY] = ("change-pin", "accounts.too_long", {})
    elif result.locked:
        state[MESSAGE_KEY] = ("change-pin", "accounts.locked", {})
    else:
        key = "shell.sign_in_throttled" if result.throttled else "shell.current_pin_wrong"
        state[MESSAGE_KEY] = ("change-pin", key, {"seconds": math.ceil(result.retry_after)})


def pin_problem(error: PinRuleError) -> str:
    """The text key telling why a new PIN was refused."""
    return "accounts.pin_weak" if error.rule == "weak" else f"shell.pin_{error.rule}"


def new_pin_form(store: Store, scope: Scope, trainee: Trainee, language: str, zone: str) -> None:
    """A form that gives ``trainee`` a new PIN (for a supervisor of ``scope``, when one is forgotten), under
    the lock-out of their name if there is one, with a button that lifts it. A new PIN lifts it
    too, and signs the trainee's sessions out."""
    lockout = lockout_of(store, trainee.id)
    if lockout is not None:
        notice = st.empty()
        notice.warning(t("accounts.lockout_notice", language, name=escape_markdown(trainee.name),
                         failures=lockout.failures, time=local_text(lockout.locked_at, zone)))
        if st.button(t("accounts.unlock", language), icon=":material/lock_open:", key=f"unlock-{trainee.id}"):
            lift_lockout(store, trainee.id, scope.supervisor)
            notice.success(t("accounts.unlocked", language, name=escape_markdown(trainee.name)))
    with st.form(f"new-pin-{trainee.id}", clear_on_submit=True, border=False):
        pin = st.text_input(t("shell.pin", language), type="password", max_chars=PIN_MAX,
                            help=t("shell.pin_help", language), key="new-pin")
        again = st.text_input(t("shell.pin_again", language), type="password", max_chars=PIN_MAX, key="new-pin-again")
        pressed = st.form_submit_button(t("team.set_pin", language), icon=":material/key:", key="new-pin-submit")
    if pressed and _pins_agree(pin, again, language):
        try:
            set_pin(store, trainee.id, pin, scope.supervisor)
        except PinRuleError as error:
            st.error(t(pin_problem(error), language))
        else:
            st.success(t("team.pin_set", language, name=escape_markdown(trainee.name)))


def _pins_agree(pin: str, again: str, language: str) -> bool:
    if not same_pin(pin, again):
        st.error(t("shell.pins_differ", language))
        return False
    return True
