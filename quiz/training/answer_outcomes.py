"""An answer's outcome, for each kind of card: the engine's verdict, the grade and the record
to store (the dispatch over kinds is ``quiz.training.kinds``)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Mapping

from quiz.content.categories import card_category
from quiz.content.loader import Content
from quiz.model.attempt import AttemptRecord
from quiz.model.cards import JudgementCallCard, KnowledgeCard, RuledCard, RulingCard
from quiz.model.errors import QuizError
from quiz.model.facts import FactValue, resolve_facts
from quiz.model.investigation import InvestigationRecord
from quiz.model.rulesets import Ruleset
from quiz.model.verdict import Verdict
from quiz.rules.engine import judge
from quiz.rules.outcomes import can_name_both_players
from quiz.rules.variants import CardShowing, seed_facts, show_card, stored_values
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import (
    KnowledgeGrade,
    ScenarioAnswer,
    ScenarioGrade,
    grade_findings,
    grade_findings_card,
    grade_judgement_call,
    grade_knowledge,
    grade_scenario,
)


@dataclass(frozen=True, slots=True)
class ScenarioOutcome:
    verdict: Verdict
    grade: ScenarioGrade
    record: AttemptRecord
    showing: CardShowing | None = None  # the values the card was shown with (variant cards)


@dataclass(frozen=True, slots=True)
class KnowledgeOutcome:
    """The outcome of a card answered by one choice: a knowledge card or a judgement call."""

    grade: KnowledgeGrade
    record: AttemptRecord


Outcome = ScenarioOutcome | KnowledgeOutcome
BLANK_RULING = ScenarioAnswer(infraction=None, penalty=None, fixes=())  # nothing chosen: wrong on every part


def asks_players(content: Content, card: RulingCard) -> bool:
    """Whether the answer form asks who receives the penalty: the card's infraction can name
    both players in some case (asked whatever this card's answer is, so it gives nothing away)."""
    return can_name_both_players(content.rulesets[card.ruleset], card.infraction)


def verdict_for(content: Content, card: RulingCard, showing: CardShowing | None = None) -> Verdict:
    """The engine's verdict on the card as shown (by default its showing of the default seed)."""
    facts = showing.facts if showing is not None else seed_facts(card)
    return judge(content.rulesets[card.ruleset], card.infraction, facts)


def answer_scenario(
    content: Content, card: RuledCard, given: GivenAnswer, investigation: InvestigationRecord | None = None,
) -> ScenarioOutcome:
    """Judge ``card`` (``given.card``) as shown (the drawn facts of ``given.showing``), grade
    the ruling chosen and build the record (with a floor call's ``investigation``, graded
    beside the ruling)."""
    ruleset = content.rulesets[card.ruleset]
    answer = ruling_chosen(given)
    showing = given.showing or show_card(card)
    verdict = verdict_for(content, card, showing)
    if card.findings:
        grade = _grade_with_findings(ruleset, card, showing.facts, verdict, answer)
    else:
        grade = grade_scenario(ruleset, verdict, answer)
    infraction = ruleset.infraction(verdict.infraction)
    asked = answer.players is not None
    record = AttemptRecord(
        **_answered(given, content.fingerprint()),
        category=infraction.category if infraction else None,
        chosen_infraction=answer.infraction,
        standard_infraction=verdict.infraction,
        chosen_penalty=answer.penalty,
        standard_penalty=verdict.penalty,
        chosen_fixes=tuple(sorted(answer.fixes)),
        standard_fixes=tuple(sorted(verdict.fixes)),
        chosen_choice=None,
        correct_choice=None,
        infraction_result=grade.infraction,
        penalty_result=grade.penalty,
        fixes_result=grade.fixes,
        correct=grade.correct,
        penalty_steps=grade.penalty_steps,
        variant_values=stored_values(card, showing) if card.parameters else None,
        chosen_players=answer.players,
        standard_players=verdict.players if asked else None,
        players_result=grade.players,
        findings=grade.findings,
        penalty_follows_findings=grade.penalty_follows_findings,
        investigation=investigation,
    )
    return ScenarioOutcome(verdict, grade, record, showing)


def ruling_chosen(given: GivenAnswer) -> ScenarioAnswer:
    """The ruling chosen for a scenario card or a floor call (a blank one when nothing was)."""
    return given.chosen if isinstance(given.chosen, ScenarioAnswer) else BLANK_RULING


def case_facts(ruleset: Ruleset, infraction: str, facts: Mapping[str, FactValue]) -> dict[str, FactValue]:
    """Every fact of the case as the engine reads it: given, else the infraction's own
    wording (``assumes``), else the ruleset's default."""
    specs = {spec.id: spec for spec in ruleset.facts}
    found = ruleset.infraction(infraction)
    return resolve_facts(specs, facts, (), found.assumes if found is not None else None)


def _grade_with_findings(ruleset: Ruleset, card: RulingCard, facts: Mapping[str, FactValue], verdict: Verdict,
                         answer: ScenarioAnswer) -> ScenarioGrade:
    """Grade a card with findings: the findings, the verdicts its arguable findings also
    allow, and the engine's reading of the trainee's own findings."""
    case = case_facts(ruleset, card.infraction, facts)
    findings = grade_findings(card, case, answer.found)
    alternatives = []
    for values in product((True, False), repeat=len(card.arguable)):
        other = dict(case, **dict(zip(card.arguable, values)))
        if other != case:
            alternatives.append(_judged(ruleset, card.infraction, other))
    own = None
    if answer.infraction is not None and ruleset.infraction(answer.infraction) is not None:
        found = {fact: value for fact, value in answer.found.items() if fact in card.findings}
        own = _judged(ruleset, answer.infraction, dict(case_facts(ruleset, answer.infraction, facts), **found))
    return grade_findings_card(ruleset, verdict, [v for v in alternatives if v is not None], answer, findings, own)


def _judged(ruleset: Ruleset, infraction: str, facts: Mapping[str, FactValue]) -> Verdict | None:
    """The verdict, or None where the document decides no such case (or the facts do not fit it)."""
    try:
        return judge(ruleset, infraction, facts)
    except QuizError:
        return None


def answer_judgement_call(content: Content, card: JudgementCallCard, given: GivenAnswer) -> KnowledgeOutcome:
    """Grade the nearest line chosen for a judgement call (all the document decides of it)."""
    grade = grade_judgement_call(card, _chosen_id(given))
    return KnowledgeOutcome(grade, choice_record(grade, given, content.fingerprint(),
                                                 category=card_category(content, card)))


def answer_knowledge(card: KnowledgeCard, given: GivenAnswer, fingerprint: str | None = None) -> KnowledgeOutcome:
    grade = grade_knowledge(card, _chosen_id(given))
    return KnowledgeOutcome(grade, choice_record(grade, given, fingerprint))


def _chosen_id(given: GivenAnswer) -> str | None:
    """The id chosen for a card answered by one choice (None: nothing chosen)."""
    return given.chosen if isinstance(given.chosen, str) else None


def _answered(given: GivenAnswer, fingerprint: str | None) -> dict[str, Any]:
    """The fields of a record that say who answered which card, where, how fast, under which content."""
    card = given.card
    return dict(trainee_id=given.trainee_id, card_id=card.id, ruleset=card.ruleset, card_kind=card.kind,
                mode=given.mode, seconds=given.rounded_seconds, exam_id=given.exam_id,
                content_fingerprint=fingerprint)


def choice_record(
    grade: KnowledgeGrade, given: GivenAnswer, fingerprint: str | None, category: str | None = None,
) -> AttemptRecord:
    """The record of a card answered by one choice (no infraction, penalty or fixes)."""
    return AttemptRecord(
        **_answered(given, fingerprint),
        category=category,
        chosen_choice=grade.chosen,
        correct_choice=grade.answer,
        correct=grade.correct,
    )
