"""Explanations in words, every one derived from the engine: conditions (from the parsed
condition tree), and when a penalty the trainee chose would have been right (from
``quiz.rules.outcomes``, which asks the engine itself)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from quiz.model.rulesets import Infraction, Ruleset
from quiz.model.text import Text
from quiz.model.verdict import Verdict
from quiz.rules.engine import compile_ruleset
from quiz.rules.outcomes import describe_changes, infractions_with_penalty, route_to_penalty

WORDS = {
    "yes": Text(ja="はい", en="yes"),
    "no": Text(ja="いいえ", en="no"),
    "otherwise": Text(ja="上記のいずれにも当たらない場合", en="otherwise (none of the cases above)"),
    "always": Text(ja="常に（この違反のすべての場合）", en="always (every case of this infraction)"),
}


def fact_names(ruleset: Ruleset, language: str) -> dict[str, str]:
    return {f.id: f.name.get(language) for f in ruleset.facts}


def describe_rule(ruleset: Ruleset, infraction: Infraction, index: int, language: str) -> str:
    """The condition of the ``index``-th rule in words; a first rule without one applies always."""
    compiled = compile_ruleset(ruleset).infractions[infraction.id][1][index]
    if compiled.when is None:
        return WORDS["always" if index == 0 else "otherwise"].get(language)
    return compiled.when.describe(fact_names(ruleset, language), language)


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
    """

    changes: list[str]
    standard: bool
    judged_as: str | None
    verdict: Verdict | None
    other_infractions: list[str]

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
    )


def describe_facts(ruleset: Ruleset, facts: Mapping[str, Any], language: str) -> list[str]:
    """Facts in words, one per line, e.g. ``Minutes late after the call: 7``."""
    names = fact_names(ruleset, language)
    return [
        f"{names.get(key, key)}: {WORDS['yes' if value else 'no'].get(language) if isinstance(value, bool) else value}"
        for key, value in facts.items()
    ]
