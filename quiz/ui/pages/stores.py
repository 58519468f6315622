"""Stores (supervisor): the store's join codes; for an admin, stores, accounts and the audit
log (``quiz.ui.store_admin``). Only admins make stores and accounts."""

from __future__ import annotations

import streamlit as st

from quiz.ui import shell as shell_module
from quiz.ui import store_admin
from quiz.ui.supervisor_gate import supervisor_scope
from quiz.ui.time_zone import viewer_zone

shell = shell_module.current()
st.title(shell.t("stores.title"), anchor=False)
scope = supervisor_scope(shell, "stores")
if scope is None:
    st.stop()
zone = viewer_zone(shell)
store_admin.own_password(shell, scope.supervisor)
store_admin.join_codes_section(shell, scope, zone)
if scope.supervisor.is_admin:
    store_admin.stores_section(shell, scope.supervisor)
    store_admin.move_trainee_section(shell, scope.supervisor)
    store_admin.accounts_section(shell, scope.supervisor)
    store_admin.audit_section(shell, scope, zone)
