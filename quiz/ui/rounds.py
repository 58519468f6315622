"""A round of chosen cards on the Practice page (recent mistakes, a weak area, an exam's wrong
answers, an assignment's cards), started from any page, and the word said on Practice when
the day's goal is reached."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import streamlit as st

from quiz.db.goals import answered_today, daily_goal
from quiz.db.store import Trainee
from quiz.model.attempt import utc_now
from quiz.ui.shell import Shell, switch_page
from quiz.ui.time_zone import viewer_zone

PRACTICE_PAGE = "quiz/ui/pages/practice.py"
ROUND_KEY = "practice_round"  # the Practice page's round of chosen cards (see pages/practice.py)
ROUND_WORDS_KEY = "practice_round_words"  # (string key, the round it words) for the round's caption
TODAY_KEY = "goal_today"  # (trainee id, day, answers that day, goal, zone), counted on by this session's answers


def start_round(cards: list[str], words: tuple[str, tuple[str, ...]] | None = None) -> None:
    """A round of exactly ``cards`` on the Practice page, worded by ``words`` (a string key and
    the round it words; else "recent mistakes")."""
    st.session_state[ROUND_KEY] = list(cards)
    if words is not None:
        st.session_state[ROUND_WORDS_KEY] = words
    else:
        st.session_state.pop(ROUND_WORDS_KEY, None)
    st.session_state.pop("practice", None)
    switch_page(PRACTICE_PAGE)


def count_towards_goal(shell: Shell, trainee: Trainee) -> None:
    """After an answer on Practice: count it towards the day's goal and, the moment the goal is
    reached, say so. The day's count is read once per session and day, then counted on here
    (no query per answer); a goal changed on Progress is read again (``forget_goal``)."""
    now = utc_now()
    kept = st.session_state.get(TODAY_KEY)
    if isinstance(kept, tuple) and kept[0] == trainee.id and now.astimezone(ZoneInfo(kept[4])).date() == kept[1]:
        count, goal, zone = kept[2] + 1, kept[3], kept[4]
    else:  # the answer just given is stored: it is counted
        zone = viewer_zone(shell)
        count, goal = answered_today(shell.store, trainee.id, zone, now), daily_goal(shell.store, trainee.id)
    st.session_state[TODAY_KEY] = (trainee.id, now.astimezone(ZoneInfo(zone)).date(), count, goal, zone)
    if count == goal:
        st.toast(shell.t("practice.goal_reached", count=goal), icon=":material/celebration:")


def forget_goal() -> None:
    """The goal changed: the next answer reads it (and the day's count) again."""
    st.session_state.pop(TODAY_KEY, None)
