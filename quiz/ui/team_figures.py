"""The Team page's figures, kept in memory per ``FiguresKey`` (``quiz.ui.scope_figures``).

They live in a module, not in the page's script: a script runs again on every rerun, and
each run of a ``st.cache_data`` decorator makes its function's key anew from its source
(``inspect.getsource``, a few per cent of the page's run).
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from quiz.content.categories import category_labels
from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report.floor_calls import most_missed, team_floor_calls, team_floor_charts, trainee_floor_table
from quiz.report.progress_findings import Spec
from quiz.report.team import card_statistics, team_overview
from quiz.report.team_findings import team_findings, team_findings_charts
from quiz.report.team_tables import card_table, overview_table
from quiz.ui.scope_figures import FiguresKey


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def team_tables(
    _store: Store, _content: Content, _scope: Scope, key: FiguresKey, zone: str,
) -> tuple[dt.datetime, pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, Spec | None]]:
    """When they were computed, the overview (raw and as shown), the per-card table, and the
    charts of findings (per trainee, and per fact across the team).

    They read every attempt of every trainee (seconds on a million answers), so they are
    computed once per period of a few minutes, or when asked, not on every rerun. They are
    ``_scope``'s, kept under its store (``FiguresKey``).
    """
    rulesets, language = key.rulesets, key.language
    overview = team_overview(_store.engine, _scope, utc_now(), rulesets)
    names = category_labels(_content, language, t("shell.knowledge", language))
    findings = team_findings(_store, _scope, rulesets)
    cards = card_table(card_statistics(_store.engine, _scope, rulesets), _content, language, findings)
    trainee_names = dict(zip(overview["trainee_id"], overview["trainee"]))
    charts = team_findings_charts(findings, trainee_names, _content, language)
    return utc_now(), overview, overview_table(overview, names, zone, findings), cards, charts


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def floor_tables(
    _store: Store, _content: Content, _scope: Scope, key: FiguresKey, _overview: pd.DataFrame,
) -> tuple[pd.DataFrame, pd.DataFrame, Spec | None] | None:
    """The floor calls of ``_scope``'s trainees: per trainee (as shown), the calls whose
    evidence is most often missed, and each trainee's findings by evidence; None when no
    trainee has answered one. Computed as ``team_tables`` is, once per period, its trainees
    named as in that period's overview (``_overview``, which the key decides: not hashed on
    every rerun)."""
    floor = team_floor_calls(_store, _scope, key.rulesets)
    if not floor.answered:
        return None
    trainee_names = dict(zip(_overview["trainee_id"], _overview["trainee"]))
    return (trainee_floor_table(floor, trainee_names), most_missed(floor.by_card, _content, key.language),
            team_floor_charts(floor, trainee_names, key.language)["evidence"])


def clear() -> None:
    """Forget every kept figure (the page's Refresh)."""
    team_tables.clear()
    floor_tables.clear()
