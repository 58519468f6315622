"""Mock exams in the database: starting, finding an open one to resume, closing and listing.

An exam's answers are ordinary attempts (``mode="exam"``, ``exam_id`` set), stored the
moment each is given. Until hand-in a changed answer replaces the stored one (one attempt per
question, so statistics count each question once), and the review schedules wait: closing
an exam scores its answers with ``quiz.training.exams.score_exam`` and only then moves each
card's schedule on by its final answer. Every function takes the time as ``now`` so tests
can move the clock.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

if TYPE_CHECKING:
    import pandas as pd
from sqlalchemy import Integer, bindparam, delete, insert, literal, null, select, union_all, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Select

from quiz.db.answers import WriteGuard, answer_writes
from quiz.db.reviews import reschedule
from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import attempts, exam_flags, exams, trainees
from quiz.model.attempt import ATTEMPT_FIELDS, AttemptRecord, Mode
from quiz.model.errors import ExamInProgressError
from quiz.training.exams import (
    Exam,
    ExamSpec,
    accepts_answer,
    answers_by_card,
    closed_book_running,
    deadline_for,
    score_exam,
)

T = TypeVar("T")
CLOSED_BOOK = "quiz_closed_book"  # the channel an exam's start and close notify on (quiz.db.watches)
EXAM_ANSWERS = "quiz_exam_answers"  # the channel an exam's saves, flags and closing notify on, by exam id
HISTORY_COLUMNS = (
    "id", "trainee_id", "preset", "started_at", "finished_at", "score", "total", "pass_percent", "passed",
)
HISTORY_DTYPES: dict[str, Any] = {
    "id": "int64",
    "trainee_id": "int64",
    "preset": "str",
    "started_at": "datetime64[us, UTC]",
    "finished_at": "datetime64[us, UTC]",
    "score": "Int64",
    "total": "int64",
    "pass_percent": "int64",
    "passed": "boolean",
}


def start_exam(
    store: Store, trainee_id: int, preset: str, spec: ExamSpec, card_ids: tuple[str, ...],
    seeds: tuple[int, ...], now: datetime,
) -> Exam:
    """Store a new exam with its questions (and their showing seeds) in order; its clock starts at ``now``."""
    if not card_ids or len(seeds) != len(card_ids):
        raise ValueError("an exam needs at least one question and one seed per question")
    with store.engine.begin() as conn:
        _lock_trainee(conn, trainee_id)
        if _open_rows(conn, trainee_id, now):
            raise ExamInProgressError("this trainee already has an exam in progress")
        result = conn.execute(insert(exams).values(
            trainee_id=trainee_id, preset=preset, settings=spec.to_json(), card_ids=list(card_ids),
            seeds=list(seeds), started_at=now, deadline=deadline_for(now, spec.minutes),
        ))
        exam_id = inserted_id(result)
        store.watches.notify(conn, CLOSED_BOOK, trainee_id)  # every server's kept closed_book_deadline, at commit
        started = _exam(conn.execute(select(exams).where(exams.c.id == exam_id)).one()._mapping)
    store.watches.changed(CLOSED_BOOK, trainee_id)  # this server's at once
    return started


def get_exam(store: Store, exam_id: int) -> Exam | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(exams).where(exams.c.id == exam_id)).one_or_none()
    return _exam(row._mapping) if row is not None else None


def open_exam(store: Store, trainee_id: int, now: datetime) -> Exam | None:
    """The trainee's exam that is neither closed nor out of time (the newest, should there be two)."""
    with store.engine.connect() as conn:
        rows = _open_rows(conn, trainee_id, now)
    return _exam(rows[0]) if rows else None


