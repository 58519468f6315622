"""Questions of an exam flagged "for later" by the candidate (table ``exam_flags``)."""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from quiz.db.exams import EXAM_ANSWERS
from quiz.db.store import Store
from quiz.db.tables import exam_flags, exams


def flagged(store: Store, exam_id: int) -> frozenset[str]:
    """The card ids of the exam's flagged questions."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(exam_flags.c.card_id).where(exam_flags.c.exam_id == exam_id))
        return frozenset(str(card_id) for (card_id,) in rows)


def set_flag(store: Store, exam_id: int, card_id: str, on: bool) -> None:
    """Flag the question (``on``) or take its flag off; doing either twice changes nothing.

    A flag is set only while the exam is open: a tab that has not yet seen the exam handed in
    elsewhere leaves no flag behind the closing, which drops them. The open exam's row is held
    (a write, as ``exams._lock_exam``) until the flag is in, so a closing waits for it."""
    where = (exam_flags.c.exam_id == exam_id, exam_flags.c.card_id == card_id)
    still_open = update(exams).where(exams.c.id == exam_id, exams.c.finished_at.is_(None)).values(preset=exams.c.preset)
    try:
        with store.engine.begin() as conn:
            if on:
                if not conn.execute(still_open).rowcount:
                    return
                if conn.execute(select(exam_flags.c.card_id).where(*where)).first() is None:
                    conn.execute(insert(exam_flags).values(exam_id=exam_id, card_id=card_id))
            else:
                conn.execute(delete(exam_flags).where(*where))
            store.watches.notify(conn, EXAM_ANSWERS, exam_id)
    except IntegrityError:  # flagged at the same moment in another tab: it is flagged
        if not on:
            raise
    store.watches.changed(EXAM_ANSWERS, exam_id)
