"""Questions a compiled ruleset answers about all the cases of an infraction.

Conditions compare facts only with literal values, so the verdict of an infraction is
constant between the cut points of its conditions. Enumerating one value per interval of
every fact the infraction's path reads (its rules, the infractions it ``becomes``, the
escalations and the upgrades) visits every distinct verdict the document gives for it.
From that the engine answers "under which facts does this infraction get penalty P",
following ``becomes``, escalations and upgrades exactly as ``judge`` does, because it *is*
``judge``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Mapping

from quiz.model.errors import UndecidedCaseError
from quiz.model.facts import FactValue, resolve_facts
from quiz.model.rulesets import Ruleset
from quiz.model.verdict import Verdict
from quiz.rules.conditions import Condition, fact_clause, sentence, span_clause
from quiz.rules.engine import CompiledRuleset, compile_ruleset, judge

Outcome = Verdict | UndecidedCaseError


@dataclass(frozen=True, slots=True)
class Case:
    """One representative case: facts (every fact the path reads) and the engine's outcome."""

    facts: Mapping[str, FactValue]
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Route:
    """The nearest case in which a penalty is right: the facts to change, and its verdict.

    ``standard`` is true when the penalty is the standard one there, false when it is only
    accepted (a discretionary upgrade).
    """

    changes: Mapping[str, FactValue]
    verdict: Verdict
    standard: bool


def read_facts(ruleset: Ruleset, infraction: str) -> tuple[str, ...]:
    """Facts that can change the penalty, fixes or players of ``infraction``, in declaration order."""
    book = compile_ruleset(ruleset)
    return book.derived.setdefault(("reads", infraction), _read_facts(book, infraction))


def _conditions(book: CompiledRuleset, infraction: str) -> list[Condition]:
    found: list[Condition] = []
    seen: set[str] = set()
    frontier = [infraction]
    while frontier:
        current = frontier.pop()
        if current in seen:
            continue
        seen.add(current)
        for compiled in book.infractions[current][1]:
            if compiled.when is not None:
                found.append(compiled.when)
            if compiled.rule.becomes is not None:
                frontier.append(compiled.rule.becomes)
    found += [e.when for e in book.escalations]
    found += [u.when for u in book.upgrades if u.branches is None or any(b.split("/")[0] in seen for b in u.branches)]
    return found


def _read_facts(book: CompiledRuleset, infraction: str) -> tuple[str, ...]:
    names: set[str] = set(book.infractions[infraction][0].requires)
    for condition in _conditions(book, infraction):
        names |= condition.facts()
    return tuple(name for name in book.fact_order if name in names)


def sample_values(ruleset: Ruleset, infraction: str) -> dict[str, tuple[FactValue, ...]]:
    """One value per interval of each fact the infraction reads (both values of a true/false fact)."""
    book = compile_ruleset(ruleset)
    cuts: dict[str, set[int]] = {}
    for condition in _conditions(book, infraction):
        for name, points in condition.cut_points().items():
            cuts.setdefault(name, set()).update(points)
    values: dict[str, tuple[FactValue, ...]] = {}
    for name in read_facts(ruleset, infraction):
        spec = book.facts[name]
        if spec.type == "bool":
            values[name] = (False, True)
        else:
            floor = spec.min if spec.min is not None else 0
            points = {floor, *(p for p in cuts.get(name, ()) if p >= floor)}
            if isinstance(spec.default, int):
                points.add(spec.default)
            values[name] = tuple(sorted(points))
    return values


def cases(ruleset: Ruleset, infraction: str) -> tuple[Case, ...]:
    """Every distinct case of ``infraction``: one per combination of sampled values."""
    book = compile_ruleset(ruleset)
    key = ("cases", infraction)
    if key not in book.derived:
        values = sample_values(ruleset, infraction)
        names = list(values)
        found = []
        for combination in itertools.product(*values.values()):
            facts = dict(zip(names, combination))
            try:
                outcome: Outcome = judge(ruleset, infraction, facts)
            except UndecidedCaseError as refused:
                outcome = refused
            found.append(Case(facts, outcome))
        book.derived[key] = tuple(found)
    return book.derived[key]


def possible_penalties(ruleset: Ruleset, infraction: str) -> frozenset[str]:
    """Every penalty that is standard or accepted in some case of ``infraction``."""
    return frozenset(p for case in cases(ruleset, infraction) if isinstance(case.outcome, Verdict)
                     for p in case.outcome.accepted)


def can_name_both_players(ruleset: Ruleset, infraction: str) -> bool:
    """Whether some case of ``infraction`` gives the penalty to both players."""
    return any(isinstance(c.outcome, Verdict) and c.outcome.players == "both" for c in cases(ruleset, infraction))


def route_to_penalty(ruleset: Ruleset, infraction: str, penalty: str, given: Mapping[str, Any]) -> Route | None:
    """The case nearest to ``given`` (fewest facts changed) in which ``penalty`` is right.

    A case where it is the standard penalty wins over one where it is only accepted at equal
    distance. None when no facts make it right for this infraction.
    """
    book = compile_ruleset(ruleset)
    entry = book.infractions[infraction][0]
    current = resolve_facts(book.facts, given, (), entry.assumes)
    best: tuple[tuple[int, int], Route] | None = None
    for case in cases(ruleset, infraction):
        verdict = case.outcome
        if not isinstance(verdict, Verdict) or penalty not in verdict.accepted:
            continue
        changes = {
            name: value
            for name, value in case.facts.items()
            if not _same_interval(ruleset, infraction, name, current.get(name), value)
        }
        standard = verdict.penalty == penalty
        rank = (len(changes), 0 if standard else 1)
        if best is None or rank < best[0]:
            best = (rank, Route(changes, verdict, standard))
    return best[1] if best is not None else None


def _same_interval(ruleset: Ruleset, infraction: str, name: str, actual: Any, sample: FactValue) -> bool:
    if actual is None:
        return False
    if isinstance(sample, bool):
        return actual == sample
    low, high = interval(ruleset, infraction, name, sample)
    return actual >= low and (high is None or actual <= high)


def interval(ruleset: Ruleset, infraction: str, name: str, value: int) -> tuple[int, int | None]:
    """The interval of sampled values ``value`` stands for: (low, high), high None for no end."""
    points = sample_values(ruleset, infraction)[name]
    low = max((p for p in points if isinstance(p, int) and p <= value), default=value)
    higher = [p for p in points if isinstance(p, int) and p > value]
    return low, (min(higher) - 1 if higher else None)


def describe_changes(ruleset: Ruleset, infraction: str, changes: Mapping[str, FactValue], language: str) -> list[str]:
    """The facts of a route as sentences, a whole-number fact as the interval it stands for
    (``The player was 5 to 9 minutes late after the call``)."""
    specs = {f.id: f for f in ruleset.facts}
    lines = []
    for name, value in changes.items():
        if isinstance(value, bool):
            clause = fact_clause(specs.get(name), name, value, language)
        else:
            low, high = interval(ruleset, infraction, name, value)
            clause = span_clause(specs.get(name), name, low, high, language)
        lines.append(sentence(clause, language))
    return lines


def infractions_with_penalty(ruleset: Ruleset, penalty: str, exclude: str | None = None) -> list[str]:
    """Ids of the infractions some case of which gives ``penalty`` as the standard penalty."""
    return [
        inf.id for inf in ruleset.infractions
        if inf.id != exclude and any(
            isinstance(c.outcome, Verdict) and c.outcome.penalty == penalty and c.outcome.infraction == inf.id
            for c in cases(ruleset, inf.id)
        )
    ]
