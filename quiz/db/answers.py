"""Saving an answer: the attempt and the card's review schedule, both or neither.

On PostgreSQL in two round trips when nothing else writes the card's schedule meanwhile:
the schedule read, then one statement that writes the new schedule only if the stored one
is still the one read and adds the attempt only if it did (in one, with no read, for a card
the caller knows was never answered). Otherwise, and on SQLite, in a
transaction that locks the schedule while it reads it (five round trips on PostgreSQL:
BEGIN, the attempt, the read, the write, COMMIT).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from sqlalchemy import CTE, Insert, bindparam, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import BindParameter

from quiz.db import reviews
from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import attempts
from quiz.model.attempt import AttemptRecord
from quiz.training.scheduling import next_schedule

WriteGuard = Callable[[Connection], None]
"""A check run first on the connection that stores an answer (inside its transaction when it
has one); it raises to refuse the write (``quiz.access.accounts.credential_guard``: the
trainee's PIN has not changed)."""


@dataclass(frozen=True, slots=True)
class SavedAnswer:
    """A stored answer: its attempt's id, and when its card is due next (so a session's kept
    due count needs no recount: ``quiz.training.due_times.DueTimes.answered``)."""

    attempt_id: int
    next_due: datetime


def save_answer(
    store: Store, record: AttemptRecord, guard: WriteGuard | None = None, never_answered: bool = False
) -> SavedAnswer:
    """Record the attempt and review the card's schedule, both or neither (nothing when
    ``guard`` refuses).

    Right reviews the card as Good, wrong as Again, at ``record.answered_at``.

    On PostgreSQL, first in one statement after reading the schedule: it stores nothing when
    another session wrote the schedule in between, and the transaction below stores the
    answer instead. In the transaction, the schedule is read locked; when another session
    creates the same schedule row meanwhile, the unique key refuses this insert, nothing is
    kept, and the whole transaction runs once more (now as an update).

    ``never_answered``: the caller knows of no answer of the trainee to the card (Practice's
    deal), so it has no schedule to read. On PostgreSQL the statement that creates the
    schedule (unless one exists) and adds the attempt then runs without the read: one round
    trip per answer, not two. If a schedule exists after all (an answer given meanwhile in
    another tab), it stores nothing and the answer is saved as any other.
    """
    if store.one_statement_writes:
        saved = _save_in_one_statement(store, record, guard, never_answered) if never_answered else None
        saved = saved or _save_in_one_statement(store, record, guard)
        if saved is not None:
            return saved
    try:
        return _save(store, record, guard)
    except IntegrityError:
        return _save(store, record, guard)


_INSERT = insert(attempts)  # built once: made anew per answer, it cost more than running it


def record_answer(conn: Connection, record: AttemptRecord) -> SavedAnswer:
    """Within the caller's transaction: insert the attempt and review the card's schedule."""
    result = conn.execute(_INSERT, record.values())
    new = reviews.reschedule(conn, record.trainee_id, record.card_id, record.correct, record.answered_at)
    return SavedAnswer(inserted_id(result), new.due)


ATTEMPT_VALUES: dict[str, BindParameter[Any]] = {
    column.name: bindparam(f"attempt_{column.name}", type_=column.type) for column in attempts.c if column.name != "id"
}
"""Each column of an attempt as a typed parameter ``attempt_<column>``, for the statements
built once that write one (here and ``quiz.db.exams``); ``attempt_parameters`` fills them."""


def attempt_parameters(record: AttemptRecord) -> dict[str, Any]:
    """The values of ``ATTEMPT_VALUES`` for ``record``."""
    return {f"attempt_{name}": value for name, value in record.values().items()}


def _attempt_after(change: CTE) -> Insert:
    """The attempt, added once per row ``change`` yields: once if it wrote, else not at all."""
    values = select(*ATTEMPT_VALUES.values()).select_from(change)
    return insert(attempts).from_select(list(ATTEMPT_VALUES), values).returning(attempts.c.id)


# Built once, like _INSERT: the schedule moved on from the one read, or created.
_AFTER_MOVING = _attempt_after(reviews.schedule_change(existed=True))
_AFTER_CREATING = _attempt_after(reviews.schedule_change(existed=False))


def _save_in_one_statement(
    store: Store, record: AttemptRecord, guard: WriteGuard | None, unscheduled: bool = False
) -> SavedAnswer | None:
    """Read the schedule (none, unread, when ``unscheduled``), then write the attempt and the
    next schedule in one statement that writes nothing if the schedule changed since it was
    read; None then (nothing stored). No transaction: one statement is atomic on its own."""
    with store.reads.connect() as conn:
        if guard is not None:
            guard(conn)
        stored = None if unscheduled else reviews.read_schedule_json(conn, record.trainee_id, record.card_id)
        previous = reviews.parsed_schedule(stored)
        new = next_schedule(previous, record.correct, record.answered_at)
        parameters = attempt_parameters(record)
        parameters.update(reviews.schedule_values(new), where_trainee=record.trainee_id, where_card=record.card_id,
                          previous_fsrs_card=stored)
        statement = _AFTER_MOVING if stored is not None else _AFTER_CREATING
        attempt_id = conn.execute(statement, parameters).scalar_one_or_none()
    if attempt_id is None:
        return None
    return SavedAnswer(attempt_id, new.due)


def _save(store: Store, record: AttemptRecord, guard: WriteGuard | None) -> SavedAnswer:
    with store.engine.begin() as conn:
        if guard is not None:
            guard(conn)
        return record_answer(conn, record)
