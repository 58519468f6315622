"""Saving an answer: the attempt and the card's review schedule, in one transaction."""

from __future__ import annotations

from dataclasses import asdict

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from quiz.db.reviews import reschedule
from quiz.db.store import Store, inserted_id
from quiz.db.tables import attempts
from quiz.model.attempt import AttemptRecord


def save_answer(store: Store, record: AttemptRecord) -> int:
    """Record the attempt and review the card's schedule, both or neither; the attempt's id.

    Right reviews the card as Good, wrong as Again, at ``record.answered_at``. When another
    session creates the same schedule row meanwhile, the unique key refuses this insert,
    nothing is kept, and the whole transaction runs once more (now as an update).
    """
    try:
        return _save(store, record)
    except IntegrityError:
        return _save(store, record)


_INSERT = insert(attempts)  # built once: made anew per answer, it cost more than running it


def record_answer(conn: Connection, record: AttemptRecord) -> int:
    """Within the caller's transaction: insert the attempt and review the card's schedule."""
    result = conn.execute(_INSERT, asdict(record))
    reschedule(conn, record.trainee_id, record.card_id, record.correct, record.answered_at)
    return inserted_id(result)


def _save(store: Store, record: AttemptRecord) -> int:
    with store.engine.begin() as conn:
        return record_answer(conn, record)
