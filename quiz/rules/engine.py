"""The rules engine: (ruleset, infraction, facts) -> Verdict, with no game-specific code.

Rules of an infraction are tried in order and the first whose condition holds decides;
a rule may hand the case to another infraction (``becomes``) or refuse it (``undecided``:
the document does not decide it). Then the ruleset's escalations may replace the penalty
(the original fixes stay unless the case can no longer be put right), the ladder adds its
optional fixes and where the penalty applies, and discretionary upgrades widen what a
grader accepts, up to the cap each names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from quiz.model.errors import UndecidedCaseError, UnknownIdError
from quiz.model.facts import FactSpec, resolve_facts
from quiz.model.rulesets import Citation, Escalation, Infraction, Penalty, Rule, Ruleset, Upgrade
from quiz.model.text import Text
from quiz.model.verdict import CitedLine, Verdict
from quiz.model.words import Wording
from quiz.rules.conditions import Condition, parse_condition

MAX_HOPS = 8
MEMO_LIMIT = 50_000


@dataclass(frozen=True, slots=True)
class CompiledRule:
    rule: Rule
    when: Condition | None
    cited: CitedLine


@dataclass(frozen=True, slots=True)
class CompiledScopeRule:
    when: Condition
    applies_to: str
    discretionary: bool
    cited: CitedLine


@dataclass(frozen=True, slots=True)
class CompiledEscalation:
    escalation: Escalation
    when: Condition
    sources: frozenset[str]
    cited: CitedLine


@dataclass(frozen=True, slots=True)
class CompiledUpgrade:
    upgrade: Upgrade
    when: Condition
    branches: frozenset[str] | None
    cap: int
    cited: CitedLine


@dataclass(slots=True)
class CompiledRuleset:
    """A checked ruleset with every condition parsed once; what the engine and its queries read."""

    ruleset: Ruleset
    facts: dict[str, FactSpec]
    infractions: dict[str, tuple[Infraction, tuple[CompiledRule, ...]]]
    penalties: dict[str, Penalty]
    ranks: dict[str, int]
    scopes: dict[str, tuple[CompiledScopeRule, ...]]
    escalations: tuple[CompiledEscalation, ...]
    upgrades: tuple[CompiledUpgrade, ...]
    penalty_citations: dict[str, CitedLine]
    fix_citations: dict[str, CitedLine]
    fact_order: tuple[str, ...]
    memo: dict[tuple, Verdict | UndecidedCaseError] = field(default_factory=dict)
    derived: dict[Any, Any] = field(default_factory=dict)  # answers of quiz.rules.outcomes, per query


def compile_ruleset(ruleset: Ruleset) -> CompiledRuleset:
    """Parse every condition of a (checked) ruleset once; cached on the ruleset."""
    cached = ruleset.compiled()
    if isinstance(cached, CompiledRuleset):
        return cached
    facts = {spec.id: spec for spec in ruleset.facts}
    source_lines = ruleset.source_lines
    title = ruleset.document.title.ja
    ranks = {p.id: i for i, p in enumerate(ruleset.ladder)}

    def cite(citation: Citation, role: str) -> CitedLine:
        return CitedLine(title, role, citation.ja, citation.en, line_numbers(citation.ja, source_lines))

    def parse(raw: Any) -> Condition:
        return parse_condition(raw, facts)

    compiled = CompiledRuleset(
        ruleset=ruleset,
        facts=facts,
        infractions={
            inf.id: (inf, tuple(
                CompiledRule(r, parse(r.when) if r.when is not None else None, cite(r.citation, "rule"))
                for r in inf.rules
            ))
            for inf in ruleset.infractions
        },
        penalties={p.id: p for p in ruleset.ladder},
        ranks=ranks,
        scopes={
            p.id: tuple(CompiledScopeRule(parse(s.when), s.applies_to, s.discretionary, cite(s.citation, "scope"))
                        for s in p.scopes)
            for p in ruleset.ladder
        },
        escalations=tuple(
            CompiledEscalation(e, parse(e.when), frozenset(e.from_penalties), cite(e.citation, "escalation"))
            for e in ruleset.escalations
        ),
        upgrades=tuple(
            CompiledUpgrade(
                u, parse(u.when), frozenset(u.rules) if u.rules is not None else None,
                ranks[u.up_to], cite(u.citation, "upgrade"),
            )
            for u in ruleset.upgrades
        ),
        penalty_citations={p.id: cite(p.citation, "penalty") for p in ruleset.ladder},
        fix_citations={f.id: cite(f.citation, "fix") for f in ruleset.fixes},
        fact_order=tuple(facts),
    )
    ruleset._compiled = compiled
    return compiled


def line_numbers(quote: str, source_lines: list[str], after: int = 0) -> tuple[int, ...]:
    """1-based source line numbers of each line of ``quote``, read in document order.

    Each quoted line is looked for after the previous one first (so a repeated line such
    as a penalty heading is found in the right section), then from the start. ``after``
    (a 1-based line number) starts the search below that line: a sentence the document
    repeats under several items is found under the one being cited.
    """
    found: list[int] = []
    start = after
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
        FactError: a fact is unknown to this ruleset, of the wrong type, or required and missing.
        UndecidedCaseError: the document does not decide these facts (they contradict the
            infraction's own wording, or the document is silent); the message names the line.
    """
    book = compile_ruleset(ruleset)
    entry = book.infractions.get(infraction)
    if entry is None:
        raise UnknownIdError(Wording("problem.engine.unknown_infraction", infraction=repr(infraction),
                                     ruleset=ruleset.id, known=", ".join(book.infractions)))
    resolved = resolve_facts(book.facts, facts or {}, entry[0].requires, entry[0].assumes)
    key = (infraction, *(resolved.get(name) for name in book.fact_order))
    verdict = book.memo.get(key)
    if verdict is None:
        try:
            verdict = _decide(book, infraction, resolved)
        except UndecidedCaseError as refused:
            verdict = refused
        if len(book.memo) >= MEMO_LIMIT:
            book.memo.clear()
        book.memo[key] = verdict
    if isinstance(verdict, UndecidedCaseError):
        raise verdict
    return verdict


