"""Saving an answer: the attempt and the card's review schedule, both or neither; and an exam's
answer, replaced or added while its exam's row is held. One write path per database, chosen
in one place (``answer_writes``):

- ``StatementWrites`` (PostgreSQL): a practice answer in two round trips, the schedule read,
  then one statement that writes the new schedule only if the stored one is still the one
  read and adds the attempt only if it did (read again and written again when another
  session moved the schedule in between; with no read for a card the caller knows was never
  answered); an exam's answer in one statement that replaces or adds it and notifies.
- ``TransactionWrites`` (SQLite): a practice answer in a transaction that locks the schedule
  while it reads it (SQLite's write lock is the database's); an exam's answer replaced, or
  else added, then the notice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Protocol

from sqlalchemy import CTE, Insert, Select, bindparam, exists, func, insert, select, update
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


class AnswerWrites(Protocol):
    """How one database writes answers (``answer_writes`` picks it)."""

    def save(self, store: Store, record: AttemptRecord, guard: WriteGuard | None,
             never_answered: bool) -> SavedAnswer:
        """Record the attempt and review the card's schedule, both or neither."""

    def exam_answer(self, store: Store, conn: Connection, exam_id: int, record: AttemptRecord, channel: str) -> None:
        """Within the transaction that holds the exam's row: replace the question's stored
        answer with ``record``, or add it, and notify ``channel`` (by exam id) at the commit."""


def save_answer(
    store: Store, record: AttemptRecord, guard: WriteGuard | None = None, never_answered: bool = False
) -> SavedAnswer:
    """Record the attempt and review the card's schedule, both or neither (nothing when
    ``guard`` refuses). Right reviews the card as Good, wrong as Again, at ``record.answered_at``.

    ``never_answered``: the caller knows of no answer of the trainee to the card (Practice's
    deal), so it has no schedule to read. On PostgreSQL the statement that creates the
    schedule (unless one exists) and adds the attempt then runs without the read: one round
    trip per answer, not two. If a schedule exists after all (an answer given meanwhile in
    another tab), it stores nothing and the answer is saved as any other.
    """
    return answer_writes(store).save(store, record, guard, never_answered)


def answer_writes(store: Store) -> AnswerWrites:
    """The one place the write path is chosen: by the store's database."""
    return STATEMENT_WRITES if store.one_statement_writes else TRANSACTION_WRITES


_INSERT = insert(attempts)  # built once: made anew per answer, it cost more than running it

_ATTEMPT_VALUES: dict[str, BindParameter[Any]] = {
    column.name: bindparam(f"attempt_{column.name}", type_=column.type) for column in attempts.c if column.name != "id"
}
"""Each column of an attempt as a typed parameter ``attempt_<column>``, for the statements
built once that write one; ``_attempt_parameters`` fills them."""


def _attempt_parameters(record: AttemptRecord) -> dict[str, Any]:
    """The values of ``_ATTEMPT_VALUES`` for ``record``."""
    return {f"attempt_{name}": value for name, value in record.values().items()}


def _attempt_after(change: CTE) -> Insert:
    """The attempt, added once per row ``change`` yields: once if it wrote, else not at all."""
    values = select(*_ATTEMPT_VALUES.values()).select_from(change)
    return insert(attempts).from_select(list(_ATTEMPT_VALUES), values).returning(attempts.c.id)


# Built once, like _INSERT: the schedule moved on from the one read, or created.
_AFTER_MOVING = _attempt_after(reviews.schedule_change(existed=True))
_AFTER_CREATING = _attempt_after(reviews.schedule_change(existed=False))

# An exam question's answer replaced, or else added. Parameters: ``question_exam``,
# ``question_card`` and those of ``_ATTEMPT_VALUES``.
_THE_QUESTION = (attempts.c.exam_id == bindparam("question_exam"), attempts.c.card_id == bindparam("question_card"))
_REPLACE_ANSWER = update(attempts).where(*_THE_QUESTION).values(_ATTEMPT_VALUES)
_ADD_ANSWER = insert(attempts).values(_ATTEMPT_VALUES)


