"""The shipped content: complete, valid, and faithful to the documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.content.coverage import coverage
from quiz.content.ruleset_checks import citation_problems
from quiz.rules.engine import judge
from quiz.rules.variants import possible_facts

ROOT = Path(__file__).resolve().parents[2]
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"

# The id contract of CONTENT.md: outside checks use exactly these.
CONTRACT = {
    "yugioh-ocg": {
        "ladder": ["caution", "warning", "duel_loss", "match_loss", "disqualification", "disqualification_no_prize"],
        "fixes": {"add_cards_to_40", "replace_illegal_cards", "match_deck_to_list", "rewind_game", "continue_game",
                  "destroy_used_card", "return_extra_to_top", "return_seen_cards", "make_indistinguishable"},
        "infractions": {"deck_too_few_cards", "deck_too_many_copies", "deck_unusable_card", "deck_over_limit",
                        "decklist_mismatch", "rules_misplay", "extra_draw", "extra_look", "intentional_violation",
                        "tardiness", "marked_cards", "slow_play", "result_by_chance", "result_bribery",
                        "false_result_report", "received_advice", "talked_to_others", "supporter_harassment"},
        # revision 2: each ruleset declares only the facts its rules, escalations and upgrades read
        "facts": {"intentional", "identifiable", "decisive", "restorable", "significant_decision_made",
                  "minutes_late", "pattern", "affected_result", "prior_same_infraction", "between_games",
                  "between_matches", "both_players"},
    },
    "pokemon-card-ja": {
        "ladder": ["caution", "warning", "prize_penalty", "game_loss", "disqualification", "suspension"],
        "fixes": {"restore_game_state", "hand_penalty", "opponent_takes_prizes"},
        "infractions": {"card_revealed", "skipped_confirmation", "missed_opponent_prize", "extra_draw", "slow_play",
                        "forgot_prize", "cards_mixed_into_deck", "second_supporter", "effect_misplayed",
                        "result_collusion", "decklist_mismatch", "trash_to_hand_intentional",
                        "marking_or_stacking", "harm_or_damage"},
        # revision 3: no between_games or both_players; may_affect_result (line 23)
        "facts": {"intentional", "restorable", "affected_result", "may_affect_result", "prior_cautions",
                  "prior_warnings"},
    },
}


def test_shipped_content_has_no_problems(content):
    assert [str(p) for p in content.problems] == []


@pytest.mark.parametrize("ruleset_id", sorted(CONTRACT))
def test_ruleset_ids_follow_the_contract(content, ruleset_id):
    ruleset = content.rulesets[ruleset_id]
    contract = CONTRACT[ruleset_id]
    assert [p.id for p in ruleset.ladder] == contract["ladder"]
    assert {f.id for f in ruleset.fixes} == contract["fixes"]
    assert {i.id for i in ruleset.infractions} == contract["infractions"]
    assert {f.id for f in ruleset.facts} == contract["facts"]


@pytest.mark.parametrize("ruleset_id", sorted(CONTRACT))
def test_every_cited_line_occurs_in_the_seed(content, ruleset_id):
    ruleset = content.rulesets[ruleset_id]
    citations = [p.citation for p in ruleset.ladder] + [f.citation for f in ruleset.fixes]
    citations += [r.citation for i in ruleset.infractions for r in i.rules]
    citations += [u.citation for u in ruleset.upgrades] + [e.citation for e in ruleset.escalations]
    citations += [c.source for c in content.cards.values() if c.ruleset == ruleset_id]
    assert len(citations) > 40
    for citation in citations:
        assert citation_problems(citation, ruleset.source_lines) == []


@pytest.mark.skipif(not SHARED_SEEDS.is_dir(), reason="../shared/seeds is not beside this checkout")
def test_bundled_sources_are_the_seeds_verbatim():
    for seed in SHARED_SEEDS.glob("*.txt"):
        assert (ROOT / "rulesets" / "sources" / seed.name).read_bytes() == seed.read_bytes()


def test_card_counts(content):
    assert len(content.scenario_cards) >= 90
    assert len(content.knowledge_cards) >= 15
    for ruleset_id in CONTRACT:
        assert any(c.ruleset == ruleset_id for c in content.knowledge_cards)


def test_afterword_cases_quote_only_the_rules(content, ygo):
    """The afterword's stories stay as cards, but each quotes the lines that decide it: the
    afterword (after the rules' last line) is never shown as a rule."""
    assert ygo.source_lines[-1] == "（Welcome to YU-GI-OH! Trading Card Game -Japan-より引用）"
    assert ygo.after_rules[0] == "追記 †" and len(ygo.source_lines) == 102
    afterword = [c for c in content.scenario_cards if c.ruleset == "yugioh-ocg" and "afterword" in c.tags]
    assert len(afterword) >= 8
    for card in (c for c in content.cards.values() if c.ruleset == "yugioh-ocg"):
        assert not any(part in line for part in card.source.ja.split("\n") if part for line in ygo.after_rules), card.id


def test_every_branch_has_two_cards(content):
    short = [row.branch for row in coverage(content) if not row.ok]
    assert short == []


def test_every_scenario_card_states_its_answer_key(content):
    """Every card whose answer is the same for every showing states it; a variant card whose
    answer changes with its values states none (docs/AUTHORING.md, "Card variants")."""
    for card in content.scenario_cards:
        ruleset = content.rulesets[card.ruleset]
        verdicts = [judge(ruleset, card.infraction, facts) for facts in possible_facts(card)]
        answers = {(v.infraction, v.penalty, frozenset(v.fixes), v.players) for v in verdicts}
        assert (card.expect is not None) == (len(answers) == 1), card.id


def test_ids_are_unique_across_rulesets(content):
    ids = [card.id for card in content.cards.values()]
    assert len(ids) == len(set(ids))
