"""What the Practice, Review and Mock exam pages keep in the session between runs, typed.

Defined here, not in the page scripts: a page script runs afresh on every run, and a class
defined in it would be a new class each time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from quiz.model.attempt import Mode
from quiz.rules.variants import DEFAULT_SEED, new_seed
from quiz.training.answer_outcomes import Outcome


@dataclass
class CardState:
    """The card a page shows and how far it got."""

    card: str | None = None  # the card's id; None: deal one
    seed: int = DEFAULT_SEED  # a variant card draws its values from it: the same showing on every rerun
    outcome: Outcome | None = None  # set once the card is answered (graded and saved)
    shown_at: float = 0.0  # time.time() when the card appeared: the answer's seconds count from it
    n: int = 0  # cards dealt in this session: each card's widgets are keyed by it
    to_top: bool = False  # Next card was pressed: the run that draws the next card scrolls to its top
    # the cards the trainee answered, as far as this session knows (read by Practice's deal;
    # None: not known): a card not among them is saved without reading a schedule first
    # (``quiz.db.answers.save_answer``, ``never_answered``)
    answered_cards: set[str] | None = None

    @property
    def answered(self) -> bool:
        return self.outcome is not None

    def never_answered(self, card_id: str) -> bool:
        """Whether this session knows that the trainee never answered ``card_id``."""
        return self.answered_cards is not None and card_id not in self.answered_cards

    def took_answer(self, card_id: str) -> None:
        """``card_id`` was answered (and has a schedule now)."""
        if self.answered_cards is not None:
            self.answered_cards.add(card_id)

    def deal(self, card_id: str | None) -> None:
        """Show ``card_id`` next: values drawn afresh, unanswered, timed from now, widgets of its own."""
        self.card, self.seed, self.outcome, self.shown_at, self.n = card_id, new_seed(), None, time.time(), self.n + 1

    def go_on(self) -> None:
        """Leave the card: the next run deals another, and shows it from its top."""
        self.card, self.outcome, self.to_top = None, None, True


@dataclass
class PracticeState(CardState):
    queue: list[str] = field(default_factory=list)  # the cards still to come before the pool is dealt again


@dataclass
class ReviewState(CardState):
    trainee: int | None = None  # whose reviews these are: another trainee starts over
    mode: Mode = Mode.REVIEW  # PRACTICE: a card never seen, asked for when nothing is due
    new: bool = False  # cards never seen were asked for

    def ask_for_new(self) -> None:
        self.new = True


@dataclass
class ExamState:
    """What the Mock exam page keeps: which exam (or which results) this tab shows and the
    question on screen. The exam and its answers live in the database; this only points."""

    exam_id: int | None = None  # the exam being taken in this tab
    result_id: int | None = None  # the closed exam whose results are shown
    index: int = 0  # the question on screen
    shown_at: float = 0.0  # time.time() when it appeared: the answer's seconds count from it
    confirm_hand_in: bool = False  # Hand in was pressed with questions unanswered or flagged: ask once more
    flag: tuple[int, str, bool] | None = None  # (exam, card, on) asked by the flag button's callback
    saves: dict[str, int] = field(default_factory=dict)  # saves per card in this tab: each draws a new form

    def show(self, exam_id: int | None, result_id: int | None = None, index: int = 0) -> None:
        """Take ``exam_id`` at question ``index``, or show the results of ``result_id``."""
        self.exam_id, self.result_id, self.index = exam_id, result_id, index
        self.shown_at, self.confirm_hand_in = time.time(), False

    def go_to(self, index: int) -> None:
        """Show question ``index`` (a callback: chosen before the run that draws it)."""
        self.index, self.shown_at, self.confirm_hand_in = index, time.time(), False
