"""A trainee's exam dates, one per game (table ``exam_dates``): the day of the game's exam,
a calendar day in the trainee's own time zone, which review is planned for
(``quiz.training.exam_dates``)."""

from __future__ import annotations

import datetime as dt
from typing import Iterable

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from quiz.db.sql import upsert
from quiz.db.store import Store
from quiz.db.tables import exam_dates, trainee_time_zones
from quiz.model.attempt import utc_now
from quiz.model.errors import ExamDateError
from quiz.training.exam_dates import EXAM_DAY_RANGE, exam_start

DEFAULT_ZONE = "UTC"  # the zone of a trainee who has none kept (quiz.db.time_zones.DEFAULT_TIME_ZONE)


def exam_days(store: Store, trainee_id: int) -> dict[str, dt.date]:
    """Game -> the trainee's exam day in it, for every game they set one for."""
    query = select(exam_dates.c.ruleset_id, exam_dates.c.exam_day).where(exam_dates.c.trainee_id == trainee_id)
    with store.engine.connect() as conn:
        return {game: day for game, day in conn.execute(query)}


def set_exam_day(store: Store, trainee_id: int, game: str, day: dt.date | None, known: Iterable[str]) -> dt.date | None:
    """Keep ``day`` as the trainee's exam day in ``game`` (one of ``known``), or forget it
    (None); what is kept. ``ExamDateError`` for a game not offered or a day out of range."""
    if game not in set(known):
        raise ExamDateError(f"not a game offered: {game[:64]!r}")
    low, high = EXAM_DAY_RANGE
    if day is not None and not low <= day <= high:
        raise ExamDateError(f"an exam day is between {low} and {high}")
    key = (exam_dates.c.trainee_id == trainee_id, exam_dates.c.ruleset_id == game)
    with store.engine.begin() as conn:
        if day is None:
            conn.execute(delete(exam_dates).where(*key))
        else:
            upsert(conn, exam_dates, {"trainee_id": trainee_id, "ruleset_id": game},
                   {"exam_day": day, "updated_at": utc_now()})
    return day


_MOMENTS = (
    select(exam_dates.c.ruleset_id, exam_dates.c.exam_day, trainee_time_zones.c.time_zone)
    .select_from(exam_dates.outerjoin(trainee_time_zones, trainee_time_zones.c.trainee_id == exam_dates.c.trainee_id))
)


def exam_moments(conn: Connection, trainee_id: int) -> dict[str, dt.datetime]:
    """Game -> when the trainee's exam day in it begins (midnight in their kept zone, UTC if
    none), in one query on the caller's connection."""
    rows = conn.execute(_MOMENTS.where(exam_dates.c.trainee_id == trainee_id))
    return {game: exam_start(day, zone or DEFAULT_ZONE) for game, day, zone in rows}


def exam_moments_of(store: Store, trainee_id: int) -> dict[str, dt.datetime]:
    """``exam_moments`` on a connection of its own."""
    with store.engine.connect() as conn:
        return exam_moments(conn, trainee_id)
