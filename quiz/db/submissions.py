"""Answering a card: the one path every page takes from a trainee's answer to the database.

``submit_answer`` grades the answer (``quiz.training.kinds.answer_card``) and stores it at
once: a practice or review answer with its card's review schedule (``quiz.db.answers``), an
exam answer only while its exam is open and the question unanswered (``quiz.db.exams``). A
failure of the database while storing it is an ``AnswerLostError``: nothing was stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quiz.content.loader import Content
from quiz.db.answers import WriteGuard, save_answer
from quiz.db.exams import save_exam_answer
from quiz.db.investigations import forget_steps
from quiz.db.storage_errors import storage_problem
from quiz.db.store import Store
from quiz.model.attempt import Mode, utc_now
from quiz.model.errors import AnswerLostError
from quiz.training.answer_outcomes import Outcome
from quiz.training.given_answer import GivenAnswer
from quiz.training.kinds import answer_card


@dataclass(frozen=True, slots=True)
class Submission:
    """A graded answer, whether it was stored (an exam answer too late is not), when its card
    is due next (None for an exam answer: it moves no schedule until the exam closes), and
    whether a write guard ran where it was stored (``guarded``: the click's PIN check)."""

    outcome: Outcome
    stored: bool
    next_due: datetime | None = None
    guarded: bool = False


def submit_answer(
    store: Store, content: Content, given: GivenAnswer, guard: WriteGuard | None = None, now: datetime | None = None,
) -> Submission:
    """Grade ``given`` and store it before returning; ``guard`` runs first where it is stored
    and may refuse it (raising: nothing is stored). A failure of the database while storing
    is raised as ``AnswerLostError`` (from it)."""
    outcome = answer_card(content, given)
    try:
        submission = _store(store, outcome, given, guard, now)
    except Exception as error:
        if storage_problem(error) is None:
            raise
        raise AnswerLostError(f"the answer to {given.card.id} was not stored") from error
    return submission


def _store(store: Store, outcome: Outcome, given: GivenAnswer, guard: WriteGuard | None,
           now: datetime | None) -> Submission:
    if given.mode is Mode.EXAM:
        stored = save_exam_answer(store, outcome.record, now or utc_now(), guard)
        submission = Submission(outcome, stored, guarded=guard is not None)
    else:
        saved = save_answer(store, outcome.record, guard, given.never_answered)
        submission = Submission(outcome, True, saved.next_due, guarded=guard is not None)
    if outcome.record.investigation is not None and submission.stored:
        forget_steps(store, given.trainee_id, given.card.id, given.exam_id)  # the attempt keeps them
    return submission
