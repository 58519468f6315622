"""The Stores page's sections: join codes (a supervisor's store; an admin's pick), and, for an
admin, stores, accounts and the audit log. Widgets only: every rule is in
``quiz.access.stores``, ``quiz.access.supervisors`` and ``quiz.db.audit``."""

from __future__ import annotations

from typing import Callable, TypeVar

import pandas as pd
import streamlit as st

from quiz.access.scope import ROLES, Role, Scope, Supervisor
from quiz.access.stores import (
    CODE_DAYS,
    CODE_DAYS_MAX,
    codes_in,
    create_store,
    list_stores,
    make_join_code,
    move_trainee,
    rename_store,
    revoke_join_code,
    trainee_seen,
)
from quiz.access.supervisors import (
    PASSWORD_MAX,
    accounts,
    change_password,
    create_account,
    credential_version,
    disable_account,
    enable_account,
)
from quiz.access.throttles import LoginThrottle
from quiz.db import audit
from quiz.db.seen import Seen
from quiz.model.attempt import utc_now
from quiz.model.errors import AccountError, NameRuleError, NameTakenError
from quiz.model.local_time import local_text
from quiz.model.names import NAME_MAX
from quiz.report.audit_table import audit_table, search_rows
from quiz.report.join_qr import app_root, join_link, qr_png
from quiz.ui.markdown import escape_markdown
from quiz.ui.row_actions import act_button, leave_notice, show_notice
from quiz.ui.shell import Shell
from quiz.ui.supervisor_gate import ACCOUNT_KEY, THROTTLE_KEY, pick_store
from quiz.ui.tables import show_table

T = TypeVar("T")
STORES_PATH = "stores"  # the Stores page's url path (quiz.ui.page_table)


def join_codes_section(shell: Shell, scope: Scope, zone: str) -> None:
    """Make, list and revoke the join codes of the scope's store (every store's are listed to
    an admin who picked none; a code is made for one store)."""
    st.subheader(shell.t("stores.codes"), anchor=False)
    st.caption(shell.t("stores.codes_help", where=shell.t("shell.join_store")))
    if scope.store_id is None:
        st.info(shell.t("stores.pick_a_store", picker=shell.t("gate.store_picker")))
    else:
        with st.form("join-code-make", border=False):
            days = st.number_input(shell.t("stores.code_days"), 1, CODE_DAYS_MAX, CODE_DAYS, key="join-code-days")
            made = st.form_submit_button(shell.t("stores.make_code"), icon=":material/qr_code:", key="join-code-submit")
        if made:
            code = make_join_code(shell.store, scope.supervisor, scope.store_id, int(days))
            st.success(shell.t("stores.code_made", code=code.code, time=local_text(code.expires_at, zone)))
            share_code(shell, code.code)
    found = codes_in(shell.store, scope)
    if not found:
        st.caption(shell.t("stores.no_codes"))
        show_notice("join-codes")
        return
    now = utc_now()
    names = {info.id: info.name for info in list_stores(shell.store)}

    def status(usable: bool, revoked: bool) -> str:
        return shell.t("stores.code_usable" if usable else "stores.code_revoked" if revoked else "stores.code_expired")

    table = pd.DataFrame({
        "code": [code.code for code in found],
        "store": [names.get(code.store_id, "") for code in found],
        "expires": [local_text(code.expires_at, zone) for code in found],
        "uses": [code.uses for code in found],
        "status": [status(code.usable(now), code.revoked_at is not None) for code in found],
    })
    show_table(table, lambda column: shell.t(f"stores.col_{column}"), shell.t("stores.download"), "join-codes")
    usable = {code.code: code.seen for code in found if code.usable(now)}
    if usable:
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        left.selectbox(shell.t("stores.revoke_which"), list(usable), key="join-code-revoke-pick")

        def revoke(row: Seen) -> str:
            revoke_join_code(shell.store, scope.supervisor, row)
            return shell.t("stores.code_revoked_done", code=row.key)

        act_button(shell, right.button, shell.t("stores.revoke"), key="join-code-revoke", icon=":material/block:",
                   pick_key="join-code-revoke-pick", shown=usable, act=revoke, slot="join-codes")
        picked = st.session_state.get("join-code-revoke-pick")
        if picked in usable:
            with st.expander(shell.t("stores.share", code=picked), icon=":material/qr_code_2:"):
                share_code(shell, str(picked))
    show_notice("join-codes")


def share_code(shell: Shell, code: str) -> None:
    """A join code to pass on: its link's QR code (the app's sign-up with the code filled
    in), the code and the link, each with a copy button."""
    link = join_link(app_root(st.context.url or "", STORES_PATH), code, shell.language)
    qr, words = st.columns([1, 2])
    qr.image(qr_png(link), width=200, caption=shell.t("stores.qr_caption"))
    with words:
        st.caption(shell.t("stores.share_help", add_me=shell.t("shell.new_trainee")))
        st.code(code, language=None)
        st.code(link, language=None, wrap_lines=True)


