"""Progress: accuracy over time and by part, game and category; leniency; mistakes."""

from __future__ import annotations

import streamlit as st

from quiz.ui import shell as shell_module
from quiz.ui.exam_widgets import exam_history
from quiz.ui.progress_panel import render_progress
from quiz.ui.readiness import render_readiness

shell = shell_module.current()
st.title(shell.t("progress.title"), anchor=False)
if shell.trainee is None:
    st.info(shell.t("practice.need_trainee"))
    st.stop()

render_progress(shell, shell.trainee)
render_readiness(shell, shell.trainee)
exam_history(shell, shell.trainee)