def running_exam(store: Store, trainee_id: int, now: datetime) -> tuple[datetime, bool] | None:
    """The deadline of the trainee's running exam and whether it is closed-book, or None:
    what the study pages wait for (``quiz.training.exams.closed_book_running``), or say runs,
    asked on every click of a card.

    Kept in the server's memory while the database says nothing changed (``quiz.db.watches``:
    on PostgreSQL while no server says an exam of the trainee started or closed, as
    ``start_exam`` and every closing notify; on SQLite until any commit), so a Practice tab
    left open on another device learns of the exam within a click, at no query per click."""

    def read() -> tuple[datetime, bool] | None:
        running = open_exam(store, trainee_id, now)
        return (running.deadline, closed_book_running(running, now)) if running is not None else None

    kept: tuple[datetime, bool] | None = store.watches.kept(CLOSED_BOOK).get(trainee_id, read)
    return kept if kept is not None and now < kept[0] else None


def closed_book_deadline(store: Store, trainee_id: int, now: datetime) -> datetime | None:
    """The deadline of the trainee's running closed-book exam, or None (``running_exam``)."""
    kept = running_exam(store, trainee_id, now)
    return kept[0] if kept is not None and kept[1] else None


def close_expired(store: Store, trainee_id: int, now: datetime) -> list[Exam]:
    """Close and score the trainee's exams whose time ran out unclosed; the exams closed."""
    query = select(exams).where(
        exams.c.trainee_id == trainee_id, exams.c.finished_at.is_(None), exams.c.deadline <= now
    )

    def close_all() -> list[Exam]:
        with store.engine.begin() as conn:
            expired = [_exam(row._mapping) for row in conn.execute(query)]
            closed = [_close(store, conn, exam, exam.deadline) for exam in expired]
        if expired:
            store.watches.changed(CLOSED_BOOK, trainee_id)
        for exam in expired:
            store.watches.changed(EXAM_ANSWERS, exam.id)
        return closed

    return _once_more_on_conflict(close_all)


def hand_in(store: Store, exam_id: int, now: datetime) -> Exam:
    """Close and score the exam (at its deadline if that came first); a closed exam is returned as it is."""

    def close() -> Exam:
        with store.engine.begin() as conn:
            row = conn.execute(select(exams).where(exams.c.id == exam_id)).one_or_none()
            if row is None:
                raise LookupError(f"no exam {exam_id}")
            exam = _exam(row._mapping)
            closed = _close(store, conn, exam, min(now, exam.deadline)) if exam.is_open else exam
        store.watches.changed(CLOSED_BOOK, exam.trainee_id)
        store.watches.changed(EXAM_ANSWERS, exam.id)
        return closed

    return _once_more_on_conflict(close)


def _once_more_on_conflict(work: Callable[[], T]) -> T:
    """``work()``, run once more if a card's review schedule was created meanwhile by another
    session (the unique key refused the second insert; the second run updates it)."""
    try:
        return work()
    except IntegrityError:
        return work()


def save_exam_answer(store: Store, record: AttemptRecord, now: datetime, guard: WriteGuard | None = None) -> bool:
    """Store an answer to a question of the exam ``record.exam_id`` if it still counts.

    It counts when the exam is open and in time; a question answered before has its answer
    replaced. The card's review schedule waits for the exam to close. Otherwise nothing is
    stored and False is returned. ``guard`` runs first in the transaction (``save_answer``).
    """
    if record.exam_id is None or record.mode is not Mode.EXAM:
        raise ValueError("an exam answer needs mode 'exam' and its exam_id")
    with store.engine.begin() as conn:  # the check and the write hold the exam's row: two tabs take turns
        if guard is not None:
            guard(conn)
        exam = _lock_exam(conn, record.exam_id)
        # a server whose clock is behind the one that started the exam: never an answer timed
        # before the exam began, and never more time than the exam's own
        now = max(now, exam.started_at)
        if record.answered_at < exam.started_at:
            record = replace(record, answered_at=exam.started_at)
        if not accepts_answer(exam, record.card_id, now):
            return False
        answer_writes(store).exam_answer(store, conn, exam.id, record, EXAM_ANSWERS)
    store.watches.changed(EXAM_ANSWERS, exam.id, lambda kept: _with_answer(kept, record))  # no read again here
    return True


