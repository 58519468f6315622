"""Review schedules in the database: one row per trainee and card (table ``review_schedules``).

Reads take a ``Store``; ``reschedule`` takes an open connection, so that it shares the
transaction that records the attempt, and ``schedule_change`` is the part of the one
statement that records both on PostgreSQL (see ``quiz.db.answers``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Mapping

from sqlalchemy import CTE, bindparam, insert, select, update
from sqlalchemy.dialects.postgresql import insert as insert_or_skip
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import BindParameter

from quiz.db.exam_dates import exam_moments
from quiz.db.store import Store
from quiz.db.tables import review_schedules
from quiz.training.due_times import DueTimes
from quiz.training.exam_dates import exam_due, exam_of_cards, window_start
from quiz.training.exam_dates import planned_schedules as planned
from quiz.training.scheduling import Schedule, as_utc, next_schedule


def schedules(store: Store, trainee_id: int) -> dict[str, Schedule]:
    """Card id -> schedule, for every card the trainee has answered."""
    query = select(review_schedules.c.card_id, review_schedules.c.fsrs_card).where(
        review_schedules.c.trainee_id == trainee_id
    )
    with store.engine.connect() as conn:
        return {card_id: Schedule.from_json(text) for card_id, text in conn.execute(query)}


def schedule(store: Store, trainee_id: int, card_id: str) -> Schedule | None:
    """The trainee's schedule of one card, or None if they never answered it."""
    with store.engine.connect() as conn:
        return read_schedule(conn, trainee_id, card_id)


# Built once (the sidebar counts): building a statement cost as much as running it.
_DUE_BY = select(review_schedules.c.card_id, review_schedules.c.due).where(
    review_schedules.c.trainee_id == bindparam("trainee_id"), review_schedules.c.due <= bindparam("until")
)


_CAPPED_FROM = select(review_schedules.c.card_id, review_schedules.c.fsrs_card).where(
    review_schedules.c.trainee_id == bindparam("trainee_id"), review_schedules.c.due > bindparam("until"),
    review_schedules.c.due >= bindparam("first_exam"), review_schedules.c.last_review < bindparam("last_window"),
)


def due_times(
    store: Store, trainee_id: int, pool: Iterable[str], until: datetime, games: Mapping[str, str] | None = None,
) -> DueTimes:
    """When the cards of ``pool`` that are due at ``until`` fall due: one indexed query, no
    schedule parsed. Its ``count_at`` gives the count of due cards at any moment before ``until``.

    With ``games`` (card id -> game), a game's exam date counts too (``planned_schedules``):
    the trainee's exam dates are read, and while one is ahead, the schedules its cap may move
    before ``until`` are read and parsed as well."""
    moment = as_utc(until)
    wanted = pool if isinstance(pool, (set, frozenset)) else frozenset(pool)
    with store.reads.connect() as conn:
        rows = conn.execute(_DUE_BY, {"trainee_id": trainee_id, "until": moment}).all()
        exams = {game: exam for game, exam in exam_moments(conn, trainee_id).items()
                 if exam > moment} if games is not None else {}
        capped = conn.execute(_CAPPED_FROM, {
            "trainee_id": trainee_id, "until": moment, "first_exam": min(exams.values()),
            "last_window": max(window_start(exam) for exam in exams.values()),
        }).all() if exams else []
    dues = {card_id: due for card_id, due in rows if card_id in wanted}
    for card_id, text in capped:
        exam = exams.get(games.get(card_id, "")) if games is not None and card_id in wanted else None
        if exam is not None:
            due = exam_due(Schedule.from_json(text), exam, moment)
            if due <= moment:
                dues[card_id] = due
    return DueTimes(until, dues)


def planned_schedules(store: Store, trainee_id: int, games: Mapping[str, str], now: datetime) -> dict[str, Schedule]:
    """Card id -> schedule as review orders it: each card's due capped by its game's exam date
    (``quiz.training.exam_dates.planned_schedules``); FSRS's state itself as stored."""
    query = select(review_schedules.c.card_id, review_schedules.c.fsrs_card).where(
        review_schedules.c.trainee_id == trainee_id)
    with store.engine.connect() as conn:
        stored = {card_id: Schedule.from_json(text) for card_id, text in conn.execute(query)}
        exams = exam_moments(conn, trainee_id)
    return planned(stored, exam_of_cards(games, exams), now) if exams else stored


