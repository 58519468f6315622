"""What the finding cards teach, per infraction (CONTENT.md revision 4): how many cards ask
findings of each infraction, how many weigh disagreeing accounts or rest on an admission
alone, and which asked finding is the same on every card of its infraction (it would teach
a phrase, not a judgement).

Whether a card's accounts disagree, or a finding rests on the offender's admission alone, is
said by the card's tags (``ACCOUNTS_DISAGREE``, ``ADMISSION_ONLY``) and a floor call's
``conflicts``: data, read here, never guessed from the wording. Floor calls count as finding
cards of their infraction.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Mapping, Sequence

from quiz.content.loader import Content
from quiz.model.cards import ACCOUNTS_DISAGREE, RulingCard
from quiz.model.errors import QuizError
from quiz.model.facts import FactValue
from quiz.model.rulesets import Ruleset
from quiz.rules.engine import judge
from quiz.rules.variants import possible_facts

ADMISSION_ONLY = "admission-only"  # a finding whose only evidence is the offender's own admission


@dataclass(frozen=True, slots=True)
class FindingCoverage:
    """The finding cards of one infraction."""

    ruleset: str
    infraction: str
    cards: int
    disagreeing: int
    admission_only: int
    floor_calls: int
    fixed: tuple[tuple[str, FactValue], ...]  # (fact, its only value) for findings that never vary

    @property
    def ok(self) -> bool:
        return self.cards > 0 and not self.fixed


def finding_coverage(content: Content) -> list[FindingCoverage]:
    """One row per infraction of every loaded ruleset, in document order."""
    by_infraction: dict[tuple[str, str], list[RulingCard]] = defaultdict(list)
    for card in [*content.scenario_cards, *content.floor_calls]:
        if card.findings and not card.retired:
            by_infraction[(card.ruleset, card.infraction)].append(card)
    calls: dict[tuple[str, str], list[dict[str, FactValue]]] = defaultdict(list)
    for call in content.judgement_calls:
        if call.first_line is not None and call.facts and not call.retired:
            calls[(call.ruleset, call.first_line)].append(dict(call.facts))
    rows = []
    for ruleset in content.rulesets.values():
        for infraction in ruleset.infractions:
            cards = by_infraction[(ruleset.id, infraction.id)]
            rows.append(FindingCoverage(
                ruleset.id, infraction.id, len(cards),
                sum(1 for card in cards if card.accounts_disagree),
                sum(1 for card in cards if ADMISSION_ONLY in card.tags),
                sum(1 for card in cards if card.investigated),
                fixed_findings(ruleset, infraction.id, cards, calls[(ruleset.id, infraction.id)])))
    return rows


def finding_values(ruleset: Ruleset, card: RulingCard) -> dict[str, set[FactValue]]:
    """Every value each finding of ``card`` takes, over all the values a variant may draw."""
    specs = {spec.id: spec for spec in ruleset.facts}
    infraction = ruleset.infraction(card.infraction)
    assumed = infraction.assumes if infraction is not None else {}
    values: dict[str, set[FactValue]] = defaultdict(set)
    for facts in possible_facts(card):
        for fact in card.findings:
            value = facts.get(fact, assumed.get(fact, specs[fact].default if fact in specs else None))
            if value is not None:
                values[fact].add(value)
    return values


def fixed_findings(ruleset: Ruleset, infraction: str, cards: list[RulingCard],
                   calls: Sequence[Mapping[str, FactValue]] = ()) -> tuple[tuple[str, FactValue], ...]:
    """The findings asked of ``cards`` (one infraction) that take one value on every card,
    except where the other value is taught elsewhere: a judgement call whose nearest line is
    this infraction holds it (``calls``: their facts), or a yes/no fact's other value turns
    the case into another infraction, or another infraction into this one (故意 turns a slip
    into intentional_violation)."""
    seen: dict[str, set[FactValue]] = defaultdict(set)
    for card in cards:
        for fact, values in finding_values(ruleset, card).items():
            seen[fact] |= values
    for facts in calls:
        for fact in seen:
            if fact in facts:
                seen[fact].add(facts[fact])
    fixed = []
    for fact, values in seen.items():
        if len(values) != 1:
            continue
        [value] = values
        if isinstance(value, bool) and (
                _becomes(ruleset, infraction, fact, not value) not in (None, infraction)
                or any(_becomes(ruleset, other.id, fact, value) == infraction
                       and _becomes(ruleset, other.id, fact, not value) == other.id
                       for other in ruleset.infractions if other.id != infraction)):
            continue
        fixed.append((fact, value))
    return tuple(sorted(fixed))


def _becomes(ruleset: Ruleset, infraction: str, fact: str, value: bool) -> str | None:
    """The infraction a case of ``infraction`` with ``fact`` at ``value`` is judged as; None
    when the document decides no such case (or the infraction needs more facts)."""
    try:
        return judge(ruleset, infraction, {fact: value}).infraction
    except QuizError:
        return None


def finding_coverage_lines(rows: list[FindingCoverage]) -> list[str]:
    """The report as ``quiz coverage`` prints it (English, as the other lines are)."""
    lines = ["finding cards per infraction (cards, accounts disagree, admission alone, of them floor calls, "
             "findings that never vary):"]
    width = max((len(f"{row.ruleset}/{row.infraction}") for row in rows), default=0)
    for row in rows:
        fixed = ", ".join(f"{fact}={str(value).lower()}" for fact, value in row.fixed)
        flag = "" if row.ok else ("  NONE" if row.cards == 0 else f"  never varies: {fixed}")
        lines.append(f"{row.ruleset + '/' + row.infraction:<{width}}  {row.cards:>3}  {row.disagreeing:>3}"
                     f"  {row.admission_only:>3}  {row.floor_calls:>3}{flag}")
    cards = sum(row.cards for row in rows)
    if cards:
        lines.append(f"accounts disagree: {round(100 * sum(r.disagreeing for r in rows) / cards)}% of {cards} finding "
                     f"cards (tag {ACCOUNTS_DISAGREE}); decided by an admission alone: "
                     f"{round(100 * sum(r.admission_only for r in rows) / cards)}% (tag {ADMISSION_ONLY})")
    bad = [row for row in rows if not row.ok]
    lines.append(f"{len(rows)} infractions, {sum(1 for r in bad if r.cards == 0)} without finding cards, "
                 f"{sum(1 for r in bad if r.fixed)} with a finding that never varies")
    return lines
