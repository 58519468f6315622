"""Mock exams in the core: the settings, drawing the questions, the clock and the score.

Pure functions of their arguments: time comes in as ``now`` (timezone-aware), randomness
as a ``random.Random``, so tests fix both. Storing exams is ``quiz.db.exams``'s job.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Callable, Collection, Iterable, Mapping, Sequence

from quiz.content.categories import category_keys
from quiz.content.loader import Content
from quiz.model.attempt import AttemptRecord
from quiz.model.cards import CARD_KINDS
from quiz.rules.variants import new_seed
from quiz.training.blueprints import (
    NOT_EXAM_MATERIAL,
    Blueprint,
    balanced_blueprint,
    blueprint_total,
    draw_stratified,
    exam_material,
    pool_by_category,
    sample_unseen_first,
)
from quiz.training.pools import card_pool

CUSTOM = "custom"
QUESTIONS_RANGE = (1, 100)
MINUTES_RANGE = (1, 240)
PASS_PERCENT_RANGE = (1, 100)


@dataclass(frozen=True, slots=True)
class ExamSpec:
    """What an exam asks: how many questions, how long, the pass mark and the pool.

    Attributes:
        questions: how many cards are drawn (fewer when the pool is smaller).
        minutes: the time limit, counted from the start.
        pass_percent: the share of right answers needed to pass, in whole percent.
        rulesets: the games whose cards are drawn.
        categories: ``ruleset/category`` keys (``ruleset/knowledge`` for knowledge cards)
            the draw is limited to; None for every category.
        blueprint: how many questions each category gives (``quiz.training.blueprints``), at
            most ``questions`` in all; None for a draw from the whole pool.
        findings_only: draw only cards with findings (floor style: the trainee finds the
            facts from evidence), not cards that state their facts.
        closed_book: while the exam runs, Practice, Reference and Progress wait for it
            (``closed_book_running``), as in an exam room without the document.
        unseen_first: the draw takes cards the trainee has never answered before any they
            have (within each blueprint section).
        kinds: the kinds of card drawn (``floor_call`` for a practical exam); None for every kind.
    """

    questions: int
    minutes: int
    pass_percent: int
    rulesets: tuple[str, ...]
    categories: tuple[str, ...] | None = None
    blueprint: Blueprint | None = None
    findings_only: bool = False
    closed_book: bool = False
    unseen_first: bool = False
    kinds: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        problems = _spec_problems(self)
        if problems:
            raise ValueError("invalid exam settings: " + "; ".join(problems))

    def to_json(self) -> dict[str, Any]:
        """The settings as plain JSON data (lists for tuples)."""
        return {
            "questions": self.questions,
            "minutes": self.minutes,
            "pass_percent": self.pass_percent,
            "rulesets": list(self.rulesets),
            "categories": None if self.categories is None else list(self.categories),
            "blueprint": None if self.blueprint is None else [[key, count] for key, count in self.blueprint],
            "findings_only": self.findings_only,
            "closed_book": self.closed_book,
            "unseen_first": self.unseen_first,
            "kinds": None if self.kinds is None else list(self.kinds),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExamSpec:
        """The settings ``to_json`` wrote."""
        categories = data.get("categories")
        blueprint = data.get("blueprint")  # absent in exams stored before blueprints
        return cls(
            questions=int(data["questions"]),
            minutes=int(data["minutes"]),
            pass_percent=int(data["pass_percent"]),
            rulesets=tuple(data["rulesets"]),
            categories=None if categories is None else tuple(categories),
            blueprint=None if blueprint is None else tuple((str(key), int(count)) for key, count in blueprint),
            findings_only=bool(data.get("findings_only", False)),  # absent in exams stored before findings
            closed_book=bool(data.get("closed_book", False)),  # these two absent in exams stored before them
            unseen_first=bool(data.get("unseen_first", False)),
            kinds=None if data.get("kinds") is None else tuple(data["kinds"]),  # absent before floor calls
        )


def _spec_problems(spec: ExamSpec) -> list[str]:
    """Every reason the settings are invalid, gathered so one message names them all."""
    problems = []
    for name, (low, high) in (
        ("questions", QUESTIONS_RANGE), ("minutes", MINUTES_RANGE), ("pass_percent", PASS_PERCENT_RANGE)
    ):
        value = getattr(spec, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    if not spec.rulesets:
        problems.append("at least one game is needed")
    if spec.kinds is not None and (not spec.kinds or not set(spec.kinds) <= set(CARD_KINDS)):
        problems.append(f"kinds must be None (all) or some of {CARD_KINDS}, got {spec.kinds!r}")
    if spec.categories is not None and not spec.categories:
        problems.append("categories must be None (all) or name at least one")
    if spec.blueprint is not None:
        keys = [key for key, _ in spec.blueprint]
        if not spec.blueprint or len(set(keys)) != len(keys):
            problems.append("a blueprint names at least one category, each once")
        if any(isinstance(count, bool) or not isinstance(count, int) or count < 1 for _, count in spec.blueprint):
            problems.append("a blueprint's counts are whole numbers from 1")
        elif blueprint_total(spec.blueprint) > spec.questions:
            problems.append(f"the blueprint asks for {blueprint_total(spec.blueprint)} questions, "
                            f"more than {spec.questions}")
    return problems


@dataclass(frozen=True, slots=True)
class Exam:
    """One exam a trainee started: its questions in order, its clock and, once closed, its score.

    Attributes:
        seeds: one per question, the showing of a variant card (``quiz.rules.variants.show_card``),
            so a resumed exam shows the same values it showed before.
    """

    id: int
    trainee_id: int
    preset: str
    spec: ExamSpec
    card_ids: tuple[str, ...]
    seeds: tuple[int, ...]
    started_at: datetime
    deadline: datetime
    finished_at: datetime | None = None
    score: int | None = None
    passed: bool | None = None

    def __post_init__(self) -> None:
        if len(self.seeds) != len(self.card_ids):
            raise ValueError(f"an exam needs one seed per question: {len(self.card_ids)} questions, "
                             f"{len(self.seeds)} seeds")

    @property
    def total(self) -> int:
        return len(self.card_ids)

    @property
    def is_open(self) -> bool:
        """Not handed in or closed yet (the deadline may still have passed)."""
        return self.finished_at is None

    @property
    def timed_out(self) -> bool:
        """Closed because the time ran out rather than handed in."""
        return self.finished_at is not None and self.finished_at >= self.deadline


@dataclass(frozen=True, slots=True)
class ExamScore:
    """How an exam went: right answers out of the questions asked, and whether that passes."""

    correct: int
    answered: int
    total: int
    pass_percent: int

    @property
    def unanswered(self) -> int:
        return self.total - self.answered

    @property
    def percent(self) -> float:
        """Right answers as a share of all questions (0.0 to 1.0; 0.0 with none)."""
        return self.correct / self.total if self.total else 0.0

    @property
    def passed(self) -> bool:
        return passes(self.correct, self.total, self.pass_percent)


def passes(correct: int, total: int, pass_percent: int) -> bool:
    """At least ``pass_percent`` % of ``total`` right, in exact integer arithmetic."""
    return total > 0 and correct * 100 >= pass_percent * total


def draw_questions(
    pool: Sequence[str], count: int, rng: random.Random, seen: Collection[str] = frozenset(),
) -> tuple[str, ...]:
    """``count`` different card ids from ``pool`` in random order (all of them if fewer); the
    cards not in ``seen`` are taken first."""
    drawn = sample_unseen_first(pool, count, rng, seen)
    if seen:  # the unseen come first: mixed, so where a question stands tells nothing
        rng.shuffle(drawn)
    return tuple(drawn)


def draw_seeds(count: int, rng: random.Random) -> tuple[int, ...]:
    """A fresh showing seed for each of ``count`` questions."""
    return tuple(new_seed(rng) for _ in range(count))


def exam_pool(content: Content, rulesets: Iterable[str], categories: Iterable[str] | None = None,
              findings_only: bool = False, kinds: Collection[str] | None = None) -> list[str]:
    """The cards an exam may draw: ``card_pool`` without the knowledge cards that are no exam
    material (tagged ``NOT_EXAM_MATERIAL``: the YGO afterword's trivia); with ``findings_only``,
    only the scenario cards that ask findings; with ``kinds``, only cards of those kinds."""
    trivia = content.memo(("exam_trivia",), lambda: frozenset(
        card.id for card in content.knowledge_cards if NOT_EXAM_MATERIAL in card.tags))
    pool = exam_material(card_pool(content, rulesets, categories), trivia)
    if kinds is not None:
        pool = [card_id for card_id in pool if content.cards[card_id].kind in kinds]
    if not findings_only:
        return pool
    floor = content.memo(("floor_cards",), lambda: frozenset(
        card.id for card in content.scenario_cards if card.findings))
    return [card_id for card_id in pool if card_id in floor]


def draw_exam(
    content: Content, spec: ExamSpec, rng: random.Random, seen: Collection[str] = frozenset(),
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The questions of a new exam (cards of the spec's exam pool, retired ones never) and their seeds.

    With a blueprint, each category gives exactly its count (``draw_stratified``). ``seen``
    holds the cards the trainee has answered: with ``unseen_first`` the others come first.
    """
    pool = exam_pool(content, spec.rulesets, spec.categories, spec.findings_only, spec.kinds)
    met = seen if spec.unseen_first else frozenset()
    if spec.blueprint is not None:
        card_ids = draw_stratified(spec.blueprint, pool_by_category(pool, category_keys(content)), rng, met)
    else:
        card_ids = draw_questions(pool, spec.questions, rng, met)
    return card_ids, draw_seeds(len(card_ids), rng)


def balanced_by_category(content: Content, spec: ExamSpec) -> ExamSpec:
    """``spec`` with a blueprint that shares its questions evenly across its categories (the
    ones it names, else every category of its games' pool), as far as each has cards."""
    grouped = pool_by_category(exam_pool(content, spec.rulesets, spec.categories, spec.findings_only),
                               category_keys(content))
    categories = list(spec.categories) if spec.categories is not None else list(grouped)
    blueprint = balanced_blueprint(categories, spec.questions, {key: len(cards) for key, cards in grouped.items()})
    return replace(spec, blueprint=blueprint or None)


def deadline_for(started_at: datetime, minutes: int) -> datetime:
    return started_at + timedelta(minutes=minutes)


def time_left(deadline: datetime, now: datetime) -> timedelta:
    """Time until ``deadline``; zero once it has passed."""
    return max(deadline - now, timedelta(0))


def is_over(exam: Exam, now: datetime) -> bool:
    """Closed already, or its time is up."""
    return not exam.is_open or now >= exam.deadline


def closed_book_running(exam: Exam | None, now: datetime) -> bool:
    """Whether ``exam`` (the trainee's open one, if any) keeps the study pages closed now: a
    closed-book exam still running. Once handed in or out of time, they open again."""
    return exam is not None and exam.spec.closed_book and not is_over(exam, now)


def accepts_answer(exam: Exam, card_id: str, now: datetime) -> bool:
    """Whether an answer to ``card_id`` counts: a question of this exam, given in time. Until
    hand-in a candidate may change an answer, as on a paper test: the new one replaces it."""
    return not is_over(exam, now) and card_id in exam.card_ids


def answers_by_card(exam: Exam, records: Iterable[AttemptRecord]) -> dict[str, AttemptRecord]:
    """The answer that counts for each question: its first one given by the deadline."""
    questions = set(exam.card_ids)
    counted: dict[str, AttemptRecord] = {}
    for record in sorted(records, key=lambda r: r.answered_at):
        if record.card_id in questions and record.answered_at <= exam.deadline:
            counted.setdefault(record.card_id, record)
    return counted


def score_exam(exam: Exam, records: Iterable[AttemptRecord]) -> ExamScore:
    """The score of the answers that count; an unanswered question counts as wrong."""
    counted = answers_by_card(exam, records)
    return ExamScore(
        correct=sum(record.correct for record in counted.values()),
        answered=len(counted),
        total=exam.total,
        pass_percent=exam.spec.pass_percent,
    )


def next_unanswered(card_ids: Sequence[str], answered: Collection[str], current: int) -> int | None:
    """The index of the first unanswered question after ``current``, wrapping round; None when all are."""
    count = len(card_ids)
    for step in range(1, count + 1):
        index = (current + step) % count
        if card_ids[index] not in answered:
            return index
    return None


def clock_text(left: timedelta) -> str:
    """A countdown reading: ``MM:SS``, or ``H:MM:SS`` from an hour; partial seconds round up."""
    seconds = max(math.ceil(left.total_seconds()), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


@dataclass(frozen=True, slots=True)
class ExamScreen:
    """What the Mock exam page shows: the exam being taken (``exam_id``), the results of a
    closed one (``result_id``), or, with neither, the choice of exams."""

    exam_id: int | None = None
    result_id: int | None = None


def exam_screen(
    trainee_id: int, shown: ExamScreen, lookup: Callable[[int], Exam | None], just_closed: Sequence[Exam] = (),
) -> ExamScreen:
    """The screen after the exams closed since the last run (``just_closed``): a tab may show an
    exam that ran out or was handed in elsewhere (its results then), or a result that is not the
    trainee's or no longer there (the choice then); time that ran out while no tab showed an
    exam opens the results of the newest one closed. ``lookup`` reads an exam by id.

    Pure apart from ``lookup``, so the page's state machine is tested without a page."""
    exam_id, result_id = shown.exam_id, shown.result_id
    if exam_id is not None:
        exam = lookup(exam_id)
        if exam is None or exam.trainee_id != trainee_id:
            exam_id, result_id = None, None
        elif not exam.is_open:
            exam_id, result_id = None, exam.id
    elif just_closed and result_id is None:
        result_id = max(just_closed, key=lambda e: e.deadline).id
    if result_id is not None:
        finished = lookup(result_id)
        if finished is None or finished.trainee_id != trainee_id or finished.is_open:
            result_id = None
    return ExamScreen(exam_id, result_id)
