"""A trainee's daily goal: how many cards they mean to answer each day (table ``trainee_goals``).

A day counts in the streak only when the goal was met that day (in the trainee's own time
zone). A trainee who never set one (who skipped the welcome) has the welcome's suggested
goal, ten cards: a goal of one card made "goal reached" of every day with an answer.
"""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from quiz.db.store import Store
from quiz.db.tables import attempts, trainee_goals
from quiz.db.trainee_settings import TraineeSetting
from quiz.model.errors import GoalError

DEFAULT_DAILY_GOAL = 10  # the welcome suggests it too (quiz.ui.first_visit)
GOAL_RANGE = (1, 200)
GOAL = TraineeSetting(trainee_goals.c.cards_per_day, default=DEFAULT_DAILY_GOAL)


def daily_goal(store: Store, trainee_id: int) -> int:
    """The trainee's cards per day (``DEFAULT_DAILY_GOAL`` until they set one)."""
    return int(GOAL.read(store, trainee_id))


def set_daily_goal(store: Store, trainee_id: int, cards_per_day: int) -> int:
    """Keep the trainee's goal; ``GoalError`` outside ``GOAL_RANGE``."""
    low, high = GOAL_RANGE
    if not low <= cards_per_day <= high:
        raise GoalError(f"a daily goal is {low} to {high} cards")
    GOAL.write(store, trainee_id, cards_per_day)
    return cards_per_day


def answered_today(store: Store, trainee_id: int, zone: str, now: datetime) -> int:
    """The trainee's answers since the start of ``now``'s day in ``zone`` (their own day)."""
    midnight = datetime.combine(now.astimezone(ZoneInfo(zone)).date(), time(), tzinfo=ZoneInfo(zone))
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).where(
            attempts.c.trainee_id == trainee_id, attempts.c.answered_at >= midnight)).scalar_one())
