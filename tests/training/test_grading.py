"""Grading an answer against the verdict (revision 2: discretion, optional fixes, both players,
judgement calls)."""

from __future__ import annotations

import pytest

from quiz.model.cards import NO_LISTED_INFRACTION, JudgementCallCard
from quiz.rules.engine import judge
from quiz.training.grading import (
    ScenarioAnswer,
    grade_judgement_call,
    grade_knowledge,
    grade_scenario,
    judgement_call_answer,
    judgement_call_answers,
)


def test_all_parts_right(ygo):
    verdict = judge(ygo, "rules_misplay", {})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("destroy_used_card", "rewind_game")))
    assert (grade.infraction, grade.penalty, grade.fixes, grade.correct) == ("correct", "correct", "correct", True)
    assert grade.penalty_steps == 0 and grade.players is None


@pytest.mark.parametrize(("chosen", "steps"), [("warning", 1), ("duel_loss", 2), ("match_loss", 3)])
def test_discretionary_upgrade_up_to_a_match_loss_counts_as_right(ygo, chosen, steps):
    """YGO line 80: the judge may add to the penalty; revision 2: not limited to one step."""
    verdict = judge(ygo, "slow_play", {"affected_result": True})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", chosen, ()))
    assert grade.penalty == "accepted" and grade.correct and grade.penalty_steps == steps


def test_a_discretionary_penalty_is_accepted_only_for_the_right_infraction(ygo):
    """Line 80's discretion belongs to slow play's rule: the same penalty named under another
    infraction is not a judge's choice the document allows."""
    verdict = judge(ygo, "slow_play", {"affected_result": True})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "duel_loss", ()))
    assert grade.infraction == "wrong" and grade.penalty == "wrong" and not grade.correct
    exact = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", verdict.penalty, ()))
    assert exact.penalty == "correct"  # the standard penalty is still the right penalty


def test_the_headline_calls_only_a_single_wrong_part_close(ygo):
    verdict = judge(ygo, "rules_misplay", {})
    right = ("destroy_used_card", "rewind_game")
    assert grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", right)).headline == "all_right"
    one = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "warning", right))
    assert one.headline == "one_wrong"
    two = grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", "warning", right))
    assert two.results == ("wrong", "wrong", "correct") and two.headline == "some_wrong"
    three = grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", "warning", ()))
    assert three.headline == "all_wrong"


def test_discretion_never_reaches_a_disqualification(ygo):
    verdict = judge(ygo, "slow_play", {"affected_result": True, "prior_same_infraction": 2})
    for chosen in ("disqualification", "disqualification_no_prize"):
        grade = grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", chosen, ()))
        assert grade.penalty == "wrong" and not grade.correct


def test_intentional_slow_play_accepts_only_a_match_loss(ygo):
    """Line 82; the affected-result line (80) stands under the unintentional item only."""
    verdict = judge(ygo, "slow_play", {"intentional": True, "affected_result": True})
    assert grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", "match_loss", ())).correct
    for chosen in ("duel_loss", "disqualification"):
        assert grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", chosen, ())).penalty == "wrong"


@pytest.mark.parametrize(("chosen", "steps"), [("caution", -1), ("duel_loss", 1), ("disqualification_no_prize", 4)])
def test_wrong_penalty_steps(ygo, chosen, steps):
    verdict = judge(ygo, "tardiness", {"minutes_late": 2})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("tardiness", chosen, ()))
    assert grade.penalty == "wrong" and not grade.correct and grade.penalty_steps == steps


def test_no_fix_is_right_when_none_is_required(ygo):
    verdict = judge(ygo, "tardiness", {"minutes_late": 7})
    assert grade_scenario(ygo, verdict, ScenarioAnswer("tardiness", "duel_loss", ())).fixes == "correct"
    wrong = grade_scenario(ygo, verdict, ScenarioAnswer("tardiness", "duel_loss", ("rewind_game",)))
    assert wrong.fixes == "wrong" and wrong.extra_fixes == ("rewind_game",)


def test_unrestorable_extra_draw_wants_no_fix(ygo):
    """YGO line 55: a duel loss; returning the card is no longer possible."""
    verdict = judge(ygo, "extra_draw", {"restorable": False})
    assert grade_scenario(ygo, verdict, ScenarioAnswer("extra_draw", "duel_loss", ())).correct
    stale = grade_scenario(ygo, verdict, ScenarioAnswer("extra_draw", "warning", ("return_extra_to_top",)))
    assert stale.penalty == "wrong" and stale.fixes == "wrong" and stale.extra_fixes == ("return_extra_to_top",)


