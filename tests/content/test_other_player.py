"""Two players, two infractions (CONTENT.md revision 4): where a story holds an infraction by
each player (a Prize left untaken by one and overlooked by the other, Pokémon lines 21 and
27), an answer that rules on the other player's act is never graded as a misapplied
document. The stories that hold both are said as data: an infraction's ``other_player``."""

from __future__ import annotations

import pytest

from quiz.content.loader import Content, load_content
from quiz.rules.engine import judge
from quiz.rules.variants import possible_facts
from quiz.training.answer_grade import grade_json


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def _two_player_cards(content: Content):
    for card in content.scenario_cards:
        infraction = content.rulesets[card.ruleset].infraction(card.infraction)
        if card.findings and not card.parameters and infraction is not None:
            for other in infraction.other_player:
                yield card, other


def test_the_missed_prize_and_the_forgotten_prize_name_each_other(content):
    pokemon = content.rulesets["pokemon-card-ja"]
    assert pokemon.infraction("missed_opponent_prize").other_player == ["forgot_prize"]
    assert pokemon.infraction("forgot_prize").other_player == ["missed_opponent_prize"]
    for ruleset in content.rulesets.values():
        for infraction in ruleset.infractions:
            for other in infraction.other_player:
                assert ruleset.infraction(other) is not None, (ruleset.id, infraction.id, other)


def test_no_card_grades_the_other_players_line_as_a_misapplied_document(content):
    cards = list(_two_player_cards(content))
    assert len(cards) >= 8
    for card, other in cards:
        ruleset = content.rulesets[card.ruleset]
        [facts] = possible_facts(card)
        specs = {spec.id: spec for spec in ruleset.facts}
        assumed = ruleset.infraction(card.infraction).assumes
        truth = {fact: facts.get(fact, assumed.get(fact, specs[fact].default)) for fact in card.findings}
        findings = {fact: str(value).lower() for fact, value in truth.items()}
        verdict = judge(ruleset, card.infraction, facts)
        wrong = next(p.id for p in ruleset.ladder if p.id not in verdict.accepted)
        graded = grade_json(content, card.id, findings, other, wrong)
        assert graded["infraction"] == "wrong" and graded["penalty"] == "wrong", card.id
        assert graded["penalty_follows_findings"] is None, (card.id, other)
        # an unrelated line with the same penalty is still a misapplied document
        unrelated = next(i.id for i in ruleset.infractions if i.id not in (card.infraction, other))
        assert grade_json(content, card.id, findings, unrelated, wrong)["penalty_follows_findings"] is False, card.id


def test_the_missed_prize_cards_name_the_player_whose_ruling_is_asked(content):
    for card_id in ("pkm-missed-opponent-prize-city", "pkm-missed-opponent-prize-store",
                    "pkm-missed-opponent-prize-gym", "pkm-missed-opponent-prize-extra-turns-city"):
        situation = content.cards[card_id].situation
        assert "への裁定" in situation.ja and "Your ruling here is on" in situation.en, card_id
