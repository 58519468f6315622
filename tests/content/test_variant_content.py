"""The shipped variant cards: valid for every value they can draw, and teaching what they claim."""

from __future__ import annotations

import itertools

import pytest

from quiz.model.cards import ScenarioCard
from quiz.rules.engine import judge
from quiz.rules.variants import card_facts, fill_text, show_card
from tests.shipped_content import shipped_content

CONTENT = shipped_content()
VARIANTS = [c for c in CONTENT.scenario_cards if c.parameters]


def every_combination(card: ScenarioCard):
    """Every combination of every parameter's values, story-only ones included."""
    names = list(card.parameters)
    for values in itertools.product(*(card.parameters[n].values() for n in names)):
        yield dict(zip(names, values))


def test_each_game_ships_at_least_three_variant_cards():
    for ruleset in ("yugioh-ocg", "pokemon-card-ja"):
        assert len([c for c in VARIANTS if c.ruleset == ruleset]) >= 3
    assert {c.infraction for c in VARIANTS} >= {"tardiness", "extra_draw", "card_revealed"}


@pytest.mark.parametrize("card", VARIANTS, ids=lambda c: c.id)
def test_every_value_gives_a_verdict_and_a_filled_story(card):
    ruleset = CONTENT.rulesets[card.ruleset]
    for values in every_combination(card):
        verdict = judge(ruleset, card.infraction, card_facts(card, values))
        if card.expect is not None:
            assert (verdict.penalty, set(verdict.fixes)) == (card.expect.penalty, set(card.expect.fixes)), values
        for text in (fill_text(card.title, values), fill_text(card.situation, values)):
            assert "{" not in text.ja + text.en and "}" not in text.ja + text.en


def test_the_tardiness_variant_crosses_every_band():
    card = CONTENT.cards["ygo-variant-tardiness-empty-seat"]
    ruleset = CONTENT.rulesets["yugioh-ocg"]
    seen = {}
    for minutes in card.parameters["minutes"].values():
        # the document: seated late -> warning; still absent after 5 minutes -> duel loss; after 10 -> match loss
        expected = "warning" if minutes < 5 else "duel_loss" if minutes < 10 else "match_loss"
        seen[minutes] = judge(ruleset, "tardiness", card_facts(card, {"minutes": minutes})).penalty
        assert seen[minutes] == expected, minutes
    assert set(seen.values()) == {"warning", "duel_loss", "match_loss"}


def test_the_pokemon_escalation_variant_follows_the_priors():
    card = CONTENT.cards["pkm-variant-escalation-prize-face-up"]
    ruleset = CONTENT.rulesets["pokemon-card-ja"]
    for cautions in card.parameters["cautions"].values():
        for warnings in card.parameters["warnings"].values():
            # a Warning before -> Prize penalty (wins); else two or more Cautions -> Warning; else Caution
            expected = "prize_penalty" if warnings >= 1 else "warning" if cautions >= 2 else "caution"
            facts = card_facts(card, {"cautions": cautions, "warnings": warnings})
            assert judge(ruleset, "card_revealed", facts).penalty == expected, (cautions, warnings)


def test_the_story_states_the_drawn_minutes():
    card = CONTENT.cards["ygo-variant-tardiness-empty-seat"]
    for seed in range(10):
        showing = show_card(card, seed)
        minutes = showing.facts["minutes_late"]
        assert f"{minutes}分" in showing.situation.ja and f"{minutes}-minute" in showing.situation.en