def test_missing_required_fix(ygo):
    verdict = judge(ygo, "rules_misplay", {"significant_decision_made": True})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("continue_game",)))
    assert grade.fixes == "wrong" and grade.missing_fixes == ("destroy_used_card",)


def test_destroying_the_card_is_optional_when_the_game_is_put_back(ygo):
    """YGO lines 49-51 (revision 3): with the game put back, 使用したカードは破壊する may or may not
    apply; once the game has gone on (line 50) it is required (test_missing_required_fix)."""
    verdict = judge(ygo, "rules_misplay", {})
    assert grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("rewind_game",))).correct
    assert grade_scenario(
        ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("rewind_game", "destroy_used_card"))).correct
    missing = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("destroy_used_card",)))
    assert missing.fixes == "wrong" and missing.missing_fixes == ("rewind_game",)


def test_optional_hand_penalty_may_be_given_or_not(pkm):
    verdict = judge(pkm, "extra_draw", {})
    assert grade_scenario(pkm, verdict, ScenarioAnswer("extra_draw", "warning", ("restore_game_state",))).correct
    assert grade_scenario(
        pkm, verdict, ScenarioAnswer("extra_draw", "warning", ("restore_game_state", "hand_penalty"))
    ).correct


def test_a_restored_game_after_a_warning_is_right(pkm):
    """The issue's case (lines 29-30): the trainee restores the game (the forgotten Prize is taken
    now); the prize penalty comes with the opponent's prizes as the judge's option."""
    verdict = judge(pkm, "forgot_prize", {"prior_warnings": 1})
    for fixes in (("restore_game_state",), ("restore_game_state", "opponent_takes_prizes")):
        assert grade_scenario(pkm, verdict, ScenarioAnswer("forgot_prize", "prize_penalty", fixes)).correct
    forgot = grade_scenario(pkm, verdict, ScenarioAnswer("forgot_prize", "prize_penalty", ("opponent_takes_prizes",)))
    assert not forgot.correct and forgot.missing_fixes == ("restore_game_state",)


def test_a_prize_penalty_never_requires_the_prizes(pkm):
    verdict = judge(pkm, "second_supporter", {})
    assert grade_scenario(pkm, verdict, ScenarioAnswer("second_supporter", "prize_penalty", ())).correct
    assert grade_scenario(pkm, verdict, ScenarioAnswer("second_supporter", "prize_penalty",
                                                       ("opponent_takes_prizes",))).correct


def test_either_or_both_suspensions(pkm):
    """Line 42: a disqualification is accepted beside the suspension."""
    verdict = judge(pkm, "harm_or_damage", {})
    assert grade_scenario(pkm, verdict, ScenarioAnswer("harm_or_damage", "suspension", ())).penalty == "correct"
    grade = grade_scenario(pkm, verdict, ScenarioAnswer("harm_or_damage", "disqualification", ()))
    assert grade.penalty == "accepted" and grade.correct and grade.penalty_steps == -1


def test_infraction_is_the_one_the_engine_settles_on(ygo):
    verdict = judge(ygo, "extra_draw", {"intentional": True})
    stated = grade_scenario(ygo, verdict, ScenarioAnswer("extra_draw", "disqualification_no_prize", ()))
    settled = grade_scenario(ygo, verdict, ScenarioAnswer("intentional_violation", "disqualification_no_prize", ()))
    assert stated.infraction == "wrong" and settled.correct


# --- who receives it ---------------------------------------------------------------------------------

def test_both_players_must_be_named_when_asked(ygo, pkm):
    """YGO line 84 and Pokémon line 39 (対戦相手と相談し): always both (revision 3)."""
    chance = judge(ygo, "result_by_chance", {})
    both = grade_scenario(ygo, chance, ScenarioAnswer("result_by_chance", "disqualification", (), "both"))
    one = grade_scenario(ygo, chance, ScenarioAnswer("result_by_chance", "disqualification", (), "offender"))
    assert both.players == "correct" and both.correct
    assert one.players == "wrong" and not one.correct and one.penalty == "correct"
    collusion = judge(pkm, "result_collusion", {})
    assert grade_scenario(pkm, collusion, ScenarioAnswer("result_collusion", "game_loss", (), "both")).correct
    assert not grade_scenario(pkm, collusion, ScenarioAnswer("result_collusion", "game_loss", (), "offender")).correct


