"""Checks of a floor call's investigation (CONTENT.md, "Floor calls: investigate, then rule"):
who is asked, the order of follow-ups, what each step shows, and that neither the call nor a
question the judge asks gives the finding away."""

from __future__ import annotations

from collections.abc import Iterable

from quiz.content.finding_checks import telltale_in
from quiz.content.ruleset_checks import Finding
from quiz.model.cards import FloorCallCard, Step
from quiz.model.errors import unknown_id
from quiz.model.facts import FactSpec
from quiz.model.rulesets import Ruleset
from quiz.model.text import LANGUAGES
from quiz.model.words import Wording

QUIET_STEPS = 3  # steps that decide nothing: a judge's ordinary questions


def floor_call_problems(card: FloorCallCard, ruleset: Ruleset) -> list[Finding]:
    """Every problem of the card's people and steps, located at the field that has it."""
    found = _reference_problems(card) + _order_problems(card) + _separation_problems(card)
    found += _evidence_problems(card)
    specs = {spec.id: spec for spec in ruleset.facts}
    asked = [specs[fact] for fact in card.findings if fact in specs]
    found += _telltale_problems(card, asked)
    return found


def _reference_problems(card: FloorCallCard) -> list[Finding]:
    people = [person.id for person in card.people]
    found: list[Finding] = []
    steps = [step.id for step in card.steps]
    for index, conflict in enumerate(card.conflicts):
        for step_id in conflict.steps:
            if card.step(step_id) is None:
                found.append((("conflicts", index, "steps"), unknown_id("step", step_id, steps)))
        if all(not (step.shows if (step := card.step(s)) is not None else []) for s in conflict.steps):
            found.append((("conflicts", index, "steps"), Wording("problem.floor_call.conflict_decides_nothing")))
    for index, step in enumerate(card.steps):
        if step.ask is not None and card.person(step.ask) is None:
            found.append((("steps", index, "ask"), unknown_id("person", step.ask, people)))
        for fact in step.shows:
            if fact not in card.findings:
                found.append((("steps", index, "shows"), Wording("problem.floor_call.shows_no_finding", fact=fact,
                                                                 findings=", ".join(card.findings))))
    if not any(person.role == "offender" for person in card.people):
        found.append((("people",), Wording("problem.floor_call.no_offender")))
    return found


def _order_problems(card: FloorCallCard) -> list[Finding]:
    """An ``after`` that names no step, or that makes a circle."""
    ids = [step.id for step in card.steps]
    found: list[Finding] = []
    for index, step in enumerate(card.steps):
        for before in step.after:
            if before not in ids:
                found.append((("steps", index, "after"), unknown_id("step", before, ids)))
    if found:
        return found
    for index, step in enumerate(card.steps):
        circle = _circle_from(card, step)
        if circle is not None:
            found.append((("steps", index, "after"), Wording("problem.floor_call.circle",
                                                             circle=" → ".join(circle))))
    return found


def _circle_from(card: FloorCallCard, start: Step) -> list[str] | None:
    """The steps of a circle of ``after`` that leads back to ``start``, or None."""
    path: list[str] = []

    def visit(step_id: str) -> bool:
        step = card.step(step_id)
        if step is None or step_id in path:
            return False
        path.append(step_id)
        for before in step.after:
            if before == start.id or visit(before):
                return True
        path.pop()
        return False

    return path + [start.id] if visit(start.id) else None


def _separation_problems(card: FloorCallCard) -> list[Finding]:
    apart = [index for index, step in enumerate(card.steps) if step.separate]
    if card.separate and len(apart) != 1:
        return [(("separate",), Wording("problem.floor_call.separate_steps", count=len(apart)))]
    if not card.separate and apart:
        return [(("steps", apart[0], "separate"), Wording("problem.floor_call.separate_unset"))]
    return []


def _evidence_problems(card: FloorCallCard) -> list[Finding]:
    """Every finding shown by a step that is not leading; enough steps that show nothing."""
    found: list[Finding] = []
    offenders = {person.id for person in card.people if person.role == "offender"}
    for fact, finding in card.findings.items():
        showing = [step for step in card.steps if fact in step.shows and not step.leading]
        if not showing:
            found.append((("findings", fact), Wording("problem.floor_call.finding_not_shown", fact=fact)))
        elif finding.arguable is None and all(step.ask in offenders for step in showing):
            found.append((("findings", fact), Wording("problem.floor_call.admission_alone", fact=fact)))
    quiet = sum(not step.shows and not step.separate for step in card.steps)
    if quiet < QUIET_STEPS:
        found.append((("steps",), Wording("problem.floor_call.too_few_quiet_steps", count=quiet, least=QUIET_STEPS)))
    return found


def _telltale_problems(card: FloorCallCard, asked: Iterable[FactSpec]) -> list[Finding]:
    """The call (checked with the other findings' checks) and every question or check the judge
    makes that is not leading must not name a finding; replies may (a player's own words)."""
    specs = list(asked)
    found: list[Finding] = []
    for index, step in enumerate(card.steps):
        said = [("better", step.better)] if step.better is not None else []  # a leading question's better wording
        if not step.leading:
            said.append(("text", step.text))
        for field, text in said:
            for language in LANGUAGES:
                word = telltale_in(text.get(language), specs, language)
                if word is not None:
                    found.append((("steps", index, field, language),
                                  Wording("problem.floor_call.telltale", word=word[1], fact=word[0])))
    return found
