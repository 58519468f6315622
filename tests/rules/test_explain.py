"""Explanations in words, all derived from the engine: rule conditions from the parsed tree,
and when a chosen penalty would have been right (the issue's examples, from the documents)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.rules.engine import judge
from quiz.rules.explain import WORDS, describe_facts, describe_rule, explain_penalty

SOURCES = Path(__file__).resolve().parents[2] / "rulesets" / "sources"
YGO_SEED = (SOURCES / "000_3dbd1793d2ab97b4.txt").read_text(encoding="utf-8").splitlines()
PKM_SEED = (SOURCES / "001_f571d43f7b972e1e.txt").read_text(encoding="utf-8").splitlines()
ALWAYS = {WORDS["always"].en, WORDS["always"].ja}


# --- rule conditions, described from the tree ---------------------------------------------------

def test_tardiness_rules_in_words(ygo):
    tardiness = ygo.infraction("tardiness")
    assert "１０分経過しても" in YGO_SEED[67] and "５分経過しても" in YGO_SEED[65]
    assert describe_rule(ygo, tardiness, 0, "en") == "Minutes late after the call ≥ 10"
    assert describe_rule(ygo, tardiness, 1, "en") == "Minutes late after the call ≥ 5"
    assert describe_rule(ygo, tardiness, 2, "en") == "otherwise (none of the cases above)"
    assert describe_rule(ygo, tardiness, 0, "ja") == "集合時間からの遅れ（分） ≥ 10"
    assert describe_rule(ygo, tardiness, 2, "ja") == "上記のいずれにも当たらない場合"


def test_extra_draw_duel_loss_rule_in_words(ygo):
    """Line 55 (not identifiable, or otherwise not restorable) and line 56 (decisive)."""
    text = describe_rule(ygo, ygo.infraction("extra_draw"), 1, "en")
    assert text == ("(The extra card can be identified: no or Can be put back: no or "
                    "Decisively affects the game: yes)")
    assert describe_rule(ygo, ygo.infraction("extra_draw"), 1, "ja") == (
        "(引いたカードを特定できる: いいえ または 元に戻せる: いいえ または ゲームの展開に決定的な影響を与える: はい)")


def test_combined_and_single_rules_in_words(ygo, pkm):
    # Pokémon line 48: 意図的に長引かせ、それが勝敗に影響した
    assert describe_rule(pkm, pkm.infraction("slow_play"), 0, "en") == "Done on purpose: yes and Affected the result: yes"
    assert describe_rule(pkm, pkm.infraction("slow_play"), 0, "ja") == "意図的である: はい かつ 勝敗に影響した: はい"
    # one unconditional rule applies always
    assert describe_rule(pkm, pkm.infraction("decklist_mismatch"), 0, "en") == "always (every case of this infraction)"
    assert describe_rule(ygo, ygo.infraction("rules_misplay"), 0, "ja") == "故意である: はい"


# --- when a chosen penalty would have been right ---------------------------------------------------

def test_intentional_yugioh_extra_draw_is_judged_as_an_intentional_violation(ygo):
    """Line 61-62: on purpose it is a deliberate violation, a Disqualification without Prizes,
    not "given for other infractions" (the engine's ``becomes`` is followed)."""
    found = explain_penalty(ygo, "extra_draw", "disqualification_no_prize", {}, "en")
    assert found.possible and found.standard
    assert found.changes == ["Done on purpose: yes"]
    assert found.judged_as == "intentional_violation"
    assert found.verdict.penalty == "disqualification_no_prize"
    assert found.other_infractions == []
    assert explain_penalty(ygo, "extra_draw", "disqualification_no_prize", {}, "ja").changes == ["故意である: はい"]


def test_pokemon_caution_after_an_earlier_warning(pkm):
    """Line 29: after a Warning, a caution-level infraction is a prize penalty; a Caution would be
    right only with no earlier Warning, never "always"."""
    assert "「警告」が科せられた後" in PKM_SEED[28]
    facts = {"prior_warnings": 1}
    assert judge(pkm, "card_revealed", facts).penalty == "prize_penalty"
    found = explain_penalty(pkm, "card_revealed", "caution", facts, "en")
    assert found.possible and found.standard and found.judged_as is None
    assert found.changes == ["Warnings already received at this event: 0"]
    assert not ALWAYS & set(found.changes)
    assert explain_penalty(pkm, "card_revealed", "caution", facts, "ja").changes == ["この大会で受けた警告の数: 0"]


def test_tardiness_of_two_minutes_needs_five_to_nine_for_a_duel_loss(ygo):
    """Lines 66-69: a Duel Loss from 5 minutes, a Match Loss from 10: 5 to 9."""
    found = explain_penalty(ygo, "tardiness", "duel_loss", {"minutes_late": 2}, "en")
    assert found.changes == ["Minutes late after the call: 5 to 9"] and found.standard
    assert explain_penalty(ygo, "tardiness", "duel_loss", {"minutes_late": 2}, "ja").changes == [
        "集合時間からの遅れ（分）: 5〜9"]
    assert explain_penalty(ygo, "tardiness", "match_loss", {"minutes_late": 2}, "en").changes == [
        "Minutes late after the call: 10 or more"]


def test_the_right_penalty_needs_no_change(ygo, pkm):
    found = explain_penalty(ygo, "tardiness", "warning", {"minutes_late": 2}, "en")
    assert found.possible and found.changes == [] and found.standard
    assert explain_penalty(pkm, "harm_or_damage", "disqualification", {}, "en").changes == []  # line 42


def test_an_accepted_only_penalty_says_so(ygo):
    """Line 80: a Warning for unintentional slow play is at the judge's discretion."""
    found = explain_penalty(ygo, "slow_play", "warning", {}, "en")
    assert found.possible and not found.standard
    assert found.verdict.penalty == "caution" and "warning" in found.verdict.accepted
    assert len(found.changes) == 1


def test_no_facts_give_it_names_the_infractions_that_do(ygo, pkm):
    found = explain_penalty(pkm, "card_revealed", "suspension", {}, "en")
    assert not found.possible and found.changes == [] and found.verdict is None
    assert found.other_infractions == ["Harm or damage"]
    assert explain_penalty(pkm, "card_revealed", "suspension", {}, "ja").other_infractions == ["危害・備品の破損"]
    # revision 2: intentional slow play (line 82) and principle B never reach a disqualification
    slow = explain_penalty(ygo, "slow_play", "disqualification", {"intentional": True}, "en")
    assert not slow.possible and slow.other_infractions == ["Deciding the result by chance"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_explanation_is_the_engines_verdict(ygo, language):
    """Lines 55-56: one fact away (not identifiable, not restorable, or decisive), with no fix."""
    found = explain_penalty(ygo, "extra_draw", "duel_loss", {}, language)
    assert found.standard and len(found.changes) == 1
    assert found.verdict.trace == ("yugioh-ocg/extra_draw/unrestorable_or_decisive",)
    assert (found.verdict.penalty, found.verdict.fixes) == ("duel_loss", ())


# --- facts in words ------------------------------------------------------------------------------------

def test_facts_in_words(ygo):
    facts = {"minutes_late": 7, "intentional": False}
    assert describe_facts(ygo, facts, "en") == ["Minutes late after the call: 7", "Done on purpose: no"]
    assert describe_facts(ygo, {"identifiable": True}, "ja") == ["引いたカードを特定できる: はい"]
