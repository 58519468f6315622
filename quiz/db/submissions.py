"""Answering a card: the one path every page takes from a trainee's answer to the database.

``submit_answer`` grades the answer (``quiz.training.answer_outcomes.answer_card``) and stores it at
once: a practice or review answer with its card's review schedule (``quiz.db.answers``), an
exam answer only while its exam is open and the question unanswered (``quiz.db.exams``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quiz.content.loader import Content
from quiz.db.answers import WriteGuard, save_answer
from quiz.db.exams import save_exam_answer
from quiz.db.investigations import forget_steps
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import AnyCard
from quiz.rules.variants import CardShowing
from quiz.training.answer_outcomes import Outcome
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card


@dataclass(frozen=True, slots=True)
class Submission:
    """A graded answer, whether it was stored (an exam answer too late is not), and when its
    card is due next (None for an exam answer: it moves no schedule until the exam closes)."""

    outcome: Outcome
    stored: bool
    next_due: datetime | None = None


def submit_answer(
    store: Store, content: Content, card: AnyCard, given: ScenarioAnswer | str | None, trainee_id: int,
    seconds: float, mode: str = "practice", exam_id: int | None = None, showing: CardShowing | None = None,
    now: datetime | None = None, guard: WriteGuard | None = None, never_answered: bool = False,
) -> Submission:
    """Grade ``given`` (a ``ScenarioAnswer``, or the chosen id of a knowledge card or judgement
    call) and store it before returning; ``guard`` runs first where it is stored and
    may refuse it (raising: nothing is stored). ``never_answered``: no answer of the trainee
    to the card is known (``answers.save_answer``)."""
    outcome = answer_card(content, card, given, trainee_id, seconds, mode, exam_id, showing)
    if mode == "exam":
        submission = Submission(outcome, save_exam_answer(store, outcome.record, now or utc_now(), guard))
    else:
        saved = save_answer(store, outcome.record, guard, never_answered)
        submission = Submission(outcome, True, saved.next_due)
    if outcome.record.investigation is not None and submission.stored:
        forget_steps(store, trainee_id, card.id, exam_id)  # the attempt keeps them
    return submission
