"""Explanations in words: conditions, and when a penalty the trainee chose would apply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from quiz.ruleset_model import Infraction, Ruleset
from quiz.text import Text

SYMBOLS = {"eq": "=", "ne": "≠", "gt": ">", "gte": "≥", "lt": "<", "lte": "≤"}
WORDS = {
    "yes": Text(ja="はい", en="yes"),
    "no": Text(ja="いいえ", en="no"),
    "and": Text(ja="かつ", en="and"),
    "or": Text(ja="または", en="or"),
    "not": Text(ja="次ではない", en="not"),
    "otherwise": Text(ja="上記のいずれにも当たらない場合", en="otherwise (none of the cases above)"),
    "unless": Text(ja="ただし次の場合を除く", en="unless"),
    "always": Text(ja="常に（この違反のすべての場合）", en="always (every case of this infraction)"),
}


def describe_condition(ruleset: Ruleset, raw: Mapping[str, Any] | None, language: str) -> str:
    """A condition in words, e.g. ``Minutes late after the call ≥ 5``."""
    if not raw:
        return WORDS["otherwise"].get(language)
    names = {f.id: f.name.get(language) for f in ruleset.facts}
    parts = [_describe_key(ruleset, key, value, names, language) for key, value in raw.items()]
    return f" {WORDS['and'].get(language)} ".join(parts)


def _describe_key(ruleset: Ruleset, key: str, value: Any, names: dict[str, str], language: str) -> str:
    if key in ("all", "any"):
        joiner = WORDS["and" if key == "all" else "or"].get(language)
        inner = [describe_condition(ruleset, item, language) for item in value]
        return "(" + f" {joiner} ".join(inner) + ")"
    if key == "not":
        return f"{WORDS['not'].get(language)}: ({describe_condition(ruleset, value, language)})"
    name = names.get(key, key)
    if isinstance(value, bool):
        return f"{name}: {WORDS['yes' if value else 'no'].get(language)}"
    if isinstance(value, Mapping):
        return ", ".join(f"{name} {SYMBOLS[op]} {operand}" for op, operand in value.items())
    return f"{name} = {value}"


@dataclass(frozen=True, slots=True)
class PenaltyConditions:
    """When a penalty would be the answer: conditions for this infraction, or else the
    other infractions of the document that carry it."""

    conditions: list[str]
    other_infractions: list[str]


def describe_rule(ruleset: Ruleset, infraction: Infraction, index: int, language: str) -> str:
    """The condition of the ``index``-th rule; a first rule without one applies always."""
    rule = infraction.rules[index]
    if rule.when is None and index == 0:
        return WORDS["always"].get(language)
    return describe_condition(ruleset, rule.when, language)


def when_penalty_applies(ruleset: Ruleset, infraction_id: str, penalty_id: str, language: str) -> PenaltyConditions:
    """Circumstances under which ``penalty_id`` would be the answer for this infraction.

    Looks at the infraction's own rules, then escalations that lead to the penalty, then
    discretionary upgrades; when none gives it, names the infractions that do.
    """
    infraction = ruleset.infraction(infraction_id)
    found: list[str] = []
    if infraction is not None:
        earlier: list[str] = []
        for index, rule in enumerate(infraction.rules):
            text = describe_rule(ruleset, infraction, index, language)
            if rule.penalty == penalty_id:
                if earlier:
                    text = f"{text} ({WORDS['unless'].get(language)}: {'; '.join(earlier)})"
                found.append(text)
            if rule.when:
                earlier.append(describe_condition(ruleset, rule.when, language))
        for escalation in ruleset.escalations:
            standard = {r.penalty for r in infraction.rules}
            if escalation.to == penalty_id and standard & set(escalation.from_penalties):
                found.append(describe_condition(ruleset, escalation.when, language))
        ranks = {p.id: i for i, p in enumerate(ruleset.ladder)}
        for upgrade in ruleset.upgrades:
            if upgrade.infractions is not None and infraction_id not in upgrade.infractions:
                continue
            if any(r.penalty and ranks[penalty_id] - ranks[r.penalty] in range(1, upgrade.steps + 1)
                   for r in infraction.rules):
                found.append(describe_condition(ruleset, upgrade.when, language))
    if found:
        return PenaltyConditions(found, [])
    others = [
        i.name.get(language)
        for i in ruleset.infractions
        if i.id != infraction_id and any(r.penalty == penalty_id for r in i.rules)
    ]
    return PenaltyConditions([], others)


def describe_facts(ruleset: Ruleset, facts: Mapping[str, Any], language: str) -> list[str]:
    """Facts in words, one per line, e.g. ``Minutes late after the call: 7``."""
    names = {f.id: f.name.get(language) for f in ruleset.facts}
    return [
        f"{names.get(key, key)}: {WORDS['yes' if value else 'no'].get(language) if isinstance(value, bool) else value}"
        for key, value in facts.items()
    ]
