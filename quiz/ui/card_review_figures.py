"""The Card review page's figures, kept in memory per ``FiguresKey`` (``quiz.ui.scope_figures``),
with the tables as shown: titling ten thousand rows and formatting their figures on every
rerun was a third of the page's run, and they change only with the figures.

They live in a module, not in the page's script: a script runs again on every rerun, and
each run of a ``st.cache_data`` decorator makes its function's key anew from its source.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from quiz.content.loader import Content
from quiz.db.problem_reports import reported_cards
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report.card_review_words import card_title, titled
from quiz.report.item_statistics import answer_pairs, distractors, item_statistics
from quiz.report.review_queue import REASONS, QueueRules, queue_table, review_queue
from quiz.ui.scope_figures import FiguresKey

RULES = QueueRules()
ROUNDED = (("difficulty", 3), ("discrimination", 3), ("median_seconds", 1))  # the statistics' digits shown


@dataclass(frozen=True)
class CardReviewFigures:
    """A scope's figures: when computed, every card's statistics (``stats``), the queue and
    the statistics as shown (titled, rounded), the cards with problem reports, and every card
    the page offers to pick (queued, answered or reported) with its title."""

    computed_at: dt.datetime
    stats: pd.DataFrame
    queue_shown: pd.DataFrame
    stats_shown: pd.DataFrame
    reported: list[str]
    titles: dict[str, str]


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def card_review_figures(_store: Store, _content: Content, _scope: Scope, key: FiguresKey,
                        reports: tuple[int, int, str]) -> CardReviewFigures:
    """The figures of ``_scope``'s trainees (kept under its store, ``FiguresKey``).

    They read every answer (three passes, a few seconds on a million answers), so they are
    computed once per period of a few minutes, when a report is filed or resolved
    (``reports``), or when asked; the per-card-and-trainee counts (``answer_pairs``) serve
    both. A rerun only asks the database whether a report changed (``reports_version``).
    """
    rulesets, language = key.rulesets, key.language
    pairs = answer_pairs(_store, _scope, rulesets)
    stats = item_statistics(_store, _scope, rulesets, pairs=pairs)
    queue = review_queue(_store, _content, _scope, rulesets, RULES, stats=stats, pairs=pairs)
    reason_names = {reason: t(f"items.reason_{reason}", language) for reason in REASONS}
    rounded = stats.copy()
    for column, digits in ROUNDED:
        rounded[column] = rounded[column].round(digits)
    reported = reported_cards(_store, _scope)
    picked_from = dict.fromkeys([*queue["card_id"], *stats["card_id"], *reported])
    return CardReviewFigures(
        utc_now(), stats, titled(queue_table(queue, reason_names), _content, language),
        titled(rounded, _content, language), reported,
        {card_id: card_title(_content, card_id, language) for card_id in picked_from},
    )


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def card_choices(_store: Store, _scope: Scope, key: FiguresKey, card_id: str) -> pd.DataFrame:
    """What ``_scope``'s trainees chose on one card (``distractors``): read once per period,
    as the figures are, not on every rerun of the card's page."""
    return distractors(_store, _scope, key.rulesets, [card_id])


def clear() -> None:
    """Forget every kept figure (the page's Refresh)."""
    card_review_figures.clear()
    card_choices.clear()
