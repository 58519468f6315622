"""Conditions in words, and when a chosen penalty would be right."""

from __future__ import annotations

from quiz.explain import describe_condition, describe_facts, describe_rule, when_penalty_applies


def test_describe_comparison_and_booleans(ygo):
    assert describe_condition(ygo, {"minutes_late": {"gte": 5}}, "en") == "Minutes late after the call ≥ 5"
    text = describe_condition(ygo, {"any": [{"identifiable": False}, {"decisive": True}]}, "en")
    assert text == "(The extra card can be identified: no or Decisively affects the game: yes)"
    assert describe_condition(ygo, {"intentional": True}, "ja") == "故意である: はい"


def test_when_a_duel_loss_would_be_right_for_tardiness(ygo):
    found = when_penalty_applies(ygo, "tardiness", "duel_loss", "en").conditions
    assert found[0] == "Minutes late after the call ≥ 5 (unless: Minutes late after the call ≥ 10)"


def test_escalation_is_named_for_pokemon(pkm):
    found = when_penalty_applies(pkm, "card_revealed", "prize_penalty", "en")
    assert found.conditions == ["Warnings already received at this event ≥ 1"] and found.other_infractions == []


def test_other_infractions_are_named_when_none_fits(pkm):
    found = when_penalty_applies(pkm, "card_revealed", "suspension", "en")
    assert found.conditions == [] and found.other_infractions == ["Harm or damage"]


def test_a_single_unconditional_rule_applies_always(ygo, pkm):
    assert when_penalty_applies(pkm, "decklist_mismatch", "game_loss", "en").conditions == [
        "always (every case of this infraction)"
    ]
    assert describe_rule(ygo, ygo.infraction("tardiness"), 2, "en") == "otherwise (none of the cases above)"


def test_facts_in_words(ygo):
    facts = {"minutes_late": 7, "intentional": False}
    assert describe_facts(ygo, facts, "en") == ["Minutes late after the call: 7", "Done on purpose: no"]
    assert describe_facts(ygo, {"identifiable": True}, "ja") == ["引いたカードを特定できる: はい"]
