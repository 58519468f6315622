"""The exam date section of Progress: a date per studied game, and the readiness forecast for
that day by the exam's blueprint (``quiz.training.exam_dates``)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pandas as pd
import streamlit as st

from quiz.content.categories import category_labels
from quiz.db import reviews as review_store
from quiz.db.exam_dates import exam_days, set_exam_day
from quiz.db.store import Trainee
from quiz.model.attempt import utc_now
from quiz.training.exam_dates import EXAM_DAY_RANGE, days_left, exam_start, game_forecast
from quiz.training.scheduling import Schedule
from quiz.ui.exam_widgets import presets
from quiz.ui.shell import Shell
from quiz.ui.time_zone import viewer_zone


def render_exam_dates(shell: Shell, trainee: Trainee, key: str = "exam-date") -> None:
    """For each game in the sidebar: its exam date, which the trainee may set or clear, and,
    while the day is ahead, the forecast of their readiness on it."""
    if not shell.rulesets:
        return
    st.subheader(shell.t("exam_date.title"), anchor=False)
    st.caption(shell.t("exam_date.help"))
    zone = viewer_zone(shell)
    today = utc_now().astimezone(ZoneInfo(zone)).date()
    kept = exam_days(shell.store, trainee.id)
    schedules = review_store.schedules(shell.store, trainee.id)
    for game in shell.rulesets:
        _game(shell, trainee, game, kept.get(game), today, zone, schedules, f"{key}-{game}")


def _game(shell: Shell, trainee: Trainee, game: str, day: dt.date | None, today: dt.date, zone: str,
          schedules: dict[str, Schedule], key: str) -> None:
    name = shell.content.rulesets[game].document.short_name.get(shell.language)
    known = tuple(shell.content.rulesets)

    def keep() -> None:
        chosen = st.session_state.get(key)
        set_exam_day(shell.store, trainee.id, game, chosen if isinstance(chosen, dt.date) else None, known)

    low, high = EXAM_DAY_RANGE
    chosen = st.date_input(shell.t("exam_date.date", game=name), value=day, min_value=min(today, day or today),
                           max_value=high, key=key, on_change=keep, format="YYYY-MM-DD",
                           help=shell.t("exam_date.date_help"))
    if not isinstance(chosen, dt.date) or chosen < low:
        return
    left = days_left(today, chosen)
    if left < 0:
        st.caption(shell.t("exam_date.passed", day=chosen.isoformat()))
        return
    preset_list, _problems = presets(shell)
    result = game_forecast(shell.content, preset_list, game, schedules, exam_start(chosen, zone))
    if result is None:
        st.caption(shell.t("exam_date.no_blueprint", game=name))
        return
    metric, note = st.columns([1, 2])
    metric.metric(shell.t("exam_date.forecast", day=chosen.isoformat()), f"{result.readiness:.0%}",
                  help=shell.t("exam_date.forecast_help"))
    note.caption(shell.t("exam_date.days_left", n=left))
    names = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
    table = pd.DataFrame({
        shell.t("exam_date.section"): [names.get(section.key, section.key) for section in result.sections],
        shell.t("exam_date.questions"): [section.questions for section in result.sections],
        shell.t("exam_date.studied"): [f"{section.studied} / {section.cards}" for section in result.sections],
        shell.t("exam_date.readiness"): [f"{section.readiness:.0%}" for section in result.sections],
    })
    st.dataframe(table, hide_index=True, width="stretch")
