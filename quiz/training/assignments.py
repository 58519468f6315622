"""Onboarding assignments: what a plan asks, when it is done, and how a member stands.

A plan is practice to a mastery level (categories and/or named cards) and/or a mock exam
preset to pass, by a due time. Mastery reuses what the dealer already reads
(``Store.card_results``): a card is mastered when the trainee's latest answer to it is right,
and the practice part is done when at least ``mastery`` percent of the plan's cards are. The
exam part is done by a passed exam of the preset finished since the assignment was made (a
pass from before does not prove the plan was followed). Pure functions of their inputs: the
clock is a parameter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Iterable, Literal
from zoneinfo import ZoneInfo

from quiz.content.categories import split_key
from quiz.content.loader import Content
from quiz.model.errors import AssignmentError
from quiz.training.pools import card_pool

Status = Literal["done", "on_track", "late", "not_started"]
STATUSES: tuple[Status, ...] = ("done", "on_track", "late", "not_started")
MASTERY_RANGE = (1, 100)
DEFAULT_MASTERY = 80
TITLE_MAX = 200


@dataclass(frozen=True, slots=True)
class Plan:
    """What to do: practise ``categories`` (``ruleset/category`` keys) and ``cards`` until
    ``mastery`` percent of their cards are mastered, and/or pass the exam preset ``exam``."""

    categories: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    mastery: int = DEFAULT_MASTERY
    exam: str | None = None

    def __post_init__(self) -> None:
        if not (self.practice or self.exam):
            raise AssignmentError("empty", "a plan needs something to practise or an exam to pass")
        if not MASTERY_RANGE[0] <= self.mastery <= MASTERY_RANGE[1]:
            raise AssignmentError("mastery", f"mastery must be {MASTERY_RANGE[0]}-{MASTERY_RANGE[1]} %")

    @property
    def practice(self) -> bool:
        return bool(self.categories or self.cards)

    def stored(self) -> dict[str, Any]:
        """The plan as the ``assignments.plan`` JSON."""
        return {"categories": list(self.categories), "cards": list(self.cards), "mastery": self.mastery,
                "exam": self.exam}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Plan:
        return cls(tuple(data.get("categories") or ()), tuple(data.get("cards") or ()),
                   int(data.get("mastery", DEFAULT_MASTERY)), data.get("exam"))


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one member has done toward a plan: the plan's cards they answered and of those
    the ones whose latest answer is right, and when they first passed the exam since the
    assignment was made (or started one)."""

    answered: frozenset[str] = frozenset()
    mastered: frozenset[str] = frozenset()
    exam_started: bool = False
    exam_passed_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's standing: status, progress in [0, 1], and when the plan was done."""

    status: Status
    progress: float
    done_at: datetime | None = field(default=None)


def due_at(day: date, zone: str) -> datetime:
    """The end of ``day`` in the time zone ``zone``: due Friday means by Friday's midnight there."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=ZoneInfo(zone))


def practice_share(plan_cards: Iterable[str], mastered: frozenset[str]) -> float:
    """The share of the plan's cards mastered (1.0 for a plan without cards to practise)."""
    cards = frozenset(plan_cards)
    return len(cards & mastered) / len(cards) if cards else 1.0


def progress(plan: Plan, plan_cards: Iterable[str], evidence: Evidence) -> float:
    """How far the member is, in [0, 1]: the mean of the plan's parts, practice counted
    against its mastery level (reaching it is 1), the exam 0 or 1."""
    parts: list[float] = []
    if plan.practice:
        parts.append(min(1.0, practice_share(plan_cards, evidence.mastered) * 100 / plan.mastery))
    if plan.exam:
        parts.append(1.0 if evidence.exam_passed_at is not None else 0.0)
    return sum(parts) / len(parts)


def standing(plan: Plan, plan_cards: Iterable[str], evidence: Evidence, due: datetime, now: datetime,
             completed_at: datetime | None = None) -> Standing:
    """Where a member stands at ``now``: done once recorded (``completed_at``) or found done;
    else late from the due time on; else not started while nothing of the plan was touched;
    else on track.

    A plan found done now is done at its exam's pass for an exam-only plan (known to the
    second), else at ``now``, the first time anyone looked (the caller records it)."""
    cards = tuple(plan_cards)
    share = progress(plan, cards, evidence)
    if completed_at is not None:
        return Standing("done", 1.0, completed_at)
    if share >= 1.0:
        done_at = evidence.exam_passed_at if not plan.practice and evidence.exam_passed_at else now
        return Standing("done", 1.0, done_at)
    if now >= due:
        return Standing("late", share)
    touched = bool(evidence.answered & frozenset(cards)) or evidence.exam_started
    return Standing("on_track" if touched else "not_started", share)


def plan_cards(content: Content, plan: Plan) -> tuple[str, ...]:
    """The cards the plan asks to practise, today's content: every card of its categories
    (``card_pool``: retired cards never) and its named cards still in the content."""
    rulesets = {split_key(key)[0] for key in plan.categories}
    pooled = card_pool(content, rulesets, plan.categories) if plan.categories else []
    named = [card_id for card_id in plan.cards if card_id in content.cards and not content.cards[card_id].retired]
    return tuple(dict.fromkeys([*pooled, *named]))
