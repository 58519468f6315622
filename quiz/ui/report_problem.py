""""Report a problem with this card": a small form shown with the feedback of an answer.

The report is stored with what the trainee saw and answered (``quiz.db.problem_reports``);
the trainee is told it was received. A report never changes a grade.
"""

from __future__ import annotations

import streamlit as st

from quiz.db.problem_reports import REASONS, file_report
from quiz.db.tables import REPORT_TEXT_MAX
from quiz.model.attempt import AttemptRecord
from quiz.model.cards import AnyCard
from quiz.model.errors import ReportError, ReportLimitError
from quiz.ui.folds import answer_key, fold
from quiz.ui.shell import Shell

LIMIT_MESSAGES = {"open": "report.already_open", "rate": "report.too_many", "daily": "report.too_many_today",
                  "store": "report.too_many_store"}
SENT_KEY = "problem_reports_sent"  # the form keys of this session's reports: each answer is reported once


def report_key(card: AnyCard, record: AttemptRecord) -> str:
    """The form's key: one per answer (``folds.answer_key``)."""
    return f"report-{answer_key(card, record)}"


def report_problem(shell: Shell, card: AnyCard, record: AttemptRecord, key: str | None = None) -> None:
    """An expander with the report form for the answer ``record`` to ``card``, drawn once the
    expander is opened (opening it reruns the page, or the card's fragment); once sent, it
    says the report was received. ``key`` (default ``report_key``) must be stable across reruns."""
    key = key or report_key(card, record)
    sent = st.session_state.setdefault(SENT_KEY, set())
    box = fold(shell.t("report.title"), key, icon=":material/flag:")
    if box is None:  # drawn when opened: not on every answer's run (under load, each widget is server time)
        return
    with box:
        if key in sent:
            st.success(shell.t("report.received"))
            return
        st.caption(shell.t("report.help"))
        with st.form(key, clear_on_submit=True, border=False):
            reason = st.radio(shell.t("report.reason"), REASONS, format_func=lambda r: shell.t(f"report.reason_{r}"),
                              key=f"{key}-reason")
            text = st.text_area(shell.t("report.text"), max_chars=REPORT_TEXT_MAX, key=f"{key}-text",
                                help=shell.t("report.text_help", max=REPORT_TEXT_MAX))
            pressed = st.form_submit_button(shell.t("report.send"), icon=":material/send:")
        if not pressed:
            return
        try:
            file_report(shell.store, record, str(reason), text or "")
        except ReportLimitError as refused:  # kept in the database: a new session is refused alike
            st.warning(shell.t(LIMIT_MESSAGES[refused.rule]), icon=":material/hourglass_top:")
            return
        except ReportError:
            st.error(shell.t("report.too_long", max=REPORT_TEXT_MAX))
            return
        sent.add(key)
        st.success(shell.t("report.received"))
