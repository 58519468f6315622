"""The engine against the documents, line by line.

Each case names a line of a seed document, a piece of its text (checked against the
seed, so a case cannot drift from the document), the scenario that line decides, and
what the line says. The verdict must match and must cite that line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.engine import judge
from quiz.errors import FactError, UnknownIdError

SOURCES = Path(__file__).resolve().parent.parent / "rulesets" / "sources"
YGO_SEED = (SOURCES / "000_3dbd1793d2ab97b4.txt").read_text(encoding="utf-8").splitlines()
PKM_SEED = (SOURCES / "001_f571d43f7b972e1e.txt").read_text(encoding="utf-8").splitlines()

# (line, text on that line, infraction, facts, penalty, required fixes)
YGO_LINES = [
    (31, "罰則：デュエルの敗北", "deck_too_few_cards", {}, "duel_loss", {"add_cards_to_40"}),
    (32, "40枚に直す", "deck_too_few_cards", {}, "duel_loss", {"add_cards_to_40"}),
    (34, "罰則：デュエルの敗北", "deck_too_many_copies", {}, "duel_loss", {"replace_illegal_cards"}),
    (35, "元のデッキ枚数にもどす", "deck_too_many_copies", {}, "duel_loss", {"replace_illegal_cards"}),
    (37, "罰則：デュエルの敗北", "deck_unusable_card", {}, "duel_loss", {"replace_illegal_cards"}),
    (38, "元のデッキ枚数にもどす", "deck_unusable_card", {}, "duel_loss", {"replace_illegal_cards"}),
    (40, "罰則：デュエルの敗北", "deck_over_limit", {}, "duel_loss", {"replace_illegal_cards"}),
    (41, "元のデッキ枚数にもどす", "deck_over_limit", {}, "duel_loss", {"replace_illegal_cards"}),
    (44, "罰則：デュエルの敗北", "decklist_mismatch", {}, "duel_loss", {"match_deck_to_list"}),
    (45, "デッキリスト通りに修正する", "decklist_mismatch", {}, "duel_loss", {"match_deck_to_list"}),
    (48, "罰則：注意", "rules_misplay", {}, "caution", {"rewind_game", "destroy_used_card"}),
    (49, "ゲームを元の状態に戻す", "rules_misplay", {}, "caution", {"rewind_game", "destroy_used_card"}),
    (50, "ゲームはそのまま進行する", "rules_misplay", {"significant_decision_made": True}, "caution",
     {"continue_game", "destroy_used_card"}),
    (51, "使用したカードは破壊する", "rules_misplay", {"significant_decision_made": True}, "caution",
     {"continue_game", "destroy_used_card"}),
    (53, "罰則：警告", "extra_draw", {}, "warning", {"return_extra_to_top"}),
    (54, "山札の１番上に戻す", "extra_draw", {}, "warning", {"return_extra_to_top"}),
    (55, "どのカードを引いたのかわからない", "extra_draw", {"identifiable": False}, "duel_loss", set()),
    (56, "決定的な影響を与えるカードを引いた", "extra_draw", {"decisive": True}, "duel_loss", set()),
    (58, "罰則：注意", "extra_look", {}, "caution", {"return_seen_cards"}),
    (59, "見てしまったカードを適切な場所に戻す", "extra_look", {}, "caution", {"return_seen_cards"}),
    (60, "元に戻せない状況", "extra_look", {"restorable": False}, "duel_loss", set()),
    (60, "決定的な影響を与えるカードを見て", "extra_look", {"decisive": True}, "duel_loss", set()),
    (62, "受賞資格を失う失格", "intentional_violation", {}, "disqualification_no_prize", set()),
    (62, "受賞資格を失う失格", "extra_draw", {"intentional": True}, "disqualification_no_prize", set()),
    (62, "受賞資格を失う失格", "extra_look", {"intentional": True}, "disqualification_no_prize", set()),
    (62, "受賞資格を失う失格", "rules_misplay", {"intentional": True}, "disqualification_no_prize", set()),
    (65, "罰則：警告", "tardiness", {"minutes_late": 1}, "warning", set()),
    (67, "罰則：デュエルの敗北", "tardiness", {"minutes_late": 6}, "duel_loss", set()),
    (69, "罰則：マッチの敗北", "tardiness", {"minutes_late": 12}, "match_loss", set()),
    (72, "罰則：注意", "marked_cards", {"pattern": False}, "caution", {"make_indistinguishable"}),
    (73, "スリーブを交換する", "marked_cards", {"pattern": False}, "caution", {"make_indistinguishable"}),
    (75, "罰則：デュエルの敗北", "marked_cards", {"pattern": True}, "duel_loss", {"make_indistinguishable"}),
    (76, "スリーブを交換する", "marked_cards", {"pattern": True}, "duel_loss", {"make_indistinguishable"}),
    (79, "罰則：注意", "slow_play", {}, "caution", set()),
    (82, "罰則：マッチの敗北", "slow_play", {"intentional": True}, "match_loss", set()),
    (85, "罰則：失格", "result_by_chance", {}, "disqualification", set()),
    (87, "受賞資格を失う失格", "result_bribery", {}, "disqualification_no_prize", set()),
    (90, "受賞資格を失う失格", "false_result_report", {}, "disqualification_no_prize", set()),
    (93, "罰則：警告", "received_advice", {}, "warning", set()),
    (96, "罰則：警告", "talked_to_others", {}, "warning", set()),
    (99, "罰則：警告", "supporter_harassment", {}, "warning", set()),
    (100, "プレイヤー自身の行為としてみなす", "supporter_harassment", {}, "warning", set()),
]

PKM_LINES = [
    (19, "オモテにしてしまった", "card_revealed", {}, "caution", {"restore_game_state"}),
    (20, "相手の確認を取らず", "skipped_confirmation", {}, "caution", {"restore_game_state"}),
    (21, "サイドを取り忘れたことを見逃して", "missed_opponent_prize", {}, "caution", {"restore_game_state"}),
    (17, "対戦を正しい局面に戻すことができる", "card_revealed", {}, "caution", {"restore_game_state"}),
    (25, "余分にカードを引いて", "extra_draw", {}, "warning", {"restore_game_state"}),
    (26, "遅いプレイングを続けた", "slow_play", {}, "warning", set()),
    (27, "サイドを取り忘れて進行", "forgot_prize", {}, "warning", {"restore_game_state"}),
    (23, "「注意」が複数回科せられた後", "card_revealed", {"prior_cautions": 2}, "warning", {"restore_game_state"}),
    (23, "「注意」が複数回科せられた後", "skipped_confirmation", {"prior_cautions": 3}, "warning",
     {"restore_game_state"}),
    (29, "「警告」が科せられた後", "missed_opponent_prize", {"prior_warnings": 1}, "prize_penalty",
     {"opponent_takes_prizes"}),
    (29, "「警告」が科せられた後", "forgot_prize", {"prior_warnings": 1}, "prize_penalty", {"opponent_takes_prizes"}),
    (29, "「警告」が科せられた後", "card_revealed", {"prior_warnings": 1, "prior_cautions": 2}, "prize_penalty",
     {"opponent_takes_prizes"}),
    (30, "自分のサイドからカードを引く", "cards_mixed_into_deck", {}, "prize_penalty", {"opponent_takes_prizes"}),
    (32, "山札と混ぜて切って", "cards_mixed_into_deck", {}, "prize_penalty", {"opponent_takes_prizes"}),
    (33, "二度目のサポート", "second_supporter", {}, "prize_penalty", {"opponent_takes_prizes"}),
    (34, "カードの効果とは異なるプレイ", "effect_misplayed", {}, "prize_penalty", {"opponent_takes_prizes"}),
    (39, "対戦結果を不当に操作した", "result_collusion", {}, "game_loss", set()),
    (40, "デッキリストと実際のデッキ", "decklist_mismatch", {}, "game_loss", set()),
    (46, "意図的にカードを多く引いた", "extra_draw", {"intentional": True}, "disqualification", set()),
    (47, "トラッシュにあるカードを意図的に", "trash_to_hand_intentional", {}, "disqualification", set()),
    (48, "意図的に長引かせ、それが勝敗に影響", "slow_play", {"intentional": True, "affected_result": True},
     "disqualification", set()),
    (49, "マーキングや積み込み", "marking_or_stacking", {}, "disqualification", set()),
    (53, "参加者に危害を加える", "harm_or_damage", {}, "suspension", set()),
]


def _case_id(case: tuple) -> str:
    line, _, infraction, facts, *_ = case
    shown = ",".join(f"{k}={v}" for k, v in facts.items())
    return f"L{line}-{infraction}" + (f"-{shown}" if shown else "")


def _check(ruleset, seed, case) -> None:
    line, text, infraction, facts, penalty, fixes = case
    assert text in seed[line - 1], f"line {line} of the seed does not say {text!r}"
    verdict = judge(ruleset, infraction, facts)
    assert verdict.penalty == penalty
    assert set(verdict.fixes) == fixes
    assert penalty in verdict.accepted
    cited = {n for c in verdict.citations for n in c.lines}
    assert line in cited, f"verdict does not cite line {line}: {sorted(cited)}"


@pytest.mark.parametrize("case", YGO_LINES, ids=[_case_id(c) for c in YGO_LINES])
def test_yugioh_line(ygo, case):
    _check(ygo, YGO_SEED, case)


@pytest.mark.parametrize("case", PKM_LINES, ids=[_case_id(c) for c in PKM_LINES])
def test_pokemon_line(pkm, case):
    _check(pkm, PKM_SEED, case)


@pytest.mark.parametrize(
    ("minutes", "penalty"),
    [(0, "warning"), (4, "warning"), (5, "duel_loss"), (9, "duel_loss"), (10, "match_loss"), (45, "match_loss")],
)
def test_tardiness_boundaries(ygo, minutes, penalty):
    assert judge(ygo, "tardiness", {"minutes_late": minutes}).penalty == penalty


def test_intentional_acts_become_intentional_violation(ygo):
    for infraction in ("extra_draw", "extra_look", "rules_misplay"):
        verdict = judge(ygo, infraction, {"intentional": True})
        assert verdict.infraction == "intentional_violation"
        assert verdict.trace == (f"yugioh-ocg/{infraction}/intentional", "yugioh-ocg/intentional_violation/standard")


def test_duel_loss_between_duels_applies_to_next_duel(ygo):
    assert "デュエルとデュエルの間に違反した場合は、次のデュエルに適用する" in YGO_SEED[9]
    assert judge(ygo, "decklist_mismatch", {"between_games": True}).applies_to == "next_game"
    assert judge(ygo, "decklist_mismatch", {}).applies_to == "current_game"


def test_match_loss_between_matches_applies_to_next_match(ygo):
    assert "次のマッチに適用することができる" in YGO_SEED[13]
    assert judge(ygo, "tardiness", {"minutes_late": 15, "between_games": True}).applies_to == "next_match"
    assert judge(ygo, "tardiness", {"minutes_late": 15}).applies_to == "current_match"


def test_disqualifications_apply_to_the_event(ygo):
    assert judge(ygo, "result_by_chance", {"between_games": True}).applies_to == "event"
    assert judge(ygo, "false_result_report", {}).applies_to == "event"


def test_principle_b_accepts_the_next_penalty_up(ygo):
    assert "同一の違反を繰り返した場合" in YGO_SEED[27]
    verdict = judge(ygo, "extra_draw", {"prior_same_infraction": 1})
    assert verdict.penalty == "warning"
    assert verdict.accepted == ("warning", "duel_loss")
    assert 28 in {n for c in verdict.citations for n in c.lines}
    assert judge(ygo, "extra_draw", {}).accepted == ("warning",)


def test_principle_b_at_the_top_of_the_ladder_adds_nothing(ygo):
    verdict = judge(ygo, "false_result_report", {"prior_same_infraction": 2})
    assert verdict.accepted == ("disqualification_no_prize",)


@pytest.mark.parametrize(
    ("infraction", "penalty", "upgrade"),
    [
        ("slow_play", "caution", "warning"),
        ("received_advice", "warning", "duel_loss"),
        ("talked_to_others", "warning", "duel_loss"),
        ("supporter_harassment", "warning", "duel_loss"),
    ],
)
def test_affected_result_lets_the_judge_add(ygo, infraction, penalty, upgrade):
    verdict = judge(ygo, infraction, {"affected_result": True})
    assert verdict.penalty == penalty
    assert verdict.accepted == (penalty, upgrade)
    assert "yugioh-ocg/upgrade/affected_result" in verdict.trace


def test_affected_result_does_not_upgrade_other_infractions(ygo):
    assert judge(ygo, "extra_look", {"affected_result": True}).accepted == ("caution",)


def test_pokemon_warning_offers_hand_penalty(pkm):
    verdict = judge(pkm, "extra_draw", {})
    assert verdict.optional_fixes == ("hand_penalty",)
    escalated = judge(pkm, "card_revealed", {"prior_cautions": 2})
    assert escalated.optional_fixes == ("hand_penalty",)
    assert "hand_penalty" not in escalated.fixes


def test_pokemon_escalation_steps(pkm):
    assert judge(pkm, "card_revealed", {"prior_cautions": 1}).penalty == "caution"
    assert judge(pkm, "card_revealed", {"prior_cautions": 2}).penalty == "warning"
    assert judge(pkm, "extra_draw", {"prior_cautions": 5}).penalty == "warning"
    assert judge(pkm, "extra_draw", {"prior_warnings": 1}).penalty == "prize_penalty"
    both = judge(pkm, "skipped_confirmation", {"prior_warnings": 1, "prior_cautions": 2})
    assert both.penalty == "prize_penalty"
    assert both.trace[-1] == "pokemon-card-ja/escalation/after_warning"


def test_pokemon_heavier_penalties_never_escalate(pkm):
    facts = {"prior_warnings": 3, "prior_cautions": 3}
    assert judge(pkm, "cards_mixed_into_deck", facts).penalty == "prize_penalty"
    assert judge(pkm, "decklist_mismatch", facts).penalty == "game_loss"
    assert judge(pkm, "extra_draw", dict(facts, intentional=True)).penalty == "disqualification"


def test_pokemon_intentional_slow_play_without_effect_stays_warning(pkm):
    assert judge(pkm, "slow_play", {"intentional": True}).penalty == "warning"


def test_pokemon_collusion_by_both_players(pkm):
    assert judge(pkm, "result_collusion", {"both_players": True}).players == "both"
    assert judge(pkm, "result_collusion", {}).players == "offender"


def test_pokemon_scopes(pkm):
    assert judge(pkm, "harm_or_damage", {}).applies_to == "future_events"
    assert judge(pkm, "marking_or_stacking", {}).applies_to == "event"
    assert judge(pkm, "decklist_mismatch", {"between_games": True}).applies_to == "next_game"


def test_unknown_infraction_is_an_error(ygo):
    with pytest.raises(UnknownIdError, match="no_such"):
        judge(ygo, "no_such", {})


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"minutes_late": 3, "mood": True}, "unknown fact 'mood'"),
        ({"minutes_late": "soon"}, "whole number"),
        ({"minutes_late": -1}, "at least 0"),
        ({"minutes_late": 3, "intentional": "maybe"}, "true or false"),
        ({}, "minutes_late is required"),
    ],
)
def test_bad_facts_are_errors(ygo, facts, message):
    with pytest.raises(FactError, match=message):
        judge(ygo, "tardiness", facts)


def test_marked_cards_requires_pattern(ygo):
    with pytest.raises(FactError, match="pattern is required"):
        judge(ygo, "marked_cards", {})


def test_command_line_spellings_are_accepted(ygo):
    assert judge(ygo, "tardiness", {"minutes_late": "7"}).penalty == "duel_loss"
    assert judge(ygo, "extra_draw", {"decisive": "true"}).penalty == "duel_loss"
