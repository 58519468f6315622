"""A daily goal: a day counts in the streak only when the trainee answered that many cards
on it (their own days), on both databases."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from quiz.db.goals import DEFAULT_DAILY_GOAL, GOAL_RANGE, daily_goal, set_daily_goal
from quiz.db.time_zones import set_time_zone
from quiz.model.attempt import AttemptRecord
from quiz.model.errors import GoalError
from quiz.report import statistics
from quiz.report.progress import progress_figures
from tests.recording import record

TODAY = date(2026, 12, 1)
# answers per day, oldest first, ending today (09:00 UTC each)
COUNTS = {TODAY - timedelta(days=3): 5, TODAY - timedelta(days=2): 2, TODAY - timedelta(days=1): 6, TODAY: 5}


def answer(trainee_id: int, at: datetime) -> AttemptRecord:
    return AttemptRecord(trainee_id=trainee_id, card_id="ygo-k-caution-purpose", ruleset="yugioh-ocg", category=None,
                         card_kind="knowledge", correct=True, seconds=5.0, answered_at=at)


@pytest.fixture
def trainee_id(store) -> int:
    trainee = store.trainee("Kenta")
    for day, count in COUNTS.items():
        for n in range(count):
            record(store, answer(trainee.id, datetime(day.year, day.month, day.day, 9, n, tzinfo=UTC)))
    return trainee.id


def test_a_goal_is_kept_per_trainee_and_checked(store, trainee_id):
    assert daily_goal(store, trainee_id) == DEFAULT_DAILY_GOAL == 10  # never set: the suggested goal, not one card
    assert set_daily_goal(store, trainee_id, 5) == 5 and daily_goal(store, trainee_id) == 5
    set_daily_goal(store, trainee_id, 4)
    assert daily_goal(store, trainee_id) == 4  # changed, not added
    for wrong in (GOAL_RANGE[0] - 1, GOAL_RANGE[1] + 1):
        with pytest.raises(GoalError):
            set_daily_goal(store, trainee_id, wrong)
    assert daily_goal(store, store.trainee("Other").id) == DEFAULT_DAILY_GOAL


def test_only_days_that_meet_the_goal_count_in_the_streak(store, trainee_id):
    scope = statistics.AnswerScope(trainee_id)
    assert statistics.practice_streak(store, scope, TODAY) == statistics.Streak(current=4, longest=4)
    # 5 a day: the day with 2 breaks the run; yesterday (6) and today (5) make 2
    assert statistics.practice_streak(store, scope, TODAY, goal=5) == statistics.Streak(current=2, longest=2)
    # 6 a day: today's 5 do not reach it yet, so the run goes through yesterday
    assert statistics.practice_streak(store, scope, TODAY, goal=6) == statistics.Streak(current=1, longest=1)


def test_the_progress_figures_count_today_against_the_goal(store, trainee_id):
    set_time_zone(store, trainee_id, "UTC")
    figures = progress_figures(store, trainee_id, ("yugioh-ocg",), TODAY, "UTC", goal=5)
    assert (figures.goal, figures.answered_today) == (5, 5)
    assert figures.streak == statistics.Streak(current=2, longest=2)
