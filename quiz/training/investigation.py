"""A floor call's investigation: which steps can be taken next, and how the steps taken
before the ruling are graded (CONTENT.md, "Floor calls: investigate, then rule").

The ruling decides whether an answer is right; the investigation is reported beside it:
each finding's evidence gathered or missed, the leading questions asked, the round time used
against the budget, and, where the players should be questioned apart, whether they were."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from quiz.model.cards import FloorCallCard, Step
from quiz.model.errors import StepError, unknown_id
from quiz.model.investigation import GATHERED, MISSED, InvestigationRecord
from quiz.model.words import Wording

PLAYER_ROLES = frozenset({"offender", "opponent"})


def open_steps(card: FloorCallCard, taken: Iterable[str]) -> list[Step]:
    """The steps the trainee can take now, in the card's order: not yet taken, and every step
    they follow taken."""
    done = set(taken)
    return [step for step in card.steps if step.id not in done and set(step.after) <= done]


def checked_steps(card: FloorCallCard, steps: Sequence[str]) -> tuple[str, ...]:
    """``steps`` as the investigation's order, each once; ``StepError`` for a step the card
    does not have or one taken before a step it follows."""
    done: list[str] = []
    for step_id in steps:
        step = card.step(step_id)
        if step is None:
            raise StepError(unknown_id("step", step_id, (s.id for s in card.steps)))
        if step_id in done:
            continue
        missing = [before for before in step.after if before not in done]
        if missing:
            raise StepError(Wording("problem.floor_call.step_too_soon", step=step_id, after=", ".join(missing)))
        done.append(step_id)
    return tuple(done)


def seconds_used(card: FloorCallCard, steps: Iterable[str]) -> int:
    """The round time the steps take."""
    return sum(step.cost for step_id in steps if (step := card.step(step_id)) is not None)


def investigate(card: FloorCallCard, steps: Sequence[str]) -> InvestigationRecord:
    """Grade the steps taken before the ruling (``checked_steps`` first: ``StepError``)."""
    taken = checked_steps(card, steps)
    chosen = [step for step_id in taken if (step := card.step(step_id)) is not None]
    shown = {fact for step in chosen if not step.leading for fact in step.shows}
    players = {person.id for person in card.people if person.role in PLAYER_ROLES}
    overheard: list[str] = []
    separated: bool | None = None
    if card.separate:
        apart_at = next((n for n, step in enumerate(chosen) if step.separate), None)
        before = chosen if apart_at is None else chosen[:apart_at]
        overheard = [step.id for step in before if step.ask in players]
        separated = apart_at is not None and not overheard
    return InvestigationRecord(
        steps=taken,
        evidence=tuple((fact, GATHERED if fact in shown else MISSED) for fact in card.findings),
        leading=tuple(step.id for step in chosen if step.leading),
        seconds=seconds_used(card, taken),
        budget_seconds=card.budget_seconds,
        separated=separated,
        overheard=tuple(overheard),
    )


def deciding_steps(card: FloorCallCard, fact: str) -> list[Step]:
    """The steps whose replies show ``fact`` and count as gathering it (not leading)."""
    return [step for step in card.steps if fact in step.shows and not step.leading]
