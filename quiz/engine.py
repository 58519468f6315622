"""The rules engine: (ruleset, infraction, facts) -> Verdict, with no game-specific code.

Rules of an infraction are tried in order and the first whose condition holds decides;
a rule may hand the case to another infraction (``becomes``). Then the ruleset's
escalations may replace the penalty, the ladder adds its scope and optional fixes, and
discretionary upgrades widen what a grader accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from quiz.conditions import Predicate, parse_condition
from quiz.errors import UnknownIdError
from quiz.facts import FactSpec, resolve_facts
from quiz.ruleset_model import Citation, Escalation, Infraction, Penalty, Rule, Ruleset, Upgrade
from quiz.text import Text
from quiz.verdict import CitedLine, Verdict

MAX_HOPS = 8
MEMO_LIMIT = 50_000


@dataclass(frozen=True, slots=True)
class _Rule:
    rule: Rule
    holds: Predicate | None
    cited: CitedLine


@dataclass(frozen=True, slots=True)
class _Compiled:
    ruleset: Ruleset
    facts: dict[str, FactSpec]
    infractions: dict[str, tuple[Infraction, tuple[_Rule, ...]]]
    penalties: dict[str, Penalty]
    ranks: dict[str, int]
    escalations: tuple[tuple[Escalation, Predicate, frozenset[str], CitedLine], ...]
    upgrades: tuple[tuple[Upgrade, Predicate, frozenset[str] | None, CitedLine], ...]
    penalty_citations: dict[str, CitedLine]
    fix_citations: dict[str, CitedLine]
    fact_order: tuple[str, ...]
    memo: dict[tuple, Verdict]


def compile_ruleset(ruleset: Ruleset) -> _Compiled:
    """Parse every condition of a (checked) ruleset once; cached on the ruleset."""
    cached = ruleset.__pydantic_private__["_compiled"]  # plain dict access: judge is hot
    if cached is not None:
        return cached
    facts = {spec.id: spec for spec in ruleset.facts}
    source_lines = ruleset.source_lines
    title = ruleset.document.title.ja

    def cite(citation: Citation, role: str) -> CitedLine:
        return CitedLine(title, role, citation.ja, citation.en, line_numbers(citation.ja, source_lines))

    def predicate(raw: Any) -> Predicate | None:
        return parse_condition(raw, facts) if raw is not None else None

    compiled = _Compiled(
        ruleset=ruleset,
        facts=facts,
        infractions={
            inf.id: (inf, tuple(_Rule(r, predicate(r.when), cite(r.citation, "rule")) for r in inf.rules))
            for inf in ruleset.infractions
        },
        penalties={p.id: p for p in ruleset.ladder},
        ranks={p.id: i for i, p in enumerate(ruleset.ladder)},
        escalations=tuple(
            (e, parse_condition(e.when, facts), frozenset(e.from_penalties), cite(e.citation, "escalation"))
            for e in ruleset.escalations
        ),
        upgrades=tuple(
            (
                u,
                parse_condition(u.when, facts),
                frozenset(u.infractions) if u.infractions is not None else None,
                cite(u.citation, "upgrade"),
            )
            for u in ruleset.upgrades
        ),
        penalty_citations={p.id: cite(p.citation, "penalty") for p in ruleset.ladder},
        fix_citations={f.id: cite(f.citation, "fix") for f in ruleset.fixes},
        fact_order=tuple(facts),
        memo={},
    )
    ruleset._compiled = compiled
    return compiled


def line_numbers(quote: str, source_lines: list[str]) -> tuple[int, ...]:
    """1-based source line numbers of each line of ``quote``, read in document order.

    Each quoted line is looked for after the previous one first (so a repeated line such
    as a penalty heading is found in the right section), then from the start.
    """
    found: list[int] = []
    start = 0
    for part in quote.split("\n"):
        if not part:
            continue
        index = _find_line(part, source_lines, start)
        if index is None:
            index = _find_line(part, source_lines, 0)
        if index is not None:
            found.append(index + 1)
            start = index + 1
    return tuple(found)


def _find_line(part: str, source_lines: list[str], start: int) -> int | None:
    return next((i for i in range(start, len(source_lines)) if part in source_lines[i]), None)


def judge(ruleset: Ruleset, infraction: str, facts: Mapping[str, Any] | None = None) -> Verdict:
    """The verdict the ruleset's document gives for ``infraction`` under ``facts``.

    Raises:
        UnknownIdError: the infraction is not in the ruleset.
        FactError: a fact is unknown, of the wrong type, or required and missing.
    """
    book = compile_ruleset(ruleset)
    entry = book.infractions.get(infraction)
    if entry is None:
        raise UnknownIdError(
            f"unknown infraction {infraction!r} in ruleset {ruleset.id}; "
            f"known: {', '.join(book.infractions)}"
        )
    resolved = resolve_facts(book.facts, facts or {}, entry[0].requires)
    key = (infraction, *(resolved.get(name) for name in book.fact_order))
    verdict = book.memo.get(key)
    if verdict is None:
        verdict = _decide(ruleset, book, infraction, resolved)
        if len(book.memo) >= MEMO_LIMIT:
            book.memo.clear()
        book.memo[key] = verdict
    return verdict


def _decide(ruleset: Ruleset, book: _Compiled, infraction: str, resolved: Mapping[str, Any]) -> Verdict:
    """The verdict for resolved facts (pure: the same facts always give the same verdict)."""
    trace: list[str] = []
    citations: list[CitedLine] = []
    explanations: list[Text] = []
    current = infraction
    for _ in range(MAX_HOPS):
        inf, rules = book.infractions[current]
        chosen = next(r for r in rules if r.holds is None or r.holds(resolved))
        trace.append(f"{ruleset.id}/{current}/{chosen.rule.id}")
        citations.append(chosen.cited)
        explanations.append(chosen.rule.explain)
        if chosen.rule.becomes is None:
            break
        current = chosen.rule.becomes
    rule = chosen.rule
    penalty: str = rule.penalty  # type: ignore[assignment]  # checked: rules end in a penalty
    fixes: tuple[str, ...] = tuple(rule.fixes)
    optional: tuple[str, ...] = tuple(rule.optional_fixes)

    for escalation, holds, sources, cited in book.escalations:
        if penalty in sources and holds(resolved):
            penalty, fixes, optional = escalation.to, tuple(escalation.fixes), tuple(escalation.optional_fixes)
            trace.append(f"{ruleset.id}/escalation/{escalation.id}")
            citations.insert(0, cited)
            explanations.append(escalation.explain)
            break

    rung = book.penalties[penalty]
    optional = _unique(optional + tuple(rung.optional_fixes))
    optional = tuple(f for f in optional if f not in fixes)
    applies_to = rung.applies_to
    if resolved.get("between_games") and rung.between_games_applies_to:
        applies_to = rung.between_games_applies_to
    citations.append(book.penalty_citations[penalty])
    for fix in fixes + optional:
        cited = book.fix_citations[fix]
        if not any(cited.ja in other.ja for other in citations):
            citations.append(cited)

    accepted = [penalty]
    rank = book.ranks[penalty]
    for upgrade, holds, only, cited in book.upgrades:
        if (only is None or current in only) and holds(resolved):
            trace.append(f"{ruleset.id}/upgrade/{upgrade.id}")
            citations.append(cited)
            explanations.append(upgrade.explain)
            for step in range(1, upgrade.steps + 1):
                if rank + step < len(ruleset.ladder):
                    accepted.append(ruleset.ladder[rank + step].id)

    return Verdict(
        ruleset=ruleset.id,
        infraction=current,
        penalty=penalty,
        players=rule.players,
        accepted=_unique(tuple(accepted)),
        fixes=fixes,
        optional_fixes=optional,
        applies_to=applies_to,
        citations=tuple(citations),
        trace=tuple(trace),
        explanations=tuple(explanations),
    )


def _unique(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
