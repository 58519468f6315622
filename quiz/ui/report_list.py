"""Problem reports on the Card review page: one page of them at a time, filtered, and
several resolved with one note.

Whatever the table holds, a run reads one page of rows (``report_page``: counted in SQL) and
draws a fixed handful of widgets: the page's rows are one table, the open ones a multiselect.
A flood of reports once drew 16,318 elements and sent 45 MB per run.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from quiz.db.problem_reports import (
    ReportFilter,
    ReportPage,
    Status,
    answer_text,
    matching_reports,
    report_page,
    resolve_reports,
)
from quiz.db.tables import REPORT_TEXT_MAX
from quiz.model.errors import OutOfScopeError, ReportError
from quiz.model.local_time import local_texts
from quiz.model.scope import Scope
from quiz.ui import tables
from quiz.ui.shell import Shell

STATUSES: tuple[Status, ...] = ("open", "resolved", "all")
SHOWN_COLUMNS = ("id", "card_id", "trainee", "reason", "text", "answer", "created_at", "resolved", "resolution")


def report_list(shell: Shell, scope: Scope, zone: str, key: str, cards: list[str] | None = None,
                card_id: str | None = None) -> None:
    """The reports of ``scope``'s trainees: a status filter, a card filter over ``cards`` (or
    only ``card_id``'s reports), one page, its CSV (every report the filters match, made when
    pressed) and the bulk resolve form. ``key`` sets the widgets apart."""
    status: Status = st.radio(shell.t("items.status"), STATUSES, horizontal=True, key=f"{key}-status",
                              format_func=lambda s: shell.t(f"items.status_{s}"))
    if card_id is None and cards is not None:
        card_id = st.selectbox(shell.t("items.filter_card"), cards, index=None, key=f"{key}-card",
                               placeholder=shell.t("items.every_card"))
    wanted = ReportFilter(status, card_id)
    page_key = f"{key}-page-{status}-{card_id}"  # each filter keeps its own page
    page = report_page(shell.store, scope, wanted, int(st.session_state.get(page_key, 1)) - 1)
    if page.total == 0:
        st.info(shell.t("items.no_open_reports" if status == "open" else "items.no_reports_at_all"))
        return
    if page.pages > 1:
        st.session_state[page_key] = page.page + 1  # within the pages there are now
        st.number_input(shell.t("items.page"), min_value=1, max_value=page.pages, step=1, key=page_key)
    st.caption(shell.t("items.page_count", total=page.total, page=page.page + 1, pages=page.pages))
    _page_table(shell, page, zone)
    tables.csv_download(shell.t("items.download"), lambda: _shown(shell, matching_reports(shell.store, scope, wanted),
                                                                  zone), "problem-reports.csv", key=f"{key}-csv")
    _bulk_resolve(shell, scope, page, key)


def _shown(shell: Shell, frame: pd.DataFrame, zone: str) -> pd.DataFrame:
    """The reports as a page shows them: reasons and answers in words, times in ``zone``,
    headers in the viewer's language."""
    shown = frame[list(SHOWN_COLUMNS)].copy()
    shown["reason"] = shown["reason"].map(lambda r: shell.t(f"report.reason_{r}"))
    shown["answer"] = shown["answer"].map(answer_text)
    shown["created_at"] = local_texts(shown["created_at"], zone)
    shown.columns = [shell.t(f"items.col_{column}") for column in SHOWN_COLUMNS]
    return shown


def _page_table(shell: Shell, page: ReportPage, zone: str) -> None:
    st.dataframe(_shown(shell, page.frame, zone), hide_index=True, width="stretch")  # text shown literally


def _bulk_resolve(shell: Shell, scope: Scope, page: ReportPage, key: str) -> None:
    """Several open reports of the page resolved with one note, in one transaction."""
    open_rows = page.frame[~page.frame["resolved"].astype(bool)]
    if open_rows.empty:
        return
    labels = {int(row.id): f"#{row.id} · {row.card_id} · {row.trainee}" for row in open_rows.itertuples()}
    with st.form(f"{key}-form", clear_on_submit=True, border=True):
        chosen = st.multiselect(shell.t("items.bulk_pick"), list(labels), format_func=labels.__getitem__,
                                key=f"{key}-chosen")
        note = st.text_input(shell.t("items.resolve_note"), max_chars=REPORT_TEXT_MAX, key=f"{key}-note")
        pressed = st.form_submit_button(shell.t("items.bulk_resolve"), icon=":material/task_alt:", key=f"{key}-resolve")
    if not pressed:
        return
    if not chosen:
        st.warning(shell.t("items.bulk_none"))
        return
    try:
        resolved = resolve_reports(shell.store, scope, chosen, note or "")
    except OutOfScopeError:
        st.error(shell.t("items.bulk_out_of_scope"))
    except ReportError:
        st.error(shell.t("items.note_too_long", max=REPORT_TEXT_MAX))
    else:
        st.toast(shell.t("items.bulk_saved", count=resolved))
        st.rerun()
