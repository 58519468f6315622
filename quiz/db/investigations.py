"""A floor call being investigated: each step kept the moment it is taken (table
``investigation_steps``), so that a reload, a restart or another tab resumes the
investigation where it was.

An investigation is open from its first step until its answer is stored. Steps taken before
the trainee's latest stored answer to the same call (in the same exam, or outside exams)
belong to an investigation already answered: they are never read back, so a call dealt again
starts afresh even if the steps of its last answer could not be deleted
(``forget_steps`` runs after the answer is stored, outside its transaction).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, TextClause, and_, delete, insert, text
from sqlalchemy.exc import IntegrityError

from quiz.db.store import Store
from quiz.db.tables import investigation_steps
from quiz.model.attempt import utc_now

OUTSIDE_EXAMS = 0  # the exam key of a call investigated in practice or review


def exam_key(exam_id: int | None) -> int:
    return exam_id if exam_id is not None else OUTSIDE_EXAMS


def _of_call(trainee_id: int, card_id: str, exam_id: int | None) -> ColumnElement[bool]:
    return and_(investigation_steps.c.trainee_id == trainee_id, investigation_steps.c.card_id == card_id,
                investigation_steps.c.exam_key == exam_key(exam_id))


# The call's rows, each marked 1 when taken before the call's latest stored answer (an
# investigation answered), the same SQL on SQLite and PostgreSQL. The answer is found through
# the card's index: ``trainee_id + 0`` keeps SQLite off the trainee's (trainee, answered_at)
# index, which it picked for the ``max`` and then walked through every answer of the trainee,
# all 100,000 of them, for a call never answered (a step's run went from 10 ms to 180 ms on
# the benchmark's trainee). Written out once: built from SQLAlchemy's expressions on every
# step it took 0.4 ms of Python, eight times the query itself. The two differ in fixed words.
_CALL_ROWS = """
    SELECT id, step_id, CASE WHEN taken_at <= (
        SELECT max(answered_at) FROM attempts
        WHERE trainee_id + 0 = :trainee_id AND card_id = :card_id AND {in_exam}
    ) THEN 1 ELSE 0 END
    FROM investigation_steps
    WHERE trainee_id = :trainee_id AND card_id = :card_id AND exam_key = :exam_key
    ORDER BY id"""
_ROWS_OUTSIDE_EXAMS: TextClause = text(_CALL_ROWS.format(in_exam="exam_id IS NULL"))
_ROWS_IN_EXAM: TextClause = text(_CALL_ROWS.format(in_exam="exam_id = :exam_id"))
_INSERT_STEP = insert(investigation_steps)


def call_rows(trainee_id: int, card_id: str, exam_id: int | None) -> tuple[TextClause, dict[str, object]]:
    """The statement and parameters that read the call's rows (id, step id, answered before)."""
    parameters: dict[str, object] = {"trainee_id": trainee_id, "card_id": card_id, "exam_key": exam_key(exam_id)}
    if exam_id is None:
        return _ROWS_OUTSIDE_EXAMS, parameters
    return _ROWS_IN_EXAM, parameters | {"exam_id": exam_id}


def steps_taken(store: Store, trainee_id: int, card_id: str, exam_id: int | None = None) -> tuple[str, ...]:
    """The steps of the open investigation of the call, in the order they were taken."""
    rows, parameters = call_rows(trainee_id, card_id, exam_id)
    with store.engine.connect() as conn:
        return tuple(str(step_id) for _, step_id, before in conn.execute(rows, parameters) if not before)


def take_step(store: Store, trainee_id: int, card_id: str, step_id: str, exam_id: int | None = None,
              now: datetime | None = None) -> tuple[str, ...]:
    """Keep a step taken (taking it twice, in two tabs at once too, keeps it once); the steps
    of the open investigation after it (a step's run reads them nowhere else).

    One read of the call's rows, each marked whether it belongs to an investigation already
    answered (those are deleted, when there are any: ``forget_steps`` failed after an
    answer), then the insert: two statements where a delete, a read and the insert were
    three."""
    row = {"trainee_id": trainee_id, "card_id": card_id, "exam_key": exam_key(exam_id), "step_id": step_id,
           "taken_at": now or utc_now()}
    rows, parameters = call_rows(trainee_id, card_id, exam_id)
    try:
        with store.watches.own_writes() as conn:  # changes no kept value: the page's stay kept
            found = conn.execute(rows, parameters).all()
            done = [row_id for row_id, _, before in found if before]
            if done:
                conn.execute(delete(investigation_steps).where(investigation_steps.c.id.in_(done)))
            taken = tuple(str(taken_id) for _, taken_id, before in found if not before)  # the open investigation
            if step_id in taken:
                return taken
            conn.execute(_INSERT_STEP, row)
            return (*taken, step_id)
    except IntegrityError:  # the same step, taken at the same moment in another tab: it is taken
        return steps_taken(store, trainee_id, card_id, exam_id)


def forget_steps(store: Store, trainee_id: int, card_id: str, exam_id: int | None = None) -> None:
    """Delete the steps of the call's investigation (its answer is stored, and keeps them)."""
    with store.watches.own_writes() as conn:
        conn.execute(delete(investigation_steps).where(_of_call(trainee_id, card_id, exam_id)))
