"""Saving an answer: the attempt and the card's review schedule, in one transaction."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from quiz.db.reviews import reschedule
from quiz.db.store import Store, inserted_id
from quiz.db.tables import attempts
from quiz.model.attempt import AttemptRecord

WriteGuard = Callable[[Connection], None]
"""A check run first inside the transaction that stores an answer; it raises to refuse the
write (``quiz.access.accounts.credential_guard``: the trainee's PIN has not changed)."""


@dataclass(frozen=True, slots=True)
class SavedAnswer:
    """A stored answer: its attempt's id, and how it changed the trainee's count of due cards
    (``quiz.db.reviews.reschedule``), so a count kept before it needs no recount."""

    attempt_id: int
    due_change: int


def save_answer(store: Store, record: AttemptRecord, guard: WriteGuard | None = None) -> SavedAnswer:
    """Record the attempt and review the card's schedule, both or neither (nothing when
    ``guard`` refuses).

    Right reviews the card as Good, wrong as Again, at ``record.answered_at``. When another
    session creates the same schedule row meanwhile, the unique key refuses this insert,
    nothing is kept, and the whole transaction runs once more (now as an update).
    """
    try:
        return _save(store, record, guard)
    except IntegrityError:
        return _save(store, record, guard)


_INSERT = insert(attempts)  # built once: made anew per answer, it cost more than running it


def record_answer(conn: Connection, record: AttemptRecord) -> SavedAnswer:
    """Within the caller's transaction: insert the attempt and review the card's schedule."""
    result = conn.execute(_INSERT, asdict(record))
    due_change = reschedule(conn, record.trainee_id, record.card_id, record.correct, record.answered_at)
    return SavedAnswer(inserted_id(result), due_change)


def _save(store: Store, record: AttemptRecord, guard: WriteGuard | None) -> SavedAnswer:
    with store.engine.begin() as conn:
        if guard is not None:
            guard(conn)
        return record_answer(conn, record)
