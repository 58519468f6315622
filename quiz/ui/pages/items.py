"""Card review (supervisor): the review queue, every card's item statistics, and problem reports."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from quiz.content.card_sources import card_source
from quiz.content.loader import Content
from quiz.db.problem_reports import reported_cards, reports_version
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.local_time import local_text
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report.card_review_words import card_title, chosen_words, titled
from quiz.report.item_statistics import DISCRIMINATION_METHOD, answer_pairs, distractors, item_statistics
from quiz.report.review_queue import REASONS, QueueRules, queue_table, review_queue
from quiz.ui import shell as shell_module
from quiz.ui import tables
from quiz.ui.markdown import escape_markdown
from quiz.ui.report_list import report_list
from quiz.ui.scope_figures import REFRESH_MINUTES, FiguresKey, figures_key
from quiz.ui.supervisor_gate import scope_shell, supervisor_scope
from quiz.ui.time_zone import viewer_zone

RULES = QueueRules()

shell = shell_module.current()
st.title(shell.t("items.title"), anchor=False)
scope = supervisor_scope(shell, "items")
if scope is None:
    st.stop()
shell = scope_shell(shell, scope)  # the cards of the scope's store, its packs included
st.caption(shell.t("items.intro"))
st.caption(shell.t(f"items.method_{DISCRIMINATION_METHOD}"))


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _figures(_store: Store, _content: Content, _scope: Scope, key: FiguresKey, reports: tuple[int, int, str],
             ) -> tuple[dt.datetime, pd.DataFrame, pd.DataFrame, list[str]]:
    """When they were computed, the queue as shown (``queue_table``), every card's statistics
    and the cards with problem reports (``report_list`` reads the reports a page at a time),
    of ``_scope``'s trainees (kept under its store, ``FiguresKey``).

    They read every answer (three passes, a few seconds on a million answers), so they are
    computed once per period of a few minutes, when a report is filed or resolved
    (``reports``), or when asked; the per-card-and-trainee counts (``answer_pairs``) serve
    both. A rerun only asks the database whether a report changed (``reports_version``).
    """
    rulesets = key.rulesets
    pairs = answer_pairs(_store, _scope, rulesets)
    stats = item_statistics(_store, _scope, rulesets, pairs=pairs)
    queue = review_queue(_store, _content, _scope, rulesets, RULES, stats=stats, pairs=pairs)
    reason_names = {reason: t(f"items.reason_{reason}", key.language) for reason in REASONS}
    return utc_now(), queue_table(queue, reason_names), stats, reported_cards(_store, _scope)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def _choices(_store: Store, _scope: Scope, key: FiguresKey, card_id: str) -> pd.DataFrame:
    """What ``_scope``'s trainees chose on one card (``distractors``): read once per period,
    as the figures are, not on every rerun of the card's page."""
    return distractors(_store, _scope, key.rulesets, [card_id])


def show_table(table: pd.DataFrame, name: str) -> None:
    """A table of cards: each by its title (its id last), no ``None`` shown."""
    tables.show_table(titled(table, shell.content, shell.language), lambda column: shell.t(f"items.col_{column}"),
                      shell.t("items.download"), name)


version = reports_version(shell.store)  # changes with every report filed or resolved
with st.spinner(shell.t("team.computing")):
    key = figures_key(shell, scope, utc_now())  # the figures' and the picked card's choices'
    computed_at, queue, stats, reported = _figures(shell.store, shell.content, scope, key, version)
freshness, refresh = st.columns([4, 1], vertical_alignment="center")
zone = viewer_zone(shell)
freshness.caption(shell.t("team.as_of", time=f"{local_text(computed_at, zone)} ({zone})", minutes=REFRESH_MINUTES))
if refresh.button(shell.t("team.refresh"), icon=":material/refresh:", key="items-refresh"):
    _figures.clear()
    _choices.clear()
    st.rerun()
queue_tab, cards_tab, reports_tab = st.tabs(
    [shell.t("items.tab_queue"), shell.t("items.tab_cards"), shell.t("items.tab_reports")]
)
with queue_tab:
    st.caption(shell.t("items.queue_help", near_zero=RULES.near_zero, min_answers=RULES.min_answers,
                       strong=f"{RULES.strong_accuracy:.0%}"))
    if queue.empty:
        st.info(shell.t("items.queue_empty"))
    else:
        show_table(queue, "card-review-queue")
with cards_tab:
    if stats.empty:
        st.info(shell.t("items.empty"))
    else:
        shown = stats.copy()
        for column, digits in (("difficulty", 3), ("discrimination", 3), ("median_seconds", 1)):
            shown[column] = shown[column].round(digits)
        show_table(shown, "card-statistics")
with reports_tab:
    report_list(shell, scope, zone, "items-reports", version, cards=reported)

st.divider()
choices = list(dict.fromkeys([*queue["card_id"], *stats["card_id"], *reported]))
picked = st.selectbox(shell.t("items.pick_card"), choices, index=None, placeholder=shell.t("items.pick_placeholder"),
                      format_func=lambda card_id: card_title(shell.content, card_id, shell.language), key="items-card")
if picked is None:
    st.stop()
card = shell.content.cards.get(picked)
if card is not None:
    st.subheader(escape_markdown(card.title.get(shell.language)), anchor=False)
    source = card_source(shell.content, card)
    lines = ", ".join(map(str, source.document_lines)) or "?"
    st.markdown(escape_markdown(shell.t("items.card_place", place=source.where, lines=lines)))
    if card.retired:
        st.caption(shell.t("items.card_retired"))
row = stats[stats["card_id"] == picked]
if not row.empty:
    figures = row.iloc[0]
    st.markdown(escape_markdown(shell.t(
        "items.card_statistics", answers=int(figures["answers"]), difficulty=f"{figures['difficulty']:.2f}",
        discrimination="—" if pd.isna(figures["discrimination"]) else f"{figures['discrimination']:.2f}",
        seconds=f"{figures['median_seconds']:.1f}",
    )))
    chosen = _choices(shell.store, scope, key, picked)
    if not chosen.empty:
        st.markdown(f"**{shell.t('items.distractors')}**")
        no_fix = shell.t("items.no_fix")
        chosen["chosen"] = [chosen_words(shell.content, picked, part, value or "", shell.language, no_fix)
                            for part, value in zip(chosen["part"], chosen["chosen"])]
        chosen["part"] = chosen["part"].map(lambda part: shell.t(f"items.part_{part}"))
        show_table(chosen[["part", "chosen", "count", "wrong"]], f"choices-{picked}")

st.markdown(f"**{shell.t('items.reports')}**")
report_list(shell, scope, zone, "items-card-reports", version, card_id=picked)  # a page at a time, however many
