"""The training stage's dispatch over card kinds: reading an answer form, grading an answer
and rebuilding a stored answer, each a ``match`` on the card that ``assert_never`` keeps
exhaustive. A new kind of card is added here (and in the other stages' dispatch modules:
``quiz.model.cards.CARD_KINDS`` names them)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, assert_never

from quiz.content.loader import Content
from quiz.model.attempt import PLAYERS, FindingRecord
from quiz.model.cards import (
    NO_LISTED_INFRACTION,
    AnyCard,
    FloorCallCard,
    JudgementCallCard,
    KnowledgeCard,
    RuledCard,
    RulingCard,
    ScenarioCard,
)
from quiz.model.facts import FactValue
from quiz.model.investigation import InvestigationRecord
from quiz.model.text import Text
from quiz.rules.variants import CardShowing, show_card
from quiz.training.answer_outcomes import (
    BLANK_RULING,
    Outcome,
    answer_judgement_call,
    answer_knowledge,
    answer_scenario,
    asks_players,
    ruling_chosen,
)
from quiz.training.given_answer import CardAnswer, GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.investigation import investigate

FORM_PARTS = ("findings", "infraction", "penalty", "players", "fixes", "choice", "nearest", "steps")  # what a form asks
Findings = tuple[tuple[str, FactValue], ...]  # (fact, value found), in the card's order


def blank_answer(card: AnyCard, steps: object = ()) -> CardAnswer:
    """The answer of someone who chose nothing ("I don't know", or an exam question left
    unanswered): graded wrong on every part, the standard answer then shown; a floor call's
    keeps the ``steps`` taken (the form's steps part), its investigation shown beside it."""
    match card:
        case ScenarioCard():
            return BLANK_RULING
        case FloorCallCard():
            taken = tuple(s for s in steps if isinstance(s, str) and card.step(s) is not None) \
                if isinstance(steps, (list, tuple)) else ()
            return replace(BLANK_RULING, steps=taken)
        case KnowledgeCard() | JudgementCallCard():
            return None
        case _:
            assert_never(card)


def as_scenario(card: AnyCard | None) -> RuledCard | None:
    """The card if it is ruled by the engine (a scenario card or a floor call), else None."""
    match card:
        case ScenarioCard() | FloorCallCard():
            return card
        case KnowledgeCard() | JudgementCallCard() | None:
            return None
        case _:
            assert_never(card)


def showing_of(card: AnyCard, seed: int) -> CardShowing | None:
    """The values a card is shown with for ``seed`` (a scenario's parameters); None for a
    card without any."""
    match card:
        case ScenarioCard() | FloorCallCard():
            return show_card(card, seed)
        case KnowledgeCard() | JudgementCallCard():
            return None
        case _:
            assert_never(card)


def answer_from_form(content: Content, card: AnyCard, parts: Mapping[str, object]) -> CardAnswer:
    """The answer a submitted form gives: ``parts`` maps the parts of ``FORM_PARTS`` to what
    was chosen (absent when not asked). None while a part the card asks is not chosen, or
    holds a value the form does not offer (a crafted or stale one); fixes not offered are
    dropped."""
    match card:
        case KnowledgeCard():
            choice = parts.get("choice")
            return choice if isinstance(choice, str) and choice in {c.id for c in card.choices} else None
        case JudgementCallCard():
            infractions = {i.id for i in content.rulesets[card.ruleset].infractions}
            nearest = parts.get("nearest")
            offered = isinstance(nearest, str) and (nearest in infractions or nearest == NO_LISTED_INFRACTION)
            return nearest if offered and isinstance(nearest, str) else None
        case ScenarioCard():
            return _scenario_from_form(content, card, parts)
        case FloorCallCard():
            ruling = _scenario_from_form(content, card, parts)
            blank = blank_answer(card, parts.get("steps"))
            return replace(ruling, steps=blank.steps) if ruling is not None and isinstance(blank, ScenarioAnswer) \
                else None
        case _:
            assert_never(card)


def _scenario_from_form(content: Content, card: RulingCard, parts: Mapping[str, object]) -> ScenarioAnswer | None:
    ruleset = content.rulesets[card.ruleset]
    findings = _findings_from_form(content, card, parts.get("findings"))
    if findings is None:
        return None
    infraction, penalty = parts.get("infraction"), parts.get("penalty")
    if not isinstance(infraction, str) or ruleset.infraction(infraction) is None:
        return None
    if not isinstance(penalty, str) or ruleset.penalty(penalty) is None:
        return None
    players = parts.get("players") if asks_players(content, card) else None
    if asks_players(content, card) and not (isinstance(players, str) and players in PLAYERS):
        return None
    offered_fixes = {f.id for f in ruleset.fixes}
    chosen = parts.get("fixes")
    fixes = tuple(f for f in chosen if f in offered_fixes) if isinstance(chosen, (list, tuple)) else ()
    return ScenarioAnswer(infraction=infraction, penalty=penalty, fixes=fixes,
                          players=players if isinstance(players, str) else None, findings=findings)


def _findings_from_form(content: Content, card: RulingCard, given: object) -> Findings | None:
    """The findings in the card's order; None while one is missing or not of its fact's type."""
    if not card.findings:
        return ()
    if not isinstance(given, Mapping):
        return None
    specs = {spec.id: spec for spec in content.rulesets[card.ruleset].facts}
    found: list[tuple[str, FactValue]] = []
    for fact in card.findings:
        value = given.get(fact)
        spec = specs[fact]
        if spec.type == "bool" and not isinstance(value, bool):
            return None
        if spec.type == "int" and (isinstance(value, bool) or not isinstance(value, int)
                                   or (spec.min is not None and value < spec.min)):
            return None
        assert isinstance(value, (bool, int))
        found.append((fact, value))
    return tuple(found)


def answer_card(content: Content, given: GivenAnswer) -> Outcome:
    """Grade an answer to any card and build its record: the one answer path of every page."""
    card = given.card
    match card:
        case ScenarioCard():
            return answer_scenario(content, card, given)
        case FloorCallCard():
            return answer_scenario(content, card, given, investigate(card, ruling_chosen(given).steps))
        case JudgementCallCard():
            return answer_judgement_call(content, card, given)
        case KnowledgeCard():
            return answer_knowledge(card, given, content.fingerprint())
        case _:
            assert_never(card)



def given_from_record(card: AnyCard, row: Mapping[str, Any]) -> CardAnswer:
    """The answer a stored attempt gave (``row`` holds its chosen fields), to grade it again."""
    match card:
        case ScenarioCard() | FloorCallCard():
            stored = row.get("findings") or ()
            findings = tuple((f.fact, f.chosen) for f in map(_finding, stored) if f.chosen is not None)
            return ScenarioAnswer(row["chosen_infraction"], row["chosen_penalty"], tuple(row["chosen_fixes"] or ()),
                                  row["chosen_players"], findings, _stored_steps(row.get("investigation")))
        case KnowledgeCard() | JudgementCallCard():
            choice = row["chosen_choice"]
            return choice if isinstance(choice, str) else None
        case _:
            assert_never(card)


def _stored_steps(value: object) -> tuple[str, ...]:
    """The steps a stored investigation took (a record's, or its stored JSON)."""
    if isinstance(value, InvestigationRecord):
        return value.steps
    if isinstance(value, Mapping):
        return InvestigationRecord.from_stored(dict(value)).steps
    return ()


def _finding(value: FindingRecord | Mapping[str, Any]) -> FindingRecord:
    return value if isinstance(value, FindingRecord) else FindingRecord.from_stored(dict(value))


def shown_texts(card: AnyCard, showing: CardShowing | None = None) -> tuple[Text, Text]:
    """The title and body a card is shown with: a scenario's filled with the showing's values
    (its default showing when none is given), a judgement call's situation, a knowledge
    card's question."""
    match card:
        case ScenarioCard() | FloorCallCard():
            shown = showing or show_card(card)
            return shown.title, shown.situation
        case JudgementCallCard():
            return card.title, card.situation
        case KnowledgeCard():
            return card.title, card.question
        case _:
            assert_never(card)