@dataclass(slots=True)
class _Reasons:
    """What a verdict is built from besides its outcome: the branches followed, the lines
    quoted and the explanations, gathered stage by stage."""

    ruleset_id: str
    trace: list[str] = field(default_factory=list)
    citations: list[CitedLine] = field(default_factory=list)
    explanations: list[Text] = field(default_factory=list)

    def add(self, branch: str, cited: CitedLine, explain: Text | None = None, first: bool = False) -> None:
        self.trace.append(f"{self.ruleset_id}/{branch}")
        self.citations.insert(0, cited) if first else self.citations.append(cited)
        if explain is not None:
            self.explanations.append(explain)


def _decide(book: CompiledRuleset, infraction: str, resolved: Mapping[str, Any]) -> Verdict:
    """The verdict for resolved facts (pure: the same facts always give the same verdict)."""
    reasons = _Reasons(book.ruleset.id)
    current, chosen = _follow_rules(book, infraction, resolved, reasons)
    rule = chosen.rule
    penalty, fixes = _escalate(book, rule.penalty or "", tuple(rule.fixes), resolved, reasons)
    rung = book.penalties[penalty]
    optional = tuple(f for f in _unique(tuple(rule.optional_fixes) + tuple(rung.optional_fixes)) if f not in fixes)
    reasons.citations.append(book.penalty_citations[penalty])
    applies_to: str = rung.applies_to
    scope = next((s for s in book.scopes[penalty] if s.when.holds(resolved)), None)
    if scope is not None:
        applies_to = scope.applies_to
        reasons.trace.append(scope_branch(reasons.ruleset_id, penalty, scope.applies_to))
        reasons.citations.append(scope.cited)
    for fix in fixes + optional:
        cited = book.fix_citations[fix]
        if not any(cited.ja in other.ja for other in reasons.citations):
            reasons.citations.append(cited)
    accepted = _widen(book, f"{current}/{rule.id}", chosen, penalty, resolved, reasons)
    return Verdict(
        ruleset=reasons.ruleset_id,
        infraction=current,
        penalty=penalty,
        players=rule.players,
        accepted=_unique((penalty, *rule.also_accepted, *accepted)),
        fixes=fixes,
        optional_fixes=optional,
        applies_to=applies_to,
        citations=tuple(reasons.citations),
        trace=tuple(reasons.trace),
        explanations=tuple(reasons.explanations),
        scope_discretionary=scope is not None and scope.discretionary,
    )


