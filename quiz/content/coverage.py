"""How many cards exercise each branch of each ruleset: rules, refusals, escalations,
upgrades and scopes."""

from __future__ import annotations

from dataclasses import dataclass

from quiz.content.loader import Content
from quiz.model.errors import UndecidedCaseError
from quiz.model.rulesets import Ruleset
from quiz.rules.engine import judge, scope_branch
from quiz.rules.variants import possible_facts

MIN_CARDS_PER_BRANCH = 2


@dataclass(frozen=True, slots=True)
class BranchCount:
    branch: str
    cards: int

    @property
    def ok(self) -> bool:
        return self.cards >= MIN_CARDS_PER_BRANCH


def branches(ruleset: Ruleset) -> list[str]:
    """Every branch id of a ruleset, in document order; the ids verdict traces use."""
    found = [f"{ruleset.id}/{inf.id}/{rule.id}" for inf in ruleset.infractions for rule in inf.rules]
    found += [f"{ruleset.id}/escalation/{e.id}" for e in ruleset.escalations]
    found += [f"{ruleset.id}/upgrade/{u.id}" for u in ruleset.upgrades]
    found += [scope_branch(ruleset.id, p.id, s.applies_to) for p in ruleset.ladder for s in p.scopes]
    return found


def coverage(content: Content) -> list[BranchCount]:
    """Card counts for every branch of every loaded ruleset.

    A variant card counts once for every branch that some combination of its values reaches;
    a judgement call with facts counts for the refusal it reaches.
    """
    counts = {b: 0 for rs in content.rulesets.values() for b in branches(rs)}
    for card in content.scenario_cards:
        ruleset = content.rulesets[card.ruleset]
        reached = {step for facts in possible_facts(card) for step in judge(ruleset, card.infraction, facts).trace}
        for step in reached:
            if step in counts:
                counts[step] += 1
    for call in content.judgement_calls:
        if call.first_line is None or not call.facts:
            continue
        try:
            judge(content.rulesets[call.ruleset], call.first_line, call.facts)
        except UndecidedCaseError as refused:
            for step in set(refused.trace):
                if step in counts:
                    counts[step] += 1
    return [BranchCount(branch, n) for branch, n in counts.items()]
