"""The sign-in in front of the supervisor pages: an account's name and password, throttled;
the session keeps the account and is signed out when its password changes or it is disabled.

``supervisor_scope(shell, purpose)`` is the one call a page makes: the ``Scope`` the page
shows (a supervisor's store; for an admin, the store picked in the sidebar, or every store),
or None after drawing the sign-in form. Wrong passwords are held back per account in the
database (``quiz.access.supervisors``) and per browser session (a courtesy: a new session or a
client's ``BackMsg.clear_cache`` starts that one afresh).

Where the operator configures OpenID Connect (an ``[auth]`` section in the secrets, which
``st.login`` reads), the form also offers the organisation's sign-in: a browser signed in
there whose (issuer, subject) is linked to an enabled account gets that account, kept like a
password sign-in's; signing out also ends the ``st.login`` sign-in.
"""

from __future__ import annotations

import math
import os
import shlex
import time
from dataclasses import replace
from typing import Any, Mapping

import streamlit as st

from quiz.access.oidc_links import account_for_oidc
from quiz.access.scope import Scope, Supervisor
from quiz.access.stores import list_stores, store_name
from quiz.access.supervisors import (
    PASSWORD_MAX,
    PASSWORD_SECRET,
    configured_password,
    credential_version,
    has_admin,
    sign_in,
)
from quiz.access.throttles import LoginThrottle
from quiz.content.stored import store_view
from quiz.model.names import NAME_MAX
from quiz.ui import kept_values
from quiz.ui.markdown import escape_markdown
from quiz.ui.shell import Shell
from quiz.ui.streamlit_internals import client

ACCOUNT_KEY = "supervisor_account"  # (Supervisor, credential_version) of this session
THROTTLE_KEY = "supervisor_throttle"
PICK_KEY = "supervisor_store_pick"  # kept from page to page (quiz.ui.kept_values)
NOTICE_KEY = "supervisor_notice"
SESSION_CEILING = 300.0  # one browser session: the wait grows to five minutes
EVERY_STORE = 0  # the picker's value for every store (store ids start at 1)
throttle_clock = time.time  # the accounts' throttles' clock (wall time, which every server shares)


def _secrets() -> Mapping[str, Any]:
    """The Streamlit secret, or nothing when the app has no secrets file."""
    try:
        return {PASSWORD_SECRET: st.secrets.get(PASSWORD_SECRET)}
    except FileNotFoundError:
        return {}


def oidc_configured() -> bool:
    """Whether ``st.login`` is configured: the secrets have an ``[auth]`` section (False,
    without an exception, when the app has no secrets file)."""
    return st.secrets.load_if_toml_exists() and "auth" in st.secrets


def _oidc_identity() -> tuple[str, str] | None:
    """The (issuer, subject) of this browser's ``st.login`` sign-in, or None."""
    if not oidc_configured() or not st.user.get("is_logged_in"):
        return None
    issuer, sub = st.user.get("iss"), st.user.get("sub")
    if not isinstance(issuer, str) or not isinstance(sub, str) or not issuer or not sub:
        return None
    return issuer, sub


def _oidc_account(shell: Shell) -> tuple[Supervisor, str] | None:
    """The enabled account linked to this browser's ``st.login`` subject, with its credential."""
    identity = _oidc_identity()
    supervisor = account_for_oidc(shell.store, *identity) if identity is not None else None
    credential = credential_version(shell.store, supervisor.id) if supervisor is not None else None
    return (supervisor, credential) if supervisor is not None and credential is not None else None


def shared_password() -> str | None:
    """The old shared password, when the deployment still sets one (it bootstraps the first admin)."""
    return configured_password(os.environ, _secrets())


def signed_in_supervisor(shell: Shell) -> Supervisor | None:
    """This session's account, or None; a session whose account's password changed, or which
    was disabled, since it signed in is signed out here (one primary-key query per run)."""
    kept = st.session_state.get(ACCOUNT_KEY)
    if kept is None:
        kept = _oidc_account(shell)
        if kept is None:
            return None
        st.session_state[ACCOUNT_KEY] = kept
    supervisor, credential = kept
    if credential_version(shell.store, supervisor.id) != credential:
        sign_out()
        st.session_state[NOTICE_KEY] = "gate.signed_out_changed"
        return None
    return supervisor


def sign_out() -> None:
    """Forget the account; a ``st.login`` sign-in ends too (else it would sign in again), by
    sending the browser to the provider's sign-out, so this run stops there (a rerun would
    drop that redirect)."""
    st.session_state.pop(ACCOUNT_KEY, None)
    kept_values.forget(PICK_KEY)
    if _oidc_identity() is not None:
        st.logout()
        st.stop()


def scope_shell(shell: Shell, scope: Scope) -> Shell:
    """The shell a supervisor's page reports with: its cards are every card for an admin's
    every-store scope, else what the scope's store's trainees are dealt (its own packs, no
    other store's), whatever the supervisor's own trainee sign-in would deal them."""
    full = shell.sidebar.content()
    return replace(shell, content=full if scope.every_store else store_view(full, scope.store_id))