def _answer_written_and_told() -> Select[Any]:
    """One statement (a data-modifying WITH: PostgreSQL) for the three of
    ``TransactionWrites.exam_answer``: the answer replaced, or else added, and the notice; also
    parameters ``channel`` and ``payload``."""
    replaced = _REPLACE_ANSWER.returning(attempts.c.id).cte("replaced_answer")
    unless_replaced = select(*_ATTEMPT_VALUES.values()).where(~exists(select(replaced.c.id)))
    added = insert(attempts).from_select(list(_ATTEMPT_VALUES), unless_replaced).returning(attempts.c.id)
    return select(func.pg_notify(bindparam("channel"), bindparam("payload"))).add_cte(
        replaced, added.cte("added_answer"))


_ANSWER_WRITTEN_AND_TOLD = _answer_written_and_told()


def _question_parameters(exam_id: int, record: AttemptRecord) -> dict[str, Any]:
    parameters = _attempt_parameters(record)
    parameters.update(question_exam=exam_id, question_card=record.card_id)
    return parameters


class StatementWrites:
    """PostgreSQL's writes: one statement each, no transaction (one statement is atomic)."""

    def save(self, store: Store, record: AttemptRecord, guard: WriteGuard | None,
             never_answered: bool) -> SavedAnswer:
        saved = self._once(store, record, guard, unscheduled=True) if never_answered else None
        while saved is None:  # another session moved the schedule between the read and the write
            saved = self._once(store, record, guard)
        return saved

    @staticmethod
    def _once(store: Store, record: AttemptRecord, guard: WriteGuard | None,
              unscheduled: bool = False) -> SavedAnswer | None:
        """Read the schedule (none, unread, when ``unscheduled``), then write the attempt and
        the next schedule in one statement that writes nothing if the schedule changed since
        it was read; None then (nothing stored)."""
        with store.reads.connect() as conn:
            if guard is not None:
                guard(conn)
            stored = None if unscheduled else reviews.read_schedule_json(conn, record.trainee_id, record.card_id)
            previous = reviews.parsed_schedule(stored)
            new = next_schedule(previous, record.correct, record.answered_at)
            parameters = _attempt_parameters(record)
            parameters.update(reviews.schedule_values(new), where_trainee=record.trainee_id,
                              where_card=record.card_id, previous_fsrs_card=stored)
            statement = _AFTER_MOVING if stored is not None else _AFTER_CREATING
            attempt_id = conn.execute(statement, parameters).scalar_one_or_none()
        return None if attempt_id is None else SavedAnswer(attempt_id, new.due)

    def exam_answer(self, store: Store, conn: Connection, exam_id: int, record: AttemptRecord, channel: str) -> None:
        parameters = _question_parameters(exam_id, record)
        parameters.update(channel=channel, payload=store.watches.payload(exam_id))
        conn.execute(_ANSWER_WRITTEN_AND_TOLD, parameters)


class TransactionWrites:
    """SQLite's writes: a transaction each (its first write takes the database's lock)."""

    def save(self, store: Store, record: AttemptRecord, guard: WriteGuard | None,
             never_answered: bool) -> SavedAnswer:
        """When another session creates the same schedule row meanwhile, the unique key
        refuses this insert, nothing is kept, and the transaction runs once more (an update)."""
        try:
            return self._once(store, record, guard)
        except IntegrityError:
            return self._once(store, record, guard)

    @staticmethod
    def _once(store: Store, record: AttemptRecord, guard: WriteGuard | None) -> SavedAnswer:
        with store.watches.own_writes() as conn:  # an answer changes no kept value; an exam's says so
            if guard is not None:
                guard(conn)
            result = conn.execute(_INSERT, record.values())
            new = reviews.reschedule(conn, record.trainee_id, record.card_id, record.correct, record.answered_at)
        return SavedAnswer(inserted_id(result), new.due)

    def exam_answer(self, store: Store, conn: Connection, exam_id: int, record: AttemptRecord, channel: str) -> None:
        parameters = _question_parameters(exam_id, record)
        if not conn.execute(_REPLACE_ANSWER, parameters).rowcount:
            conn.execute(_ADD_ANSWER, parameters)
        store.watches.notify(conn, channel, exam_id)


STATEMENT_WRITES = StatementWrites()
TRANSACTION_WRITES = TransactionWrites()