def _with_answer(
    kept: tuple[tuple[AttemptRecord, ...], frozenset[str]], record: AttemptRecord
) -> tuple[tuple[AttemptRecord, ...], frozenset[str]]:
    """An exam's answers and flags (``answers_and_flags``) once ``record`` is saved: it replaces
    the question's answer, oldest first."""
    answers, flags = kept
    kept_answers = [answer for answer in answers if answer.card_id != record.card_id]
    return tuple(sorted([*kept_answers, record], key=lambda answer: answer.answered_at)), flags


def exam_answers(store: Store, exam_id: int) -> list[AttemptRecord]:
    """Every attempt stored for the exam, oldest first."""
    with store.engine.connect() as conn:
        return _answers(conn, exam_id)


def answers_and_flags(store: Store, exam_id: int) -> tuple[tuple[AttemptRecord, ...], frozenset[str]]:
    """The exam's answers, oldest first, and the card ids of its questions flagged for later:
    what every run of an exam's question draws.

    Kept in the server's memory while the database says neither changed (``quiz.db.watches``,
    channel ``EXAM_ANSWERS``: a save, a flag and a closing notify it; on SQLite until any
    commit), so moving between questions reads nothing; a read is one round trip (a
    ``UNION ALL`` of the two; a flag's row carries only its card id)."""
    kept: tuple[tuple[AttemptRecord, ...], frozenset[str]] = store.watches.kept(EXAM_ANSWERS).get(
        exam_id, lambda: _read_answers_and_flags(store, exam_id))
    return kept


def _read_answers_and_flags(store: Store, exam_id: int) -> tuple[tuple[AttemptRecord, ...], frozenset[str]]:
    answers = _answers_select(exam_id, literal(0, Integer).label("flag_row"), attempts.c.id.label("row_id"))
    flags = select(literal(1, Integer), null(),
                   *(exam_flags.c.card_id if name == "card_id" else null() for name in ATTEMPT_FIELDS),
                   ).where(exam_flags.c.exam_id == exam_id)
    both = union_all(answers, flags)
    query = both.order_by(both.selected_columns.flag_row, both.selected_columns.answered_at,
                          both.selected_columns.row_id)
    found: list[AttemptRecord] = []
    flagged: set[str] = set()
    with store.engine.connect() as conn:
        for row in conn.execute(query):
            values = dict(row._mapping)
            if values.pop("flag_row"):
                flagged.add(str(values["card_id"]))
            else:
                del values["row_id"]
                found.append(AttemptRecord.from_row(values))
    return tuple(found), frozenset(flagged)


def seen_cards(store: Store, trainee_id: int) -> frozenset[str]:
    """The cards the trainee has ever answered, in practice, review or an exam: what an exam
    that draws the unseen first keeps for last."""
    query = select(attempts.c.card_id).where(attempts.c.trainee_id == trainee_id).distinct()
    with store.engine.connect() as conn:
        return frozenset(conn.execute(query).scalars())


def exam_history(store: Store, trainee_id: int | None = None) -> pd.DataFrame:
    """Exams (of one trainee if given), newest first: ``HISTORY_COLUMNS``; score and passed empty while open."""
    import pandas as pd  # here only: answering an exam question must not import it (cold start)

    query = select(exams).order_by(exams.c.started_at.desc(), exams.c.id.desc())
    if trainee_id is not None:
        query = query.where(exams.c.trainee_id == trainee_id)
    with store.engine.connect() as conn:
        found = [_exam(row._mapping) for row in conn.execute(query)]
    rows = [
        {"id": e.id, "trainee_id": e.trainee_id, "preset": e.preset, "started_at": e.started_at,
         "finished_at": e.finished_at, "score": e.score, "total": e.total,
         "pass_percent": e.spec.pass_percent, "passed": e.passed}
        for e in found
    ]
    frame = pd.DataFrame.from_records(rows, columns=list(HISTORY_COLUMNS))
    for name in ("started_at", "finished_at"):
        frame[name] = pd.to_datetime(frame[name], utc=True)
    return frame.astype(HISTORY_DTYPES)


