"""Grading a floor call's investigation beside its ruling (CONTENT.md, "Floor calls"): the
ruling decides whether the answer is right; each finding's evidence is gathered only by a step
that shows it and is not leading; a question to a player before the players are separated is
reported."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from quiz.model.cards import FloorCallCard
from quiz.model.errors import StepError
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.investigation import checked_steps, investigate, open_steps
from quiz.training.kinds import answer_card
from tests.conftest import ROOT
from tests.floor_calls import FLOOR_CALL, floor_call

RIGHT = dict(infraction="extra_draw", penalty="warning", fixes=("return_extra_to_top",),
             findings=(("intentional", False), ("identifiable", True)))
APART = {"id": "apart", "separate": True, "text": {"ja": "離す。", "en": "Take them apart."},
         "reply": {"ja": "離れた。", "en": "They are apart."}}


def card(**changes) -> FloorCallCard:
    return FloorCallCard.model_validate(floor_call(**changes))


def ruled(content, call: FloorCallCard, steps: tuple[str, ...], **answer):
    given = ScenarioAnswer(**{**RIGHT, **answer}, steps=steps)
    return answer_card(content, GivenAnswer(call, given, trainee_id=1, seconds=20.0))


def test_a_right_ruling_without_the_step_that_shows_a_finding_is_right_with_its_evidence_missed(content):
    outcome = ruled(content, card(), ("kimura-what", "hand"))
    record = outcome.record
    assert record.correct and all(finding.right for finding in record.findings)
    assert record.investigation is not None
    assert dict(record.investigation.evidence) == {"intentional": "missed", "identifiable": "gathered"}
    assert record.card_kind == "floor_call"


def test_a_leading_question_never_counts_as_gathering(content):
    investigation = ruled(content, card(), ("sato-leading",)).record.investigation
    assert investigation is not None
    assert investigation.evidence == (("intentional", "missed"), ("identifiable", "missed"))
    assert investigation.leading == ("sato-leading",)
    gathered = ruled(content, card(), ("sato-leading", "takada-saw")).record.investigation
    assert gathered is not None and gathered.gathered("intentional")


def test_seconds_are_the_steps_round_time_against_the_budget(content):
    investigation = ruled(content, card(budget_seconds=100), ("kimura-what", "hand", "sleeves")).record.investigation
    assert investigation is not None
    assert (investigation.seconds, investigation.budget_seconds, investigation.over_budget) == (150, 100, True)


def test_a_question_to_a_player_before_separating_is_reported():
    call = card(separate=True, steps=copy.deepcopy(FLOOR_CALL["steps"]) + [APART])
    asked_first = investigate(call, ("sato-what", "apart", "kimura-what"))
    assert asked_first.separated is False and asked_first.overheard == ("sato-what",)
    apart_first = investigate(call, ("takada-saw", "apart", "sato-what", "kimura-what"))
    assert apart_first.separated is True and apart_first.overheard == ()  # the spectator is not a player
    never = investigate(call, ("kimura-what",))
    assert never.separated is False and never.overheard == ("kimura-what",)
    assert investigate(card(), ("sato-what",)).separated is None  # a call that does not ask it


def test_a_follow_up_opens_once_its_steps_are_taken():
    call = card()
    assert "sleeves" not in {step.id for step in open_steps(call, ())}
    assert "sleeves" in {step.id for step in open_steps(call, ("hand",))}
    assert "hand" not in {step.id for step in open_steps(call, ("hand",))}
    with pytest.raises(StepError, match="follows hand"):
        checked_steps(call, ("sleeves",))
    with pytest.raises(StepError, match="unknown step 'nope'"):
        checked_steps(call, ("nope",))
    assert checked_steps(call, ("hand", "hand", "sleeves")) == ("hand", "sleeves")


def test_a_wrong_ruling_is_wrong_whatever_the_investigation(content):
    record = ruled(content, card(), ("hand", "sleeves", "takada-saw"), penalty="duel_loss").record
    assert not record.correct and record.investigation is not None
    assert all(value == "gathered" for _, value in record.investigation.evidence)


def grade(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "quiz", "grade", *arguments], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_quiz_grade_takes_steps_and_reports_the_investigation():
    done = grade("ygo-fc-two-cards-at-the-draw", "--finding", "intentional=false", "--finding", "identifiable=true",
                 "--infraction", "extra_draw", "--penalty", "warning", "--fix", "return_extra_to_top",
                 "--step", "kimura-what", "--step", "sato-leading", "--step", "hand-count")
    assert done.returncode == 0, done.stderr
    graded = json.loads(done.stdout)
    assert graded["correct"] is True
    assert graded["investigation"] == {"evidence": {"intentional": "missed", "identifiable": "gathered"},
                                       "leading": ["sato-leading"], "seconds": 120, "budget_seconds": 300,
                                       "separated": None}
    unknown = grade("ygo-fc-two-cards-at-the-draw", "--infraction", "extra_draw", "--penalty", "warning",
                    "--step", "nope")
    assert unknown.returncode == 2 and "unknown step 'nope'" in unknown.stderr
    scenario = grade("ygo-extradraw-drew-again-after-chat", "--infraction", "extra_draw", "--penalty", "warning",
                     "--step", "x")
    assert scenario.returncode == 2 and "not a floor call" in scenario.stderr