def due_count(store: Store, trainee_id: int, pool: Iterable[str], now: datetime) -> int:
    """How many cards of ``pool`` are due at ``now``."""
    return due_times(store, trainee_id, pool, now).count_at(now)


# Built once: a statement made anew on every answer costs SQLAlchemy more than running it.
_THE_CARD = (review_schedules.c.trainee_id == bindparam("where_trainee"),
             review_schedules.c.card_id == bindparam("where_card"))
_READ = select(review_schedules.c.fsrs_card).where(*_THE_CARD)
_READ_FOR_UPDATE = _READ.with_for_update()
_UPDATE = update(review_schedules).where(*_THE_CARD)
_INSERT = insert(review_schedules)


def read_schedule(conn: Connection, trainee_id: int, card_id: str, *, for_update: bool = False) -> Schedule | None:
    """The stored schedule, or None; ``for_update`` locks the row where the database can."""
    return parsed_schedule(read_schedule_json(conn, trainee_id, card_id, for_update=for_update))


def read_schedule_json(conn: Connection, trainee_id: int, card_id: str, *, for_update: bool = False) -> str | None:
    """The stored schedule's JSON exactly as stored, or None (see ``read_schedule``)."""
    key = {"where_trainee": trainee_id, "where_card": card_id}
    text: str | None = conn.execute(_READ_FOR_UPDATE if for_update else _READ, key).scalar_one_or_none()
    return text


def parsed_schedule(text: str | None) -> Schedule | None:
    """The schedule of a stored JSON, or None for none."""
    return Schedule.from_json(text) if text is not None else None


def schedule_values(new: Schedule) -> dict[str, object]:
    """The columns that store ``new`` (the JSON and the copies for queries)."""
    return {"fsrs_card": new.to_json(), "due": new.due, "last_review": new.last_review}


def write_schedule(conn: Connection, trainee_id: int, card_id: str, new: Schedule, *, exists: bool) -> None:
    """Store ``new`` as the card's schedule: an update when a row ``exists``, else an insert."""
    values = schedule_values(new)
    if exists:
        conn.execute(_UPDATE, {**values, "where_trainee": trainee_id, "where_card": card_id})
    else:
        conn.execute(_INSERT, {**values, "trainee_id": trainee_id, "card_id": card_id})


def schedule_change(existed: bool) -> CTE:
    """Part of one statement (a data-modifying WITH: PostgreSQL) that stores the card's new
    schedule only if the stored one is still the one read: the row updated while its JSON is
    still ``previous_fsrs_card`` (when it ``existed``), or else inserted unless one exists. It
    yields a row only when it wrote, so what the statement adds ``FROM`` it is added only
    then (``quiz.db.answers``). Parameters: ``where_trainee``, ``where_card``, the columns of
    ``schedule_values`` and ``previous_fsrs_card``."""
    table = review_schedules.c
    new: dict[str, BindParameter[Any]] = {name: bindparam(name) for name in ("fsrs_card", "due", "last_review")}
    if existed:
        change = update(review_schedules).where(*_THE_CARD, table.fsrs_card == bindparam("previous_fsrs_card"))
        change = change.values(**new)
        return change.returning(table.id).cte("moved_schedule")
    created = insert_or_skip(review_schedules).values(
        trainee_id=bindparam("where_trainee"), card_id=bindparam("where_card"), **new).on_conflict_do_nothing()
    return created.returning(table.id).cte("new_schedule")


def reschedule(conn: Connection, trainee_id: int, card_id: str, correct: bool, when: datetime) -> Schedule:
    """Review the card inside the caller's transaction: read, move on by one answer, write back;
    the schedule written (its ``due`` keeps a session's due count right: ``DueTimes.answered``)."""
    previous = read_schedule(conn, trainee_id, card_id, for_update=True)
    new = next_schedule(previous, correct, when)
    write_schedule(conn, trainee_id, card_id, new, exists=previous is not None)
    return new