def _lock_trainee(conn: Connection, trainee_id: int) -> None:
    """Hold the trainee's row until the transaction ends, so that two sessions (on two servers,
    say) cannot both find no open exam and both start one. A write, not SELECT ... FOR UPDATE:
    SQLite ignores FOR UPDATE, but a write takes its database lock at once."""
    conn.execute(update(trainees).where(trainees.c.id == trainee_id).values(name=trainees.c.name))


_LOCK_EXAM = (update(exams).where(exams.c.id == bindparam("lock_exam_id")).values(preset=exams.c.preset)
              .returning(*exams.c))  # built once: made anew per answer, it cost more than running it


def _lock_exam(conn: Connection, exam_id: int) -> Exam:
    """Hold the exam's row until the transaction ends (a write, for SQLite's sake: see
    ``_lock_trainee``), and read it in the same statement; ``LookupError`` if there is none."""
    row = conn.execute(_LOCK_EXAM, {"lock_exam_id": exam_id}).one_or_none()
    if row is None:
        raise LookupError(f"no exam {exam_id}")
    return _exam(row._mapping)


def _open_rows(conn: Connection, trainee_id: int, now: datetime) -> list[Mapping[Any, Any]]:
    query = (
        select(exams)
        .where(exams.c.trainee_id == trainee_id, exams.c.finished_at.is_(None), exams.c.deadline > now)
        .order_by(exams.c.started_at.desc(), exams.c.id.desc())
    )
    return [row._mapping for row in conn.execute(query)]


def _close(store: Store, conn: Connection, exam: Exam, finished_at: datetime) -> Exam:
    """Score and close ``exam``, then move each answered card's review schedule on by its final
    answer, and drop the flags; if another session closed it first, that closing stands."""
    answers = _answers(conn, exam.id)
    score = score_exam(exam, answers)
    closed = conn.execute(
        update(exams)
        .where(exams.c.id == exam.id, exams.c.finished_at.is_(None))
        .values(finished_at=finished_at, score=score.correct, passed=score.passed)
    ).rowcount
    if closed:
        store.watches.notify(conn, CLOSED_BOOK, exam.trainee_id)  # the study pages open again on every server
        for record in answers_by_card(exam, answers).values():
            reschedule(conn, record.trainee_id, record.card_id, record.correct, record.answered_at)
        conn.execute(delete(exam_flags).where(exam_flags.c.exam_id == exam.id))
        store.watches.notify(conn, EXAM_ANSWERS, exam.id)
    return _exam(conn.execute(select(exams).where(exams.c.id == exam.id)).one()._mapping)


def _answers_select(exam_id: int, *leading: Any) -> Select[Any]:
    """The exam's answers as ``AttemptRecord`` columns, after the ``leading`` ones."""
    return select(*leading, *(attempts.c[name] for name in ATTEMPT_FIELDS)).where(attempts.c.exam_id == exam_id)


def _answers(conn: Connection, exam_id: int) -> list[AttemptRecord]:
    query = _answers_select(exam_id).order_by(attempts.c.answered_at, attempts.c.id)
    return [AttemptRecord.from_row(dict(row._mapping)) for row in conn.execute(query)]


def _exam(row: Mapping[Any, Any]) -> Exam:  # a RowMapping
    return Exam(
        id=row["id"],
        trainee_id=row["trainee_id"],
        preset=row["preset"],
        spec=ExamSpec.from_json(row["settings"]),
        card_ids=tuple(row["card_ids"]),
        seeds=tuple(row["seeds"]),
        started_at=row["started_at"],
        deadline=row["deadline"],
        finished_at=row["finished_at"],
        score=row["score"],
        passed=None if row["passed"] is None else bool(row["passed"]),
    )