def stores_section(shell: Shell, admin: Supervisor) -> None:
    """Every store, a new one, and a new name for one (an admin's)."""
    st.subheader(shell.t("stores.stores"), anchor=False)
    infos = list_stores(shell.store)
    if infos:
        table = pd.DataFrame({"store": [info.name for info in infos], "trainees": [info.trainees for info in infos]})
        show_table(table, lambda column: shell.t(f"stores.col_{column}"), shell.t("stores.download"), "stores")
    with st.form("store-make", clear_on_submit=True, border=False):
        st.text_input(shell.t("stores.new_store"), max_chars=NAME_MAX, key="store-new-name")
        st.form_submit_button(shell.t("stores.make_store"), icon=":material/add_business:",
                              on_click=_make_store, args=(shell, admin))
    if infos:
        labels = {info.id: info.name for info in infos}

        def rename(row: Seen) -> str:
            new = str(st.session_state.get("store-rename-name") or "")
            rename_store(shell.store, row, new, admin)
            return shell.t("stores.store_renamed", name=escape_markdown(new.strip()))

        with st.form("store-rename", clear_on_submit=True, border=False):
            st.selectbox(shell.t("stores.rename_which"), list(labels), format_func=labels.__getitem__,
                         key="store-rename-pick")
            st.text_input(shell.t("stores.rename_to"), max_chars=NAME_MAX, key="store-rename-name")
            act_button(shell, st.form_submit_button, shell.t("stores.rename"), key="store-rename-submit",
                       icon=":material/edit:", pick_key="store-rename-pick",
                       shown={info.id: info.seen for info in infos}, act=rename, slot="stores")
    show_notice("stores")


def move_trainee_section(shell: Shell, admin: Supervisor) -> None:
    """Put a trainee in another store, or in none (an admin's; recorded in the audit log)."""
    st.subheader(shell.t("stores.move"), anchor=False)
    people = shell.store.trainees(Scope(admin, None))
    infos = list_stores(shell.store)
    if not people:
        st.caption(shell.t("stores.no_trainees"))
        return
    names = {store.id: store.name for store in infos}
    by_id = {person.id: person for person in people}

    def move(row: Seen) -> str:
        move_trainee(shell.store, admin, row, st.session_state.get("trainee-move-where") or None)
        return shell.t("stores.moved", name=escape_markdown(by_id[int(row.key)].name))

    with st.form("trainee-move", clear_on_submit=True, border=False):
        labels = {person.id: f"{person.name} ({names.get(person.store_id or 0, '—')})" for person in people}
        st.selectbox(shell.t("stores.move_who"), list(labels), key="trainee-move-who", format_func=labels.__getitem__)
        st.selectbox(shell.t("stores.move_where"), [0, *names], key="trainee-move-where",
                     format_func=lambda store_id: names.get(store_id) or shell.t("stores.no_store"))
        act_button(shell, st.form_submit_button, shell.t("stores.move_button"), key="trainee-move-submit",
                   icon=":material/swap_horiz:", pick_key="trainee-move-who",
                   shown={person.id: trainee_seen(person) for person in people}, act=move, slot="trainee-move")
    show_notice("trainee-move")


def accounts_section(shell: Shell, admin: Supervisor) -> None:
    """Every account, a new one (a supervisor of one store, or an admin), and disabling one."""
    st.subheader(shell.t("stores.accounts"), anchor=False)
    listed = accounts(shell.store)
    table = pd.DataFrame({
        "account": [account.supervisor.name for account in listed],
        "role": [shell.t(f"stores.role_{account.supervisor.role}") for account in listed],
        "store": [account.store_name or shell.t("gate.every_store") for account in listed],
        "disabled": [shell.t("stores.yes") if account.disabled else "" for account in listed],
    })
    show_table(table, lambda column: shell.t(f"stores.col_{column}"), shell.t("stores.download"), "accounts")
    infos = list_stores(shell.store)
    labels = {info.id: info.name for info in infos}
    with st.form("account-make", clear_on_submit=True, border=False):
        st.text_input(shell.t("gate.name"), max_chars=NAME_MAX, key="account-new-name")
        st.text_input(shell.t("gate.password"), type="password", max_chars=PASSWORD_MAX,
                      key="account-new-password", help=shell.t("stores.password_help"))
        st.radio(shell.t("stores.role"), list(ROLES), horizontal=True, key="account-new-role",
                 format_func=lambda value: shell.t(f"stores.role_{value}"))
        st.selectbox(shell.t("stores.account_store"), list(labels), format_func=labels.__getitem__,
                     key="account-new-store")
        st.form_submit_button(shell.t("stores.make_account"), icon=":material/person_add:",
                              on_click=_make_account, args=(shell, admin))
    show_notice("account-make")
    others = {account.supervisor.id: account for account in listed if account.supervisor.id != admin.id}
    if others:
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        which = left.selectbox(shell.t("stores.disable_which"), list(others), key="account-pick",
                               format_func=lambda account_id: others[account_id].supervisor.name)
        shown = {account_id: account.seen for account_id, account in others.items()}

        def disable(row: Seen) -> str:
            disable_account(shell.store, row, admin)
            return shell.t("stores.account_disabled", name=escape_markdown(others[int(row.key)].supervisor.name))

        def enable(row: Seen) -> str:
            enable_account(shell.store, row, admin)
            return shell.t("stores.account_enabled", name=escape_markdown(others[int(row.key)].supervisor.name))

        if which is not None and others[which].disabled:
            act_button(shell, right.button, shell.t("stores.enable"), key="account-enable",
                       icon=":material/how_to_reg:", pick_key="account-pick", shown=shown, act=enable, slot="accounts")
        else:
            act_button(shell, right.button, shell.t("stores.disable"), key="account-disable",
                       icon=":material/person_off:", pick_key="account-pick", shown=shown, act=disable, slot="accounts")
    show_notice("accounts")


