"""A floor call's investigation: which steps can be taken next, and how the steps taken
before the ruling are graded (CONTENT.md, "Floor calls: investigate, then rule").

The ruling decides whether an answer is right; the investigation is reported beside it:
each finding's evidence gathered or missed, the leading questions asked, the round time used
against the budget, and, where the players should be questioned apart, whether they were."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from quiz.model.cards import FloorCallCard, Person, Step
from quiz.model.errors import StepError, unknown_id
from quiz.model.investigation import GATHERED, MISSED, InvestigationRecord
from quiz.model.text import Text
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


def resumed_steps(card: FloorCallCard, *parts: Iterable[str]) -> tuple[str, ...]:
    """The steps of ``parts`` (an answer's steps kept, then those taken since), in order, each
    once; a step the card no longer has, or one whose earlier steps are missing, is left out
    (the content changed under an open investigation)."""
    done: list[str] = []
    for part in parts:
        for step_id in part:
            step = card.step(step_id)
            if step is not None and step_id not in done and set(step.after) <= set(done):
                done.append(step_id)
    return tuple(done)


@dataclass(frozen=True, slots=True)
class Exchange:
    """One step taken, as the conversation shows it: the person asked (None for a check or for
    taking the players apart) and whether the other player heard it."""

    step: Step
    person: Person | None
    overheard: bool = False


def conversation(card: FloorCallCard, taken: Sequence[str]) -> list[Exchange]:
    """The steps taken, in order, with who answered each; on a call whose players should be
    questioned apart, a question to a player before they were is marked overheard."""
    players = {person.id for person in card.people if person.role in PLAYER_ROLES}
    apart = False
    exchanges: list[Exchange] = []
    for step_id in resumed_steps(card, taken):
        step = card.step(step_id)
        assert step is not None, "resumed_steps keeps the card's steps only"
        apart = apart or step.separate
        person = card.person(step.ask) if step.ask is not None else None
        exchanges.append(Exchange(step, person, card.separate and not apart and step.ask in players))
    return exchanges


def better_wording(card: FloorCallCard, step: Step) -> Text | None:
    """How a leading question is asked without suggesting its answer: the card's ``better``,
    else a question to the same person that is not leading and shows the same finding, else
    that person's first open question (one that follows nothing); None for a step that is not
    leading, or when the person has no other question."""
    if not step.leading:
        return None
    if step.better is not None:
        return step.better
    others = [s for s in card.steps if s.ask == step.ask and not s.leading and s.id != step.id]
    same = [s for s in others if set(s.shows) & set(step.shows)]
    first = same or [s for s in others if not s.after]
    return first[0].text if first else None


@dataclass(frozen=True, slots=True)
class FindingEvidence:
    """A finding and the steps that decide it, each with whether it was taken."""

    fact: str
    steps: tuple[tuple[Step, bool], ...]

    @property
    def gathered(self) -> bool:
        return any(taken for _, taken in self.steps)


@dataclass(frozen=True, slots=True)
class LeadingQuestion:
    step: Step
    person: Person | None
    better: Text | None


@dataclass(frozen=True, slots=True)
class SettledConflict:
    """Replies that disagreed (each with who said it, and whether it was heard) and what settles them."""

    replies: tuple[tuple[Exchange, bool], ...]
    settled: Text


@dataclass(frozen=True, slots=True)
class Debrief:
    """What the debrief of a floor call shows of its investigation, beside the ruling."""

    findings: tuple[FindingEvidence, ...]
    leading: tuple[LeadingQuestion, ...]
    conflicts: tuple[SettledConflict, ...]
    seconds: int
    budget_seconds: int
    separate: bool  # the players should have been questioned apart
    separated: bool | None
    overheard: tuple[Exchange, ...]

    @property
    def over_budget(self) -> bool:
        return self.seconds > self.budget_seconds


def debrief(card: FloorCallCard, record: InvestigationRecord) -> Debrief:
    """The investigation of an answer (its stored record) laid out for the debrief: the steps
    that decide each finding (missed ones marked), the leading questions with a better
    wording, the conflicting replies and what settles them, the round time, and whether the
    players were separated (with the questions the other player heard)."""
    taken = set(record.steps)
    exchanges = {exchange.step.id: exchange for exchange in conversation(card, record.steps)}

    def exchange(step: Step) -> Exchange:
        found = exchanges.get(step.id)
        return found or Exchange(step, card.person(step.ask) if step.ask is not None else None)

    findings = tuple(FindingEvidence(fact, tuple((step, step.id in taken) for step in deciding_steps(card, fact)))
                     for fact in card.findings)
    leading = tuple(LeadingQuestion(step, card.person(step.ask or ""), better_wording(card, step))
                    for step_id in record.leading if (step := card.step(step_id)) is not None)
    conflicts = tuple(
        SettledConflict(tuple((exchange(step), step.id in taken)
                              for step_id in conflict.steps if (step := card.step(step_id)) is not None),
                        conflict.settled)
        for conflict in card.conflicts)
    overheard = tuple(exchanges[step_id] for step_id in record.overheard if step_id in exchanges)
    return Debrief(findings, leading, conflicts, record.seconds, record.budget_seconds or card.budget_seconds,
                   card.separate, record.separated, overheard)


def round_clock(seconds: int) -> str:
    """Round time as ``M:SS``."""
    minutes, rest = divmod(max(seconds, 0), 60)
    return f"{minutes}:{rest:02d}"
