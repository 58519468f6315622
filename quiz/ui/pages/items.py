"""Card review (supervisor): the review queue, every card's item statistics, and problem reports."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from quiz.content.card_sources import card_source
from quiz.db.problem_reports import reports_version
from quiz.model.attempt import utc_now
from quiz.model.local_time import local_text
from quiz.report.card_review_words import chosen_words
from quiz.report.item_statistics import DISCRIMINATION_METHOD
from quiz.ui import card_review_figures as review_figures
from quiz.ui import shell as shell_module
from quiz.ui import tables
from quiz.ui.markdown import escape_markdown
from quiz.ui.report_list import report_list
from quiz.ui.scope_figures import REFRESH_MINUTES, figures_key
from quiz.ui.supervisor_gate import scope_shell, supervisor_scope
from quiz.ui.time_zone import viewer_zone

shell = shell_module.current()
st.title(shell.t("items.title"), anchor=False)
scope = supervisor_scope(shell, "items")
if scope is None:
    st.stop()
shell = scope_shell(shell, scope)  # the cards of the scope's store, its packs included
st.caption(shell.t("items.intro"))
st.caption(shell.t(f"items.method_{DISCRIMINATION_METHOD}"))


def show_table(table: pd.DataFrame, name: str) -> None:
    """A table of cards as shown (``card_review_figures``: each by its title, its id last)."""
    tables.show_table(table, lambda column: shell.t(f"items.col_{column}"), shell.t("items.download"), name)


version = reports_version(shell.store)  # changes with every report filed or resolved
with st.spinner(shell.t("team.computing")):
    key = figures_key(shell, scope, utc_now())  # the figures' and the picked card's choices'
    figures = review_figures.card_review_figures(shell.store, shell.content, scope, key, version)
stats = figures.stats
freshness, refresh = st.columns([4, 1], vertical_alignment="center")
zone = viewer_zone(shell)
freshness.caption(shell.t("team.as_of", time=f"{local_text(figures.computed_at, zone)} ({zone})",
                         minutes=REFRESH_MINUTES))
if refresh.button(shell.t("team.refresh"), icon=":material/refresh:", key="items-refresh"):
    review_figures.clear()
    st.rerun()
queue_tab, cards_tab, reports_tab = st.tabs(
    [shell.t("items.tab_queue"), shell.t("items.tab_cards"), shell.t("items.tab_reports")]
)
with queue_tab:
    rules = review_figures.RULES
    st.caption(shell.t("items.queue_help", near_zero=rules.near_zero, min_answers=rules.min_answers,
                       strong=f"{rules.strong_accuracy:.0%}"))
    if figures.queue_shown.empty:
        st.info(shell.t("items.queue_empty"))
    else:
        show_table(figures.queue_shown, "card-review-queue")
with cards_tab:
    if stats.empty:
        st.info(shell.t("items.empty"))
    else:
        show_table(figures.stats_shown, "card-statistics")
with reports_tab:
    report_list(shell, scope, zone, "items-reports", version, cards=figures.reported)

st.divider()
picked = st.selectbox(shell.t("items.pick_card"), list(figures.titles), index=None,
                      placeholder=shell.t("items.pick_placeholder"), format_func=figures.titles.__getitem__,
                      key="items-card")
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
    card_figures = row.iloc[0]
    st.markdown(escape_markdown(shell.t(
        "items.card_statistics", answers=int(card_figures["answers"]),
        difficulty=f"{card_figures['difficulty']:.2f}",
        discrimination="—" if pd.isna(card_figures["discrimination"]) else f"{card_figures['discrimination']:.2f}",
        seconds=f"{card_figures['median_seconds']:.1f}",
    )))
    chosen = review_figures.card_choices(shell.store, scope, key, picked)
    if not chosen.empty:
        st.markdown(f"**{shell.t('items.distractors')}**")
        no_fix = shell.t("items.no_fix")
        chosen["chosen"] = [chosen_words(shell.content, picked, part, value or "", shell.language, no_fix)
                            for part, value in zip(chosen["part"], chosen["chosen"])]
        chosen["part"] = chosen["part"].map(lambda part: shell.t(f"items.part_{part}"))
        show_table(chosen[["part", "chosen", "count", "wrong"]], f"choices-{picked}")

st.markdown(f"**{shell.t('items.reports')}**")
report_list(shell, scope, zone, "items-card-reports", version, card_id=picked)  # a page at a time, however many