def audit_section(shell: Shell, scope: Scope, zone: str) -> None:
    """The audit log inside the scope (newest first), and its CSV (an admin's)."""
    st.subheader(shell.t("stores.audit"), anchor=False)
    found = audit.entries(shell.store, scope)
    if not found:
        st.caption(shell.t("stores.no_audit"))
        return
    names = {info.id: info.name for info in list_stores(shell.store)}
    table = audit_table(found, shell.language, names, zone)
    wanted = st.text_input(shell.t("stores.audit_search"), key="audit-search", icon=":material/search:",
                           help=shell.t("stores.audit_search_help"))
    shown = search_rows(table, wanted or "")
    if len(shown) != len(table):
        st.caption(shell.t("stores.audit_found", count=len(shown), total=len(table)))
    show_table(shown, lambda column: shell.t(f"stores.col_{column}"), shell.t("stores.download"), "audit-log")


def own_password(shell: Shell, supervisor: Supervisor) -> None:
    """The signed-in account's own password change: its other sessions end, this one stays."""
    with st.expander(shell.t("stores.change_password"), icon=":material/password:"):
        with st.form("own-password", clear_on_submit=True, border=False):
            current = st.text_input(shell.t("stores.current_password"), type="password", max_chars=PASSWORD_MAX,
                                    key="own-password-current")
            new = st.text_input(shell.t("stores.new_password"), type="password", max_chars=PASSWORD_MAX,
                                key="own-password-new", help=shell.t("stores.password_help"))
            pressed = st.form_submit_button(shell.t("stores.change_password"), key="own-password-submit")
        if not pressed:
            return
        session = st.session_state.setdefault(THROTTLE_KEY, LoginThrottle())
        try:
            changed = change_password(shell.store, supervisor, current or "", new or "", session)
        except AccountError:
            st.error(shell.t("stores.password_rule"))
            return
        if not changed:
            st.error(shell.t("stores.password_wrong"))
            return
        st.session_state[ACCOUNT_KEY] = (supervisor, credential_version(shell.store, supervisor.id))
        st.success(shell.t("stores.password_changed"))


def _make_store(shell: Shell, admin: Supervisor) -> None:
    """The new store's button (a callback: the sidebar's picker and the stores table, drawn
    after it, list the store, and the picker shows it, ready for its join code)."""
    name = str(st.session_state.get("store-new-name") or "")
    made = _named(shell, lambda: create_store(shell.store, name, admin), "stores.store_made", name, "stores")
    if made is not None:
        pick_store(made.id)


def _make_account(shell: Shell, admin: Supervisor) -> None:
    """The new account's button (a callback: the accounts table, drawn after it, lists it)."""
    state = st.session_state
    name, password = str(state.get("account-new-name") or ""), str(state.get("account-new-password") or "")
    role: Role = "admin" if state.get("account-new-role") == "admin" else "supervisor"
    chosen = None if role == "admin" else state.get("account-new-store")
    _named(shell, lambda: create_account(shell.store, name, password, role, chosen, admin), "stores.account_made",
           name, "account-make")


def _named(shell: Shell, act: Callable[[], T], done: str, name: str, slot: str) -> T | None:
    """Run ``act`` (which makes something named ``name``); how it went is shown by
    ``show_notice(slot)``. What it made, or None when refused."""
    try:
        made = act()
    except NameTakenError:
        leave_notice(slot, "error", shell.t("stores.name_taken"))
    except (NameRuleError, AccountError) as error:
        leave_notice(slot, "error", shell.t("stores.refused", reason=escape_markdown(str(error))))
    else:
        leave_notice(slot, "success", shell.t(done, name=escape_markdown(name.strip())))
        return made
    return None
