"""A trainee's first visit: which game they study and how many cards a day, before any card.

A Yu-Gi-Oh! candidate's first card was a Pokémon one and the daily goal began at one card.
Asked right after a trainee adds themselves (``quiz.ui.sign_in`` sets
``FIRST_VISIT_KEY``), not of trainees who already answer cards; both answers are kept in the
database (``quiz.db.study_games``, ``quiz.db.goals``) and can be changed later in the
sidebar and on Progress.
"""

from __future__ import annotations

import streamlit as st

from quiz.db.goals import DEFAULT_DAILY_GOAL, set_daily_goal
from quiz.db.study_games import keep_studied_games
from quiz.ui.shell import Shell
from quiz.ui.trainee_session import FIRST_VISIT_KEY

GOAL_CHOICES = (5, 10, 20, 30)
SUGGESTED_GOAL = DEFAULT_DAILY_GOAL  # also the goal of a trainee who skips the welcome
GAMES_KEY, GOAL_KEY, MESSAGE_KEY = "first-visit-games", "first-visit-goal", "first-visit-message"


def ask_first(shell: Shell) -> None:
    """On a signed-in trainee's first visit, ask the games and the daily goal, and stop the page
    until they answer; otherwise draw nothing."""
    if shell.trainee is None or not st.session_state.get(FIRST_VISIT_KEY):
        return
    ids = list(shell.content.rulesets)
    with st.container(border=True):
        st.subheader(shell.t("first_visit.title"), anchor=False)
        with st.form("first-visit", border=False):
            st.pills(shell.t("first_visit.games"), ids, selection_mode="multi", key=GAMES_KEY,
                     format_func=lambda rid: shell.content.rulesets[rid].document.short_name.get(shell.language))
            st.segmented_control(shell.t("first_visit.goal"), GOAL_CHOICES, default=SUGGESTED_GOAL, key=GOAL_KEY,
                                 format_func=lambda n: shell.t("first_visit.cards", count=n))
            st.caption(shell.t("first_visit.later"))
            st.form_submit_button(shell.t("first_visit.start"), type="primary", icon=":material/play_arrow:",
                                  on_click=_on_start, args=(shell, tuple(ids)))
        if st.session_state.pop(MESSAGE_KEY, None):
            st.warning(shell.t("first_visit.choose_a_game"))
    st.stop()


def _on_start(shell: Shell, ids: tuple[str, ...]) -> None:
    """Keep the trainee's games and goal (a callback: the sidebar's filter, drawn next run,
    shows the games chosen)."""
    assert shell.trainee is not None
    games = st.session_state.get(GAMES_KEY) or []
    if not games:
        st.session_state[MESSAGE_KEY] = True
        return
    kept = keep_studied_games(shell.store, shell.trainee.id, games, ids)
    set_daily_goal(shell.store, shell.trainee.id, int(st.session_state.get(GOAL_KEY) or SUGGESTED_GOAL))
    st.session_state["games"] = list(kept)
    st.session_state.pop("categories", None)
    st.session_state.pop(FIRST_VISIT_KEY, None)
