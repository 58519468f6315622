"""Spaced review in the core: one FSRS schedule per trainee and card, and what follows from it.

A schedule is an ``fsrs.Card``: when the card is due next and how well it is remembered.
Every answer reviews the whole card: right is ``Rating.Good``, wrong is ``Rating.Again``.
Everything here is pure; ``now`` and ``when`` are passed in, so tests fix the clock.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Iterable, Mapping, TypeAlias

from fsrs import Card, Rating, Scheduler, State

if TYPE_CHECKING:  # pandas is imported where a table is built: the practice page never needs it
    import pandas as pd

Schedule: TypeAlias = Card
"""A card's FSRS state for one trainee (``due``, ``last_review``, stability, difficulty)."""

SCHEDULER = Scheduler(learning_steps=(timedelta(minutes=10),), enable_fuzzing=False)
"""FSRS with its default weights and 90 % desired retention.

One learning step: a new card answered wrong comes back in ten minutes, one answered right
moves straight to days. No fuzzing, so the same answers always give the same schedule.
"""

FSRS_CARD_ID = 0  # the table keys a schedule by trainee and card; fsrs's own id is unused
READINESS_COLUMNS = ["category_key", "cards", "readiness"]
WAIT_UNITS: tuple[tuple[str, timedelta], ...] = (
    ("days", timedelta(days=1)),
    ("hours", timedelta(hours=1)),
    ("minutes", timedelta(minutes=1)),
)


def rating_for(correct: bool) -> Rating:
    """The FSRS rating of a whole answer: Good when right, Again when wrong."""
    return Rating.Good if correct else Rating.Again


def next_schedule(schedule: Schedule | None, correct: bool, when: datetime) -> Schedule:
    """The schedule after answering the card at ``when`` (a new one when ``schedule`` is None).

    ``when`` must be timezone-aware; the schedule given is left unchanged.
    """
    moment = as_utc(when)
    card = schedule if schedule is not None else Card(card_id=FSRS_CARD_ID, due=moment)
    reviewed, _log = SCHEDULER.review_card(card, rating_for(correct), review_datetime=moment)
    return reviewed


def retrievability(schedule: Schedule, now: datetime) -> float:
    """The predicted chance (0 to 1) of answering the card right at ``now``."""
    return float(SCHEDULER.get_card_retrievability(schedule, as_utc(now)))


def due_first(schedules: Mapping[str, Schedule], pool: Iterable[str], now: datetime) -> list[str]:
    """The cards of ``pool`` due at ``now``, most overdue first (ties by card id)."""
    moment = as_utc(now)
    due = [(schedules[card].due, card) for card in dict.fromkeys(pool) if card in schedules]
    return [card for when, card in sorted(due) if when <= moment]


def new_cards(schedules: Mapping[str, Schedule], pool: Iterable[str]) -> list[str]:
    """Cards of ``pool`` never answered (no schedule yet), in pool order."""
    return [card for card in dict.fromkeys(pool) if card not in schedules]


def next_card(
    schedules: Mapping[str, Schedule], pool: Iterable[str], now: datetime, new_from: random.Random | None = None
) -> str | None:
    """The card to serve: the most overdue of ``pool``; else, when ``new_from`` is given
    (the trainee asked for new cards), one never answered, drawn with it; else None."""
    due = due_first(schedules, pool, now)
    if due:
        return due[0]
    fresh = new_cards(schedules, pool)
    return new_from.choice(fresh) if new_from is not None and fresh else None


def next_due_at(schedules: Mapping[str, Schedule], pool: Iterable[str]) -> datetime | None:
    """When the first card of ``pool`` is due (perhaps already past); None if none is scheduled."""
    dues = [schedules[card].due for card in pool if card in schedules]
    return min(dues) if dues else None


def wait(until: datetime, now: datetime) -> tuple[int, str]:
    """How long from ``now`` until ``until``, as (count, unit) with unit days, hours or minutes.

    The unit is the largest that fits at least once; the count is rounded to the nearest
    whole one, and never below one (anything under a minute is one minute).
    """
    left = max(as_utc(until) - as_utc(now), timedelta(0))
    for unit, size in WAIT_UNITS:
        if left >= size:
            return math.floor(left / size + 0.5), unit
    return 1, "minutes"


def last_answer_wrong(schedule: Schedule) -> bool:
    """Whether the card's last answer was wrong and no right one has followed.

    With one learning step, a wrong answer puts a card in (re)learning and a right one moves
    it to review, so the state says it.
    """
    return schedule.state in (State.Learning, State.Relearning)


def readiness_chance(schedule: Schedule, now: datetime) -> float:
    """A card's share of readiness: its predicted chance at ``now``, or 0 while its last answer
    stays wrong (fsrs counts whole days, so a card forgotten today would otherwise look fresh)."""
    return 0.0 if last_answer_wrong(schedule) else retrievability(schedule, now)


def readiness(schedules: Mapping[str, Schedule], categories: Mapping[str, str], now: datetime) -> pd.DataFrame:
    """Per category: ``category_key, cards, readiness``, weakest first.

    ``categories`` maps card id -> category key and decides which cards count; ``readiness``
    is the mean over the category's answered cards of ``readiness_chance`` at ``now``: the
    predicted chance of a right answer, 0 for a card whose last answer was wrong. Cards never
    answered have no schedule and are not counted.
    """
    import pandas as pd

    rows = [
        (categories[card], readiness_chance(schedule, now))
        for card, schedule in schedules.items()
        if card in categories and schedule.last_review is not None
    ]
    frame = pd.DataFrame(rows, columns=["category_key", "chance"])
    grouped = frame.groupby("category_key")["chance"]
    table = pd.DataFrame({"cards": grouped.size().astype("int64"), "readiness": grouped.mean().astype("float64")})
    table = table.reset_index()[READINESS_COLUMNS]
    return table.sort_values(["readiness", "category_key"], kind="stable", ignore_index=True)


def as_utc(moment: datetime) -> datetime:
    """The same instant in UTC (fsrs insists on ``timezone.utc``); naive datetimes are refused."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a naive datetime has no place in a schedule: {moment!r}")
    return moment.astimezone(UTC)