def test_players_not_asked_is_not_graded(ygo):
    grade = grade_scenario(ygo, judge(ygo, "result_by_chance", {}),
                           ScenarioAnswer("result_by_chance", "disqualification", ()))
    assert grade.players is None and grade.correct


# --- knowledge cards and judgement calls ---------------------------------------------------------------

def test_knowledge_grade(content):
    card = content.knowledge_cards[0]
    assert grade_knowledge(card, card.answer).correct
    other = next(c.id for c in card.choices if c.id != card.answer)
    assert not grade_knowledge(card, other).correct


def _call(nearest, facts=None) -> JudgementCallCard:
    return JudgementCallCard.model_validate({
        "id": "jc-test", "kind": "judgement_call", "ruleset": "pokemon-card-ja",
        "title": {"ja": "t", "en": "t"}, "situation": {"ja": "s", "en": "s"},
        "nearest": nearest, "facts": facts or {}, "principle": "examples_only",
        "explanation": {"ja": "e", "en": "e"},
        "source": {"ja": "・誤って、自分のデッキのいちばん上のカード、またはサイドを 1 枚オモテにしてしまった。", "en": "x"},
    })


def test_a_judgement_call_is_graded_on_the_nearest_line_only():
    card = _call("card_revealed", {"intentional": True})
    assert judgement_call_answer(card) == "card_revealed"
    assert grade_judgement_call(card, "card_revealed").correct
    for chosen in ("skipped_confirmation", NO_LISTED_INFRACTION, None):
        assert not grade_judgement_call(card, chosen).correct


def test_a_judgement_call_no_line_covers():
    card = _call(None)
    assert judgement_call_answer(card) == NO_LISTED_INFRACTION
    assert grade_judgement_call(card, NO_LISTED_INFRACTION).correct
    assert not grade_judgement_call(card, "result_collusion").correct


def test_a_judgement_call_with_several_nearest_lines_grades_each_of_them_right():
    """CONTENT.md revision 4: every line a judge could lean on by analogy is accepted."""
    card = _call(["trash_to_hand_intentional", "extra_draw"], {"intentional": False})
    assert card.nearest_lines == ("trash_to_hand_intentional", "extra_draw")
    assert judgement_call_answers(card) == ("trash_to_hand_intentional", "extra_draw")
    assert judgement_call_answer(card) == "trash_to_hand_intentional"  # the line it is practised under
    for chosen in card.nearest_lines:
        grade = grade_judgement_call(card, chosen)
        assert grade.correct and grade.answer == chosen
    for chosen in ("card_revealed", "cards_mixed_into_deck", NO_LISTED_INFRACTION, None):
        grade = grade_judgement_call(card, chosen)
        assert not grade.correct and grade.answer == "trash_to_hand_intentional"


def test_an_old_single_line_judgement_call_still_loads_and_grades():
    card = _call("card_revealed", {"intentional": True})
    assert card.nearest == "card_revealed" and card.nearest_lines == ("card_revealed",)
    assert judgement_call_answers(card) == ("card_revealed",)
    assert _call(None).nearest_lines == () and judgement_call_answers(_call(None)) == (NO_LISTED_INFRACTION,)


@pytest.mark.parametrize("nearest", [[], ["extra_draw", "extra_draw"]], ids=["empty", "repeated"])
def test_a_list_of_nearest_lines_is_not_empty_and_names_each_line_once(nearest):
    with pytest.raises(ValueError):
        _call(nearest)


def test_the_trash_pile_taken_for_the_hand_accepts_the_accidents_own_line(content):
    """The child who picked up the discard pile thinking it was his hand: the disqualification
    line about doing it on purpose (line 47) is not the only line; the warning line about cards
    taken into the hand by mistake (line 25) is right too, and "no line comes near" is not."""
    card = content.cards["pkm-jc-discard-mistaken-for-hand-gym"]
    assert isinstance(card, JudgementCallCard)
    assert grade_judgement_call(card, "extra_draw").correct
    assert grade_judgement_call(card, "trash_to_hand_intentional").correct
    assert not grade_judgement_call(card, NO_LISTED_INFRACTION).correct
