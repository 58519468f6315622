"""Problem reports on the Card review page: one page of them at a time, filtered, and
several resolved with one note.

Whatever the table holds, a run draws a fixed handful of widgets: the page's rows are one
table (``report_page`` reads only them and counts the rest in SQL), the open ones a
multiselect. A page is kept (``st.cache_data``) until a report is filed or resolved
(``reports_version``), so a rerun asks the database nothing more. A flood of reports once
drew 16,318 elements and sent 45 MB per run.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from quiz.content.loader import Content
from quiz.db.problem_reports import (
    ReportFilter,
    Status,
    matching_reports,
    report_page,
    resolve_reports,
)
from quiz.db.store import Store
from quiz.db.tables import REPORT_TEXT_MAX
from quiz.model.errors import OutOfScopeError, ReportError
from quiz.model.local_time import local_texts
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report.card_review_words import answer_words, card_title, dashed
from quiz.ui import tables
from quiz.ui.shell import Shell
from quiz.ui.streamlit_internals.words import multiselect

STATUSES: tuple[Status, ...] = ("open", "resolved", "all")
SHOWN_COLUMNS = ("id", "card_id", "trainee", "reason", "text", "answer", "created_at", "resolved", "resolution")


@dataclass(frozen=True)
class ShownPage:
    """A page of reports as drawn: the table, the open ones' labels by id, and where it is."""

    table: pd.DataFrame
    open_labels: dict[int, str]
    total: int
    page: int  # from 0
    pages: int


def report_list(shell: Shell, scope: Scope, zone: str, key: str, version: tuple[int, int, str],
                cards: list[str] | None = None, card_id: str | None = None) -> None:
    """The reports of ``scope``'s trainees: a status filter, a card filter over ``cards`` (or
    only ``card_id``'s reports), one page, its CSV (every report the filters match, made when
    pressed) and the bulk resolve form. ``key`` sets the widgets apart; ``version`` is
    ``reports_version`` of this run."""
    status: Status = st.radio(shell.t("items.status"), STATUSES, horizontal=True, key=f"{key}-status",
                              format_func=lambda s: shell.t(f"items.status_{s}"))
    if card_id is None and cards is not None:
        card_id = st.selectbox(shell.t("items.filter_card"), cards, index=None, key=f"{key}-card",
                               placeholder=shell.t("items.every_card"),
                               format_func=lambda card: card_title(shell.content, card, shell.language))
    wanted = ReportFilter(status, card_id)
    page_key = f"{key}-page-{status}-{card_id}"  # each filter keeps its own page
    asked = int(st.session_state.get(page_key, 1)) - 1
    page = _page(shell.store, scope, str(shell.store.url), scope.store_id, wanted, asked, version, shell.language,
                 zone, shell.content, shell.content.fingerprint())
    if page.total == 0:
        st.info(shell.t("items.no_open_reports" if status == "open" else "items.no_reports_at_all"))
        return
    if page.pages > 1:
        st.session_state[page_key] = page.page + 1  # within the pages there are now
        st.number_input(shell.t("items.page"), min_value=1, max_value=page.pages, step=1, key=page_key)
    st.caption(shell.t("items.page_count", total=page.total, page=page.page + 1, pages=page.pages))
    st.dataframe(page.table, hide_index=True, width="stretch")  # text shown literally, never as markup
    tables.csv_download(shell.t("items.download"),
                        lambda: _shown(matching_reports(shell.store, scope, wanted), shell.language, zone,
                                       shell.content),
                        "problem-reports.csv", key=f"{key}-csv")
    _bulk_resolve(shell, scope, page, key)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def _page(_store: Store, _scope: Scope, url: str, store_id: int | None, wanted: ReportFilter, page: int,
          version: tuple[int, int, str], language: str, zone: str, _content: Content, fingerprint: str) -> ShownPage:
    """Page ``page`` of the reports ``wanted``, as drawn; kept under ``_scope``'s ``store_id``
    (None: every store, an admin's alone) until ``version`` (or the content) changes."""
    found = report_page(_store, _scope, wanted, page)
    open_rows = found.frame[~found.frame["resolved"].astype(bool)]
    labels = {int(row.id): f"#{row.id} · {card_title(_content, str(row.card_id), language)} · {row.trainee}"
              for row in open_rows.itertuples()}
    return ShownPage(_shown(found.frame, language, zone, _content), labels, found.total, found.page, found.pages)


def _shown(frame: pd.DataFrame, language: str, zone: str, content: Content) -> pd.DataFrame:
    """The reports as a page shows them: cards by title, reasons and answers in words, times in
    ``zone``, whether resolved in words, headers in ``language``."""
    shown = frame[list(SHOWN_COLUMNS)].copy()
    no_fix = t("items.no_fix", language)
    shown["answer"] = [answer_words(content, str(card_id), answer, language, no_fix)
                       for card_id, answer in zip(shown["card_id"], shown["answer"])]
    shown["card_id"] = [card_title(content, str(card_id), language) for card_id in shown["card_id"]]
    shown["reason"] = shown["reason"].map(lambda r: t(f"report.reason_{r}", language))
    shown["created_at"] = local_texts(shown["created_at"], zone)
    shown["resolved"] = shown["resolved"].map(lambda done: t("stores.yes", language) if done else "")
    shown = dashed(shown)
    shown.columns = [t(f"items.col_{column}", language) for column in SHOWN_COLUMNS]
    return shown


def _bulk_resolve(shell: Shell, scope: Scope, page: ShownPage, key: str) -> None:
    """Several open reports of the page resolved with one note, in one transaction."""
    if not page.open_labels:
        return
    with st.form(f"{key}-form", clear_on_submit=True, border=True):
        chosen = multiselect(shell.language, shell.t("items.bulk_pick"), list(page.open_labels),
                             format_func=page.open_labels.__getitem__, key=f"{key}-chosen")
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
