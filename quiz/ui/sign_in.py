"""The trainee's corner of the sidebar: sign in with a name and PIN, add yourself, sign out.

Who is signed in lives in this browser session, and a reload signs back in with the
device's token (``quiz.ui.device_sign_in``: expiring, revocable, ended by a new PIN; never
the PIN); the URL's ``trainee`` parameter just fills in the name. Nobody sees a list of
names, and ``?trainee=NAME`` opens nothing without the PIN. A signed-in session keeps the
trainee's credential version and checks it on every run (one primary-key lookup, or on PostgreSQL the version kept in
the server's memory until a notice says it changed: ``quiz.db.watched``): when the PIN was
changed in another session, or replaced by a supervisor, this session is signed out.

Throttles (``quiz.access.accounts``): per name in the database (every server, not reset
by anything a client sends), and per browser session in its state (a courtesy only: a new
session or a client's ``clear_cache`` starts it afresh).
"""

from __future__ import annotations

import math
from dataclasses import replace

import streamlit as st

from quiz.access.accounts import (
    NameTakenError,
    NameThrottles,
    add_trainee,
    change_pin,
    credential_guard,
    credential_version,
    lift_lockout,
    lockout_of,
    name_throttles,
    set_pin,
    sign_in,
)
from quiz.access.pins import PIN_MAX, PinRuleError, same_pin
from quiz.access.stores import CODE_INPUT_MAX, leave_store, redeem, store_name
from quiz.access.throttles import LoginThrottle
from quiz.access.work_limits import claim_join_code
from quiz.db.answers import WriteGuard
from quiz.db.store import Store, Trainee
from quiz.db.time_zones import time_zone_for
from quiz.model.errors import JoinCodeError, NameRuleError
from quiz.model.local_time import local_text
from quiz.model.names import NAME_INPUT_MAX, NAME_MAX
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report.join_qr import JOIN_PARAM
from quiz.ui import device_sign_in as device
from quiz.ui.errors import database_failure_words
from quiz.ui.folds import fold
from quiz.ui.markdown import escape_markdown
from quiz.ui.streamlit_internals import client

SIGNED_IN_KEY = "trainee"  # the signed-in Trainee
FIRST_VISIT_KEY = "first_visit"  # set when a trainee has just added themselves
CREDENTIAL_KEY = "trainee_credential"  # their credential_version when they signed in (or changed the PIN)
THROTTLE_KEY = "trainee_sign_in_throttle"
PIN_FOLD, STORE_FOLD = "pin-fold", "store-fold"  # the signed-in panel's folds (quiz.ui.folds)
MESSAGE_KEY = "sign_in_message"  # (form, text key, values[, "success"/"info"]): what a form's callback left
SESSION_CEILING = 300.0
KEPT_ON_SIGN_OUT = frozenset({"language", "games", "categories", THROTTLE_KEY, device.TRIED_KEY})
NAME_PROBLEMS = {"invisible": "accounts.name_invisible", "mixed_script": "accounts.name_mixed_script"}


@st.cache_resource(show_spinner=False)
def _name_throttles() -> NameThrottles:
    """The per-name throttles. They hold no state (it is in the database), so clearing this
    cache, as any client can with ``BackMsg.clear_cache``, resets no wait and no lock-out."""
    return name_throttles()


def _session_throttle() -> LoginThrottle:
    """This browser session's throttle, shared by signing in and changing the PIN."""
    return st.session_state.setdefault(THROTTLE_KEY, LoginThrottle(ceiling=SESSION_CEILING))


def signed_in() -> Trainee | None:
    trainee = st.session_state.get(SIGNED_IN_KEY)
    return trainee if isinstance(trainee, Trainee) else None


