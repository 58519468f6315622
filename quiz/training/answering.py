"""Practice flow in the core: which cards are in play, and turning an answer into a record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from quiz.content.categories import card_category, category_keys
from quiz.content.loader import Content
from quiz.model.attempt import PLAYERS, AttemptRecord
from quiz.model.cards import NO_LISTED_INFRACTION, AnyCard, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.verdict import Verdict
from quiz.rules.engine import judge
from quiz.rules.outcomes import can_name_both_players
from quiz.rules.variants import CardShowing, seed_facts, show_card, stored_values
from quiz.training.grading import (
    KnowledgeGrade,
    ScenarioAnswer,
    ScenarioGrade,
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
NO_ANSWER = ScenarioAnswer(infraction=None, penalty=None, fixes=())


def blank_answer(card: AnyCard) -> ScenarioAnswer | None:
    """The answer of someone who chose nothing ("I don't know", or an exam question left
    unanswered): graded wrong on every part, the standard answer then shown."""
    return NO_ANSWER if isinstance(card, ScenarioCard) else None


def asks_players(content: Content, card: ScenarioCard) -> bool:
    """Whether the answer form asks who receives the penalty: the card's infraction can name
    both players in some case (asked whatever this card's answer is, so it gives nothing away)."""
    return can_name_both_players(content.rulesets[card.ruleset], card.infraction)


FORM_PARTS = ("infraction", "penalty", "players", "fixes", "choice", "nearest")  # what an answer form asks


def answer_from_form(content: Content, card: AnyCard, parts: Mapping[str, object]) -> ScenarioAnswer | str | None:
    """The answer a submitted form gives: ``parts`` maps the parts of ``FORM_PARTS`` to what
    was chosen (absent when not asked). None while a part the card asks is not chosen, or
    holds a value the form does not offer (a crafted or stale one); fixes not offered are
    dropped."""
    if isinstance(card, KnowledgeCard):
        choice = parts.get("choice")
        return choice if isinstance(choice, str) and choice in {c.id for c in card.choices} else None
    ruleset = content.rulesets[card.ruleset]
    infractions = {i.id for i in ruleset.infractions}
    if isinstance(card, JudgementCallCard):
        nearest = parts.get("nearest")
        offered = isinstance(nearest, str) and (nearest in infractions or nearest == NO_LISTED_INFRACTION)
        return nearest if offered and isinstance(nearest, str) else None
    infraction, penalty = parts.get("infraction"), parts.get("penalty")
    if not isinstance(infraction, str) or infraction not in infractions:
        return None
    if not isinstance(penalty, str) or penalty not in {p.id for p in ruleset.ladder}:
        return None
    players = parts.get("players") if asks_players(content, card) else None
    if asks_players(content, card) and not (isinstance(players, str) and players in PLAYERS):
        return None
    offered_fixes = {f.id for f in ruleset.fixes}
    chosen = parts.get("fixes")
    fixes = tuple(f for f in chosen if f in offered_fixes) if isinstance(chosen, (list, tuple)) else ()
    return ScenarioAnswer(infraction=infraction, penalty=penalty, fixes=fixes,
                          players=players if isinstance(players, str) else None)


def answer_card(
    content: Content, card: AnyCard, given: ScenarioAnswer | str | None, trainee_id: int, seconds: float,
    mode: str = "practice", exam_id: int | None = None, showing: CardShowing | None = None,
) -> Outcome:
    """Grade an answer to any card and build its record: the one answer path of every page.

    ``given`` is a ``ScenarioAnswer`` for a scenario card, the chosen id for a knowledge card
    or a judgement call (None when unanswered).
    """
    if isinstance(card, ScenarioCard):
        answer = given if isinstance(given, ScenarioAnswer) else ScenarioAnswer(None, None)
        return answer_scenario(content, card, answer, trainee_id, seconds, mode, exam_id, showing)
    chosen = given if isinstance(given, str) else None
    if isinstance(card, JudgementCallCard):
        return answer_judgement_call(content, card, chosen, trainee_id, seconds, mode, exam_id)
    return answer_knowledge(card, chosen, trainee_id, seconds, mode, exam_id, content.fingerprint())


def verdict_for(content: Content, card: ScenarioCard, showing: CardShowing | None = None) -> Verdict:
    """The engine's verdict on the card as shown (by default its showing of the default seed)."""
    facts = showing.facts if showing is not None else seed_facts(card)
    return judge(content.rulesets[card.ruleset], card.infraction, facts)


def card_pool(content: Content, rulesets: Iterable[str], categories: Iterable[str] | None = None) -> list[str]:
    """Ids of the cards of the chosen rulesets, in file order; retired cards never.

    ``categories`` (when given) holds ``ruleset/category`` keys, ``ruleset/knowledge`` for
    knowledge cards.
    """
    wanted_rulesets = frozenset(rulesets)
    wanted = frozenset(categories) if categories is not None else None
    keys = category_keys(content)

    def compute() -> tuple[str, ...]:
        return tuple(
            card.id
            for card in content.cards.values()
            if card.ruleset in wanted_rulesets and not card.retired and (wanted is None or keys[card.id] in wanted)
        )

    return list(content.memo(("card_pool", wanted_rulesets, wanted), compute))


def answer_scenario(
    content: Content, card: ScenarioCard, answer: ScenarioAnswer, trainee_id: int, seconds: float,
    mode: str = "practice", exam_id: int | None = None, showing: CardShowing | None = None,
) -> ScenarioOutcome:
    """Judge the card as shown (the drawn facts of ``showing``), grade the answer and build the record."""
    ruleset = content.rulesets[card.ruleset]
    showing = showing or show_card(card)
    verdict = verdict_for(content, card, showing)
    grade = grade_scenario(ruleset, verdict, answer)
    infraction = ruleset.infraction(verdict.infraction)
    asked = answer.players is not None
    record = AttemptRecord(
        trainee_id=trainee_id,
        card_id=card.id,
        ruleset=card.ruleset,
        category=infraction.category if infraction else None,
        card_kind="scenario",
        mode=mode,
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
        seconds=round(max(seconds, 0.0), 2),
        exam_id=exam_id,
        variant_values=stored_values(card, showing) if card.parameters else None,
        content_fingerprint=content.fingerprint(),
        chosen_players=answer.players,
        standard_players=verdict.players if asked else None,
        players_result=grade.players,
    )
    return ScenarioOutcome(verdict, grade, record, showing)


def answer_judgement_call(
    content: Content, card: JudgementCallCard, chosen: str | None, trainee_id: int, seconds: float,
    mode: str = "practice", exam_id: int | None = None,
) -> KnowledgeOutcome:
    """Grade the nearest line chosen for a judgement call (all the document decides of it)."""
    grade = grade_judgement_call(card, chosen)
    return KnowledgeOutcome(grade, _choice_record(
        card, "judgement_call", grade, trainee_id, seconds, mode, exam_id, content.fingerprint(),
        category=card_category(content, card),
    ))


def answer_knowledge(
    card: KnowledgeCard, chosen: str | None, trainee_id: int, seconds: float,
    mode: str = "practice", exam_id: int | None = None, fingerprint: str | None = None,
) -> KnowledgeOutcome:
    grade = grade_knowledge(card, chosen)
    return KnowledgeOutcome(
        grade, _choice_record(card, "knowledge", grade, trainee_id, seconds, mode, exam_id, fingerprint)
    )


def _choice_record(
    card: KnowledgeCard | JudgementCallCard, kind: str, grade: KnowledgeGrade, trainee_id: int, seconds: float,
    mode: str, exam_id: int | None, fingerprint: str | None, category: str | None = None,
) -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id,
        card_id=card.id,
        ruleset=card.ruleset,
        category=category,
        card_kind=kind,  # type: ignore[arg-type]  # one of CARD_KINDS, checked by AttemptRecord
        mode=mode,
        chosen_infraction=None,
        standard_infraction=None,
        chosen_penalty=None,
        standard_penalty=None,
        chosen_fixes=(),
        standard_fixes=(),
        chosen_choice=grade.chosen,
        correct_choice=grade.answer,
        infraction_result=None,
        penalty_result=None,
        fixes_result=None,
        correct=grade.correct,
        penalty_steps=None,
        seconds=round(max(seconds, 0.0), 2),
        exam_id=exam_id,
        content_fingerprint=fingerprint,
    )