def _follow_rules(
    book: CompiledRuleset, infraction: str, resolved: Mapping[str, Any], reasons: _Reasons
) -> tuple[str, CompiledRule]:
    """The infraction the case ends as and its deciding rule, following ``becomes``; raises
    ``UndecidedCaseError`` at an undecided rule. The checks make every chain end in a penalty."""
    current = infraction
    for _ in range(MAX_HOPS):
        chosen = next(r for r in book.infractions[current][1] if r.when is None or r.when.holds(resolved))
        reasons.add(f"{current}/{chosen.rule.id}", chosen.cited, chosen.rule.explain)
        if chosen.rule.undecided:
            raise _refusal(book, current, chosen, tuple(reasons.trace))
        if chosen.rule.becomes is None:
            return current, chosen
        current = chosen.rule.becomes
    raise AssertionError(f"becomes links of {infraction} go deeper than {MAX_HOPS}: the checks refuse loops")


def _escalate(
    book: CompiledRuleset, penalty: str, fixes: tuple[str, ...], resolved: Mapping[str, Any], reasons: _Reasons
) -> tuple[str, tuple[str, ...]]:
    """The first escalation that holds replaces the penalty; the fixes stay unless it says not."""
    for escalation in book.escalations:
        if penalty in escalation.sources and escalation.when.holds(resolved):
            reasons.add(f"escalation/{escalation.escalation.id}", escalation.cited, escalation.escalation.explain,
                        first=True)
            return escalation.escalation.to, fixes if escalation.escalation.keep_fixes else ()
    return penalty, fixes


def _widen(
    book: CompiledRuleset, branch: str, chosen: CompiledRule, penalty: str, resolved: Mapping[str, Any],
    reasons: _Reasons,
) -> list[str]:
    """Penalties the judge may give instead: every rung above ``penalty`` up to each upgrade's cap."""
    accepted: list[str] = []
    rank = book.ranks[penalty]
    for upgrade in book.upgrades:
        if upgrade.cap <= rank or (upgrade.branches is not None and branch not in upgrade.branches):
            continue
        if upgrade.when.holds(resolved):
            reasons.add(f"upgrade/{upgrade.upgrade.id}", _cited_after(book, upgrade.cited, chosen.cited.lines),
                        upgrade.upgrade.explain)
            accepted += [p.id for p in book.ruleset.ladder[rank + 1: upgrade.cap + 1]]
    return accepted


def _refusal(
    book: CompiledRuleset, infraction: str, chosen: CompiledRule, trace: tuple[str, ...]
) -> UndecidedCaseError:
    lines = chosen.cited.lines
    where = (Wording("problem.engine.line", line=lines[0]) if len(lines) == 1
             else Wording("problem.engine.lines", lines=", ".join(map(str, lines))) if lines
             else Wording("problem.engine.its_line"))
    message = Wording("problem.engine.undecided", case=f"{book.ruleset.id}/{infraction}", where=where,
                      quote=chosen.rule.citation.ja.split("\n")[0], explanation=chosen.rule.explain)
    return UndecidedCaseError(message, book.ruleset.id, infraction, lines, chosen.rule.explain, trace)


def _cited_after(book: CompiledRuleset, cited: CitedLine, rule_lines: tuple[int, ...]) -> CitedLine:
    """``cited`` located below the rule's own first line (the upgrade sentence under that item)."""
    if not rule_lines:
        return cited
    lines = line_numbers(cited.ja, book.ruleset.source_lines, rule_lines[0])
    return CitedLine(cited.document, cited.role, cited.ja, cited.en, lines) if lines else cited


def scope_branch(ruleset_id: str, penalty: str, applies_to: str) -> str:
    """The trace id of a penalty's scope rule, e.g. ``yugioh-ocg/scope/duel_loss/next_game``."""
    return f"{ruleset_id}/scope/{penalty}/{applies_to}"


def _unique(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