def trainee_panel(store: Store, language: str) -> Trainee | None:
    """Draw the panel; the signed-in trainee, or None."""
    st.subheader(t("shell.trainee", language))
    trainee = resume_signed_in(store)
    if trainee is not None and not _credential_holds(store, trainee):
        _sign_out()
        st.session_state[MESSAGE_KEY] = ("sign-in", "accounts.signed_out_pin_changed", {}, "info")
        # the cookie stays: its token ended with the PIN, but still marks the device as the trainee's
        trainee = None
    device.draw_cookie_change()
    if trainee is not None:
        _signed_in_panel(store, trainee, language)
        # folds drawn once opened: every full run of every page draws this panel, and these
        # two forms (four text boxes, a store's name read) were a fifth of a practice run's calls
        for words, key, icon, form in (("shell.change_pin", PIN_FOLD, ":material/key:", _change_pin_form),
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
    return trainee is None or _credential_holds(store, trainee)


def answer_guard(store: Store) -> WriteGuard | None:
    """The PIN check of a click that stores an answer, made in the answer's own transaction
    (``quiz.access.accounts.credential_guard``); None when no trainee is signed in with a
    known credential (then ``still_signed_in`` checks)."""
    trainee = signed_in()
    if trainee is None or CREDENTIAL_KEY not in st.session_state:
        return None
    return credential_guard(store, trainee.id, st.session_state[CREDENTIAL_KEY])


def _credential_holds(store: Store, trainee: Trainee) -> bool:
    """Whether the trainee's PIN is still the one this session signed in with (or changed to)."""
    current = credential_version(store, trainee.id)
    state = st.session_state
    if CREDENTIAL_KEY not in state:  # signed in without the form (tests): this PIN from now on
        state[CREDENTIAL_KEY] = current
    return state[CREDENTIAL_KEY] == current


def _signed_in_panel(store: Store, trainee: Trainee, language: str) -> None:
    st.markdown(f":material/person: **{escape_markdown(trainee.name)}**")
    if st.button(t("shell.sign_out", language), icon=":material/logout:", key="sign-out"):
        device.forget_this_device(store)  # this device signs in again only with the PIN
        _sign_out()
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
    _show_message("sign-in", language)


def _on_sign_in(store: Store) -> None:
    """The sign-in button's callback: check the PIN, then clear it whatever the outcome."""
    state = st.session_state
    name, pin = state.get("sign-in-name", ""), state.get("sign-in-pin", "")
    state["sign-in-pin"] = ""
    try:
        result = sign_in(store, name, pin, _name_throttles(), _session_throttle(), address=client.address(),
                         device_token=st.context.cookies.get(device.COOKIE))
        if result.trainee is not None:
            _start_session(store, result.trainee, result.credential)
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
    _show_message("new-trainee", language)


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
            problem = (_pin_problem(error), {})
        except NameRuleError as error:
            problem = (NAME_PROBLEMS.get(error.rule, "shell.name_invalid"), {"max": NAME_MAX})
        except Exception as error:  # a full disk, a database down: the app's words, not Streamlit's box
            words = database_failure_words(error)
            if words is None:
                raise
            problem = (words, {})
        else:
            _start_session(store, created, credential_version(store, created.id))
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
    _show_message("join-store", language)


def _change_pin_form(store: Store, trainee: Trainee, language: str) -> None:
    with st.form("change-pin", border=False):
        st.text_input(t("shell.current_pin", language), type="password", max_chars=PIN_MAX, key="change-pin-current")
        st.text_input(t("shell.new_pin", language), type="password", max_chars=PIN_MAX,
                      help=t("shell.pin_help", language), key="change-pin-new")
        st.text_input(t("shell.pin_again", language), type="password", max_chars=PIN_MAX, key="change-pin-again")
        st.form_submit_button(t("shell.change_pin", language), key="change-pin-submit",
                              on_click=_on_change_pin, args=(store, trainee))
    _show_message("change-pin", language)


def _on_change_pin(store: Store, trainee: Trainee) -> None:
    """The change button's callback: every field is cleared whatever the outcome."""
    state = st.session_state
    current, new, again = (state.get(key, "") for key in ("change-pin-current", "change-pin-new", "change-pin-again"))
    state["change-pin-current"] = state["change-pin-new"] = state["change-pin-again"] = ""
    if not same_pin(new, again):
        state[MESSAGE_KEY] = ("change-pin", "shell.pins_differ", {})
        return
    try:
        result = change_pin(store, trainee, current, new, _name_throttles(), _session_throttle(),
                            address=client.address(), device_token=st.context.cookies.get(device.COOKIE))
    except PinRuleError as error:
        state[MESSAGE_KEY] = ("change-pin", _pin_problem(error), {})
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


def _pin_problem(error: PinRuleError) -> str:
    """The text key telling why a new PIN was refused."""
    return "accounts.pin_weak" if error.rule == "weak" else f"shell.pin_{error.rule}"


def _show_message(form: str, language: str) -> None:
    """The message a callback left for ``form`` (an error unless it says otherwise), shown once."""
    message = st.session_state.get(MESSAGE_KEY)
    if message is not None and message[0] == form:
        del st.session_state[MESSAGE_KEY]
        show = {("success",): st.success, ("info",): st.info}.get(tuple(message[3:]), st.error)
        show(t(message[1], language, **message[2]))


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
            st.error(t(_pin_problem(error), language))
        else:
            st.success(t("team.pin_set", language, name=escape_markdown(trainee.name)))


def _pins_agree(pin: str, again: str, language: str) -> bool:
    if not same_pin(pin, again):
        st.error(t("shell.pins_differ", language))
        return False
    return True


def _start_session(store: Store, trainee: Trainee, credential: str | None) -> None:
    """Forget what the previous trainee of this browser left behind, then sign in (called
    from a button's callback: the run that follows draws the signed-in app). The browser's
    time zone is kept for a trainee who has none yet, so that a supervisor's view of their
    days agrees with their own from the first answer on."""
    _sign_out()
    time_zone_for(store, trainee.id, st.context.timezone)
    st.session_state[SIGNED_IN_KEY] = trainee
    st.session_state[CREDENTIAL_KEY] = credential
    st.query_params["trainee"] = trainee.name


def _sign_out() -> None:
    for key in list(st.session_state):
        if key not in KEPT_ON_SIGN_OUT:
            del st.session_state[key]
