"""The practice flow in the core: a scenario is judged and recorded as it was shown."""

from __future__ import annotations

from dataclasses import replace

from quiz.rules.variants import show_card
from quiz.training.answer_outcomes import answer_scenario, verdict_for
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer

TARDINESS_VARIANT = "ygo-variant-tardiness-empty-seat"


def _seed_with(card, wanted) -> int:
    return next(seed for seed in range(500) if wanted(show_card(card, seed).values["minutes"]))


def test_the_verdict_follows_the_drawn_minutes(content):
    card = content.cards[TARDINESS_VARIANT]
    early = show_card(card, _seed_with(card, lambda m: m < 5))
    late = show_card(card, _seed_with(card, lambda m: m >= 10))
    assert verdict_for(content, card, early).penalty == "warning"
    assert verdict_for(content, card, late).penalty == "match_loss"


def test_an_answer_is_graded_and_recorded_against_its_showing(content):
    card = content.cards[TARDINESS_VARIANT]
    showing = show_card(card, _seed_with(card, lambda m: 5 <= m < 10))
    minutes = showing.facts["minutes_late"]
    answer = ScenarioAnswer(infraction="tardiness", penalty="duel_loss", fixes=(),
                            findings=(("minutes_late", minutes),) if "minutes_late" in card.findings else ())
    outcome = answer_scenario(content, card, GivenAnswer(card, answer, trainee_id=1, seconds=3.0, showing=showing))
    assert outcome.grade.correct and outcome.showing == showing
    # the drawn minutes are the finding's right value: another count is a wrong finding
    other = replace(answer, findings=(("minutes_late", minutes + 1),))
    assert not answer_scenario(content, card, GivenAnswer(card, other, trainee_id=1, seconds=3.0,
                                                          showing=showing)).grade.correct
    assert (outcome.record.standard_penalty, outcome.record.card_id) == ("duel_loss", TARDINESS_VARIANT)


def test_without_a_showing_the_default_seed_is_judged(content):
    card = content.cards[TARDINESS_VARIANT]
    default = show_card(card)
    answer = ScenarioAnswer(infraction="tardiness", penalty="warning", fixes=())
    outcome = answer_scenario(content, card, GivenAnswer(card, answer, trainee_id=1, seconds=1.0))
    assert outcome.showing == default
    assert verdict_for(content, card) == verdict_for(content, card, default)
    assert outcome.record.standard_penalty == verdict_for(content, card, default).penalty
