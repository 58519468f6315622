"""Explanations in words, every one derived from the engine: conditions (from the parsed
condition tree), and when a penalty the trainee chose would have been right (from
``quiz.rules.outcomes``, which asks the engine itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from quiz.model.rulesets import Infraction, Ruleset
from quiz.model.verdict import Verdict
from quiz.model.words import t
from quiz.rules.conditions import All, Condition, fact_clause, negate, sentence
from quiz.rules.engine import compile_ruleset
from quiz.rules.outcomes import describe_changes, infractions_with_penalty, route_to_penalty


def describe_rule(ruleset: Ruleset, infraction: Infraction, index: int, language: str) -> str:
    """When the ``index``-th rule applies, as a sentence; a first rule without a condition applies always.

    Rules are tried in order, so a rule applies only when none before it does: what the earlier
    rules rule out is said too (``5 to 9 minutes late`` after a rule for 10 or more, ``fewer
    than 5 minutes late`` for the last rule, which has no condition of its own).
    """
    clause = rule_clause(ruleset, infraction, index, language)
    return t("rule.always", language) if clause is None else sentence(clause, language)


def rule_clause(ruleset: Ruleset, infraction: Infraction, index: int, language: str) -> str | None:
    """``describe_rule`` as a clause to go inside a sentence (``the player was 5 to 9 minutes
    late after the call``); None when the rule applies in every case."""
    book = compile_ruleset(ruleset)
    rules = book.infractions[infraction.id][1]
    parts: list[Condition] = [negate(earlier.when) for earlier in rules[:index] if earlier.when is not None]
    when = rules[index].when
    if when is not None:
        parts.append(when)
    if not parts:
        return None
    return (parts[0] if len(parts) == 1 else All(tuple(parts))).words(book.facts, language)


@dataclass(frozen=True, slots=True)
class PenaltyExplanation:
    """When the penalty a trainee chose would have been right, in the engine's own terms.

    Attributes:
        changes: the facts that would have to differ from the card's, in words (empty when
            none need to: the penalty is right as the card stands).
        standard: it would be the standard penalty (False: only accepted, at the judge's discretion).
        judged_as: the infraction the case would then be judged as, when not the card's own.
        verdict: the engine's verdict for that case.
        other_infractions: when no facts make it right here, the infractions that carry it.
        discretion: when it would only be accepted, what lets the judge give it: the words of
            each discretionary upgrade on the way (with how far the app reads its range).
    """

    changes: list[str]
    standard: bool
    judged_as: str | None
    verdict: Verdict | None
    other_infractions: list[str]
    discretion: list[str] = field(default_factory=list)

    @property
    def possible(self) -> bool:
        return self.verdict is not None


def explain_penalty(
    ruleset: Ruleset, infraction: str, penalty: str, facts: Mapping[str, Any], language: str
) -> PenaltyExplanation:
    """Under which facts ``penalty`` would be right for this card's ``infraction``: the nearest
    case the engine gives it in (following ``becomes``, escalations and upgrades), or else
    the infractions that carry it."""
    route = route_to_penalty(ruleset, infraction, penalty, facts)
    if route is None:
        names = [
            ruleset.name_of("infraction", i, language) for i in infractions_with_penalty(ruleset, penalty, infraction)
        ]
        return PenaltyExplanation([], False, None, None, names)
    judged_as = route.verdict.infraction if route.verdict.infraction != infraction else None
    return PenaltyExplanation(
        changes=describe_changes(ruleset, infraction, route.changes, language),
        standard=route.standard,
        judged_as=judged_as,
        verdict=route.verdict,
        other_infractions=[],
        discretion=[] if route.standard else upgrade_reasons(ruleset, route.verdict, language),
    )


def upgrade_reasons(ruleset: Ruleset, verdict: Verdict, language: str) -> list[str]:
    """The explanations of the discretionary upgrades ``verdict`` passed through, in order."""
    passed = {branch.rsplit("/", 1)[1] for branch in verdict.trace if branch.startswith(f"{ruleset.id}/upgrade/")}
    return [upgrade.explain.get(language) for upgrade in ruleset.upgrades if upgrade.id in passed]


def describe_facts(ruleset: Ruleset, facts: Mapping[str, Any], language: str) -> list[str]:
    """Facts as sentences, one per line, e.g. ``The player was 7 minutes late after the call``."""
    specs = {f.id: f for f in ruleset.facts}
    return [sentence(fact_clause(specs.get(key), key, value, language), language) for key, value in facts.items()]


def applies_to_words(verdict: Verdict, language: str) -> str:
    """Where the penalty applies, in words; where the document only lets the judge apply it
    there (a discretionary scope, e.g. ジャッジの判断で…できる), the words say "may"."""
    scope = t(f"scope.{verdict.applies_to}", language)
    return t("feedback.applies_to_may", language, scope=scope) if verdict.scope_discretionary else scope
