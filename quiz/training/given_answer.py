"""An answer given to a card, with its context: the one object that carries it from the page
that took it to grading (``quiz.training.kinds.answer_card``) and the store
(``quiz.db.submissions.submit_answer``)."""

from __future__ import annotations

from dataclasses import dataclass

from quiz.model.attempt import Mode
from quiz.model.cards import AnyCard
from quiz.rules.variants import CardShowing
from quiz.training.grading import ScenarioAnswer

CardAnswer = ScenarioAnswer | str | None
"""What was chosen for a card: a ``ScenarioAnswer`` for a scenario card or a floor call (its
findings and a floor call's steps among its parts), the chosen id of a knowledge card or a
judgement call, None when nothing was chosen."""


@dataclass(frozen=True, slots=True)
class GivenAnswer:
    """An answer given to ``card``: what was chosen, by whom, in which mode (an exam's with
    its ``exam_id``), with the values the card was shown with (a variant's ``showing``), and
    how many seconds it took. ``never_answered``: the page knows of no earlier answer of the
    trainee to the card (``quiz.db.answers.save_answer`` then reads no schedule first)."""

    card: AnyCard
    chosen: CardAnswer
    trainee_id: int
    seconds: float
    mode: Mode = Mode.PRACTICE
    exam_id: int | None = None
    showing: CardShowing | None = None
    never_answered: bool = False

    @property
    def rounded_seconds(self) -> float:
        """The seconds as stored: never negative, to the hundredth."""
        return round(max(self.seconds, 0.0), 2)
