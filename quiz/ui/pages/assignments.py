"""Assignments (supervisor): onboarding plans for staff, who is on track, late or done, and
the completion record as PDF (``quiz.ui.assignment_views``)."""

from __future__ import annotations

import streamlit as st

from quiz.ui import assignment_views
from quiz.ui import shell as shell_module
from quiz.ui.supervisor_gate import scope_shell, supervisor_scope
from quiz.ui.time_zone import viewer_zone

shell = shell_module.current()
st.title(shell.t("assign.title"), anchor=False)
scope = supervisor_scope(shell, "assign")
if scope is None:
    st.stop()
shell = scope_shell(shell, scope)  # the cards of the scope's store, its packs included
assignment_views.supervisor_section(shell, scope, viewer_zone(shell))
