"""Grading an answer against the verdict."""

from __future__ import annotations

import pytest

from quiz.engine import judge
from quiz.grading import ScenarioAnswer, grade_knowledge, grade_scenario


def test_all_parts_right(ygo):
    verdict = judge(ygo, "rules_misplay", {})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("destroy_used_card", "rewind_game")))
    assert (grade.infraction, grade.penalty, grade.fixes, grade.correct) == ("correct", "correct", "correct", True)
    assert grade.penalty_steps == 0


def test_discretionary_upgrade_is_accepted_and_counts_as_right(ygo):
    verdict = judge(ygo, "slow_play", {"affected_result": True})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("slow_play", "warning", ()))
    assert grade.penalty == "accepted" and grade.correct and grade.penalty_steps == 1


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


def test_missing_required_fix(ygo):
    verdict = judge(ygo, "rules_misplay", {"significant_decision_made": True})
    grade = grade_scenario(ygo, verdict, ScenarioAnswer("rules_misplay", "caution", ("continue_game",)))
    assert grade.fixes == "wrong" and grade.missing_fixes == ("destroy_used_card",)


def test_optional_fix_may_be_given_or_not(pkm):
    verdict = judge(pkm, "extra_draw", {})
    assert grade_scenario(pkm, verdict, ScenarioAnswer("extra_draw", "warning", ("restore_game_state",))).correct
    assert grade_scenario(
        pkm, verdict, ScenarioAnswer("extra_draw", "warning", ("restore_game_state", "hand_penalty"))
    ).correct


def test_infraction_is_the_one_the_engine_settles_on(ygo):
    verdict = judge(ygo, "extra_draw", {"intentional": True})
    stated = grade_scenario(ygo, verdict, ScenarioAnswer("extra_draw", "disqualification_no_prize", ()))
    settled = grade_scenario(ygo, verdict, ScenarioAnswer("intentional_violation", "disqualification_no_prize", ()))
    assert stated.infraction == "wrong" and settled.correct


def test_knowledge_grade(content):
    card = content.knowledge_cards[0]
    assert grade_knowledge(card, card.answer).correct
    other = next(c.id for c in card.choices if c.id != card.answer)
    assert not grade_knowledge(card, other).correct