def supervisor_scope(shell: Shell, purpose: str = "team") -> Scope | None:
    """The scope this page shows once an account signed in; otherwise draw the sign-in form,
    with ``purpose``'s explanation (``team``, ``items``, ``content`` or ``stores``), and None."""
    supervisor = signed_in_supervisor(shell)
    if supervisor is None:
        _sign_in_form(shell, purpose)
        return None
    _account_bar(shell, supervisor)
    return _picked_scope(shell, supervisor)


def _account_bar(shell: Shell, supervisor: Supervisor) -> None:
    """Who is signed in, and the button that signs out."""
    where = shell.t("gate.every_store") if supervisor.is_admin else store_name(shell.store, supervisor.store_id)
    who, button = st.columns([4, 1], vertical_alignment="center")
    who.caption(shell.t("gate.signed_in_as", name=escape_markdown(supervisor.name),
                        store=escape_markdown(where or "")))
    if button.button(shell.t("gate.sign_out"), icon=":material/logout:", key="supervisor-sign-out"):
        sign_out()
        st.rerun()


def _picked_scope(shell: Shell, supervisor: Supervisor) -> Scope:
    """A supervisor's own store; an admin's pick from the sidebar (every store, or one), kept
    from page to page (Streamlit forgets a widget's value on a page that draws it anew). The
    pick is checked by ``Supervisor.scope``: a value the browser sends reaches no other store."""
    if not supervisor.is_admin:
        return supervisor.scope()
    names = {info.id: info.name for info in list_stores(shell.store)}
    picked = st.sidebar.selectbox(
        shell.t("gate.store_picker"), [EVERY_STORE, *names],
        format_func=lambda store_id: names.get(store_id, shell.t("gate.every_store")),
        **kept_values.kept_widget(PICK_KEY, EVERY_STORE, lambda store_id: store_id in names))
    return supervisor.scope(picked if picked in names else None)


def pick_store(store_id: int) -> None:
    """Show ``store_id`` (an admin's pick, checked against the stores when drawn) from the next
    run on: the sidebar's picker is drawn with it."""
    kept_values.keep(PICK_KEY, store_id)


def _sign_in_form(shell: Shell, purpose: str) -> None:
    notice = st.session_state.pop(NOTICE_KEY, None)
    if notice:
        st.info(shell.t(notice))
    shared = shared_password()
    any_admin = has_admin(shell.store)
    if not any_admin and shared is None:
        st.info(shell.t("gate.no_accounts"))
        return
    st.caption(shell.t(f"{purpose}.locked"))
    if shared is not None:
        st.caption(shell.t("gate.shared_retired" if any_admin else "gate.bootstrap"))
    if oidc_configured():
        _oidc_sign_in(shell)
    with st.form("supervisor-login", clear_on_submit=True):
        st.markdown(f"**{shell.t('gate.form_title')}**")
        st.caption(shell.t("gate.form_help"))
        name = st.text_input(shell.t("gate.name"), max_chars=NAME_MAX, key="supervisor-name")
        password = st.text_input(shell.t("gate.password"), type="password", max_chars=PASSWORD_MAX,
                                 key="supervisor-password")
        pressed = st.form_submit_button(shell.t("gate.sign_in"), type="primary", key="supervisor-sign-in")
    st.caption(shell.t("gate.no_account"))
    if not pressed:
        return
    session = st.session_state.setdefault(THROTTLE_KEY, LoginThrottle(ceiling=SESSION_CEILING))
    result = sign_in(shell.store, name or "", password or "", session, bootstrap=shared, clock=throttle_clock,
                     address=client.address())
    if result.supervisor is not None:
        st.session_state[ACCOUNT_KEY] = (result.supervisor, result.credential)
        st.rerun()
    if result.too_long:
        st.error(shell.t("accounts.password_too_long", max=PASSWORD_MAX))
    elif result.shared_password:
        st.error(shell.t("gate.shared_refused"))
    else:
        seconds = math.ceil(result.retry_after)
        st.error(shell.t("team.throttled" if result.throttled else "gate.wrong", seconds=seconds))


def _oidc_sign_in(shell: Shell) -> None:
    """The organisation's sign-in button; once signed in there with a subject no enabled
    account is linked to, what to give an admin, and a button to sign out there."""
    identity = _oidc_identity()
    if identity is None:
        if st.button(shell.t("gate.oidc_sign_in"), icon=":material/badge:", key="supervisor-oidc-sign-in"):
            st.login()
        return
    issuer, sub = identity
    st.warning(shell.t("gate.oidc_unlinked", subject=escape_markdown(sub), issuer=escape_markdown(issuer)))
    st.code(f"python -m quiz accounts link --name NAME --issuer {shlex.quote(issuer)} --subject {shlex.quote(sub)}",
            language=None)  # the exact values, to copy: literal text, never Markdown
    if st.button(shell.t("gate.oidc_sign_out"), key="supervisor-oidc-sign-out"):
        st.logout()
