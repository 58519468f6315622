"""Progress: accuracy over time and by part, game and category; leniency; mistakes."""

from __future__ import annotations

import streamlit as st

from quiz.ui import shell as shell_module
from quiz.ui.trainee_report import render_trainee_report

shell = shell_module.current()
st.title(shell.t("progress.title"), anchor=False)
render_trainee_report(shell, shell_module.require_trainee(shell))
