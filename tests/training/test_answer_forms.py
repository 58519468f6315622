"""Reading a submitted answer form in the core (``answer_from_form``): the submit button's
callback hands it the form's values, and only a complete answer, of values the form offers,
is graded; an incomplete one leaves the form on the page, with what is missing said."""

from __future__ import annotations

import pytest

from quiz.model.cards import NO_LISTED_INFRACTION, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.training.answer_outcomes import asks_players
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_from_form


def _first(content, kind, players: bool | None = None):
    """The first card of ``kind`` (scenario cards: one that asks no findings; see test_findings)."""
    for card in content.cards.values():
        if isinstance(card, kind) and (players is None or asks_players(content, card) == players) \
                and not getattr(card, "findings", None):
            return card
    raise AssertionError(f"no {kind.__name__} in the shipped content")


def test_a_complete_scenario_answer_is_read_with_its_fixes_in_the_order_chosen(content):
    card = _first(content, ScenarioCard, players=False)
    fixes = [f.id for f in content.rulesets[card.ruleset].fixes][:2][::-1]
    parts = {"infraction": card.infraction, "penalty": "warning", "fixes": fixes, "players": "both"}
    assert answer_from_form(content, card, parts) == ScenarioAnswer(card.infraction, "warning", tuple(fixes), None)


@pytest.mark.parametrize("missing", ["infraction", "penalty"])
def test_a_scenario_answer_without_its_infraction_or_penalty_is_not_read(content, missing):
    card = _first(content, ScenarioCard, players=False)
    parts = {"infraction": card.infraction, "penalty": "warning", "fixes": [], missing: None}
    assert answer_from_form(content, card, parts) is None


def test_who_receives_it_is_required_where_the_form_asks_it(content):
    card = _first(content, ScenarioCard, players=True)
    parts = {"infraction": card.infraction, "penalty": "warning", "fixes": []}
    assert answer_from_form(content, card, parts) is None
    assert answer_from_form(content, card, {**parts, "players": "someone"}) is None
    assert answer_from_form(content, card, {**parts, "players": "both"}).players == "both"


def test_values_the_form_does_not_offer_are_not_graded(content):
    """A crafted or stale value (another game's infraction, a penalty not on the ladder, a
    fix of no ruleset) is not an answer; fixes not offered are dropped."""
    card = _first(content, ScenarioCard, players=False)
    other_game = next(r for r in content.rulesets.values() if r.id != card.ruleset)
    foreign = next(i.id for i in other_game.infractions
                   if i.id not in {j.id for j in content.rulesets[card.ruleset].infractions})
    parts = {"infraction": card.infraction, "penalty": "warning", "fixes": ["no-such-fix"]}
    assert answer_from_form(content, card, parts).fixes == ()
    assert answer_from_form(content, card, {**parts, "infraction": foreign}) is None
    assert answer_from_form(content, card, {**parts, "penalty": "banishment"}) is None
    assert answer_from_form(content, card, {**parts, "fixes": "not-a-list"}).fixes == ()


def test_a_knowledge_card_reads_its_choice(content):
    card = _first(content, KnowledgeCard)
    assert answer_from_form(content, card, {"choice": card.choices[0].id}) == card.choices[0].id
    assert answer_from_form(content, card, {"choice": None}) is None
    assert answer_from_form(content, card, {"choice": "no-such-choice"}) is None


def test_a_judgement_call_reads_the_nearest_infraction_or_none_listed(content):
    card = _first(content, JudgementCallCard)
    infraction = content.rulesets[card.ruleset].infractions[0].id
    assert answer_from_form(content, card, {"nearest": infraction}) == infraction
    assert answer_from_form(content, card, {"nearest": NO_LISTED_INFRACTION}) == NO_LISTED_INFRACTION
    assert answer_from_form(content, card, {}) is None
