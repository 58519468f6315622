"""Progress: accuracy over time and by part, game and category; leniency; mistakes; exam dates
and the readiness forecast for them."""

from __future__ import annotations

import streamlit as st

from quiz.ui import exam_widgets
from quiz.ui import shell as shell_module
from quiz.ui.exam_date_panel import render_exam_dates
from quiz.ui.trainee_report import render_trainee_report

shell = shell_module.current()
st.title(shell.t("progress.title"), anchor=False)
trainee = shell_module.require_trainee(shell)
exam_widgets.wait_for_closed_book_exam(shell)  # a closed-book exam running: not drawn
render_trainee_report(shell, trainee)
render_exam_dates(shell, trainee)
