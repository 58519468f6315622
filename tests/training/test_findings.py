"""Grading a card with findings (CONTENT.md revision 3): each finding right or wrong, an
arguable finding always right and both its verdicts accepted, and a wrong penalty told apart:
it follows from the trainee's own (wrong) findings, or the document was misapplied."""

from __future__ import annotations

import json

import pytest

from quiz.cli import main
from quiz.training.answer_outcomes import answer_scenario
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_from_form, given_from_record
from tests.content.card_tree import load_with, make_tree
from tests.findings_cards import EXTRA_DRAW


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    loaded = load_with(make_tree(tmp_path_factory.mktemp("tree")), "floor.yaml", EXTRA_DRAW)
    assert loaded.problems == []
    return loaded


def graded(content, card_id, findings, infraction, penalty, fixes=()):
    answer = ScenarioAnswer(infraction, penalty, tuple(fixes), None, tuple(findings.items()))
    return answer_scenario(content, content.cards[card_id], GivenAnswer(content.cards[card_id], answer, trainee_id=1,
                                                                        seconds=3.0))


def test_finding_intent_where_the_evidence_shows_none_and_giving_its_disqualification_follows_from_the_finding(content):
    outcome = graded(content, "t-floor-draw", {"intentional": True, "decisive": False},
                     "intentional_violation", "disqualification_no_prize")
    grade = outcome.grade
    assert [(f.fact, f.right) for f in grade.findings] == [("intentional", False), ("decisive", True)]
    assert grade.penalty == "wrong" and grade.penalty_follows_findings is True and not grade.correct
    assert outcome.record.penalty_follows_findings is True
    assert [f.stored() for f in outcome.record.findings][0] == {"fact": "intentional", "chosen": True,
                                                                "standard": False, "right": False}


def test_right_findings_and_a_wrong_penalty_misapply_the_document(content):
    grade = graded(content, "t-floor-draw", {"intentional": False, "decisive": False}, "extra_draw", "duel_loss").grade
    assert all(f.right for f in grade.findings)
    assert grade.penalty == "wrong" and grade.penalty_follows_findings is False


def test_a_wrong_finding_with_a_penalty_it_does_not_give_misapplies_the_document(content):
    grade = graded(content, "t-floor-draw", {"intentional": False, "decisive": True}, "extra_draw", "match_loss").grade
    assert grade.penalty == "wrong" and grade.penalty_follows_findings is False


def test_a_right_penalty_has_no_follows_flag_and_every_right_part_makes_the_answer_right(content):
    grade = graded(content, "t-floor-draw", {"intentional": False, "decisive": False}, "extra_draw", "warning",
                   ["return_extra_to_top"]).grade
    assert grade.correct and grade.penalty == "correct" and grade.penalty_follows_findings is None


def test_a_wrong_finding_alone_makes_the_answer_wrong(content):
    grade = graded(content, "t-floor-draw", {"intentional": False, "decisive": True}, "extra_draw", "warning",
                   ["return_extra_to_top"]).grade
    assert grade.penalty == "correct" and not grade.correct


@pytest.mark.parametrize("found, penalty, fixes, result", [
    (False, "caution", ["return_seen_cards"], "correct"),   # the card's verdict
    (True, "duel_loss", [], "accepted"),                     # the verdict of the arguable finding's other value
    (False, "duel_loss", [], "accepted"),                    # accepted whatever the trainee found
])
def test_an_arguable_finding_is_always_right_and_accepts_both_verdicts(content, found, penalty, fixes, result):
    grade = graded(content, "t-floor-look", {"decisive": found}, "extra_look", penalty, fixes).grade
    assert [f.right for f in grade.findings] == [True]
    assert grade.penalty == result and grade.fixes == "correct" and grade.correct


def test_the_form_asks_every_finding_with_its_type(content):
    card = content.cards["t-floor-draw"]
    parts = {"infraction": "extra_draw", "penalty": "warning", "fixes": ["return_extra_to_top"]}
    assert answer_from_form(content, card, {**parts, "findings": {"intentional": False}}) is None
    assert answer_from_form(content, card, {**parts, "findings": {"intentional": 0, "decisive": False}}) is None
    answer = answer_from_form(content, card, {**parts, "findings": {"decisive": True, "intentional": False}})
    assert answer.findings == (("intentional", False), ("decisive", True))


def test_a_stored_answer_gives_back_its_findings(content):
    outcome = graded(content, "t-floor-draw", {"intentional": True, "decisive": False}, "extra_draw", "warning")
    given = given_from_record(content.cards["t-floor-draw"], outcome.record.values())
    assert given.findings == (("intentional", True), ("decisive", False))
    again = answer_scenario(content, content.cards["t-floor-draw"], GivenAnswer(content.cards["t-floor-draw"], given,
                                                                                trainee_id=1, seconds=3.0))
    assert again.record.values() == outcome.record.values() | {"answered_at": again.record.answered_at}


def test_the_grade_command_prints_every_part(content, capsys, monkeypatch):
    monkeypatch.setattr("quiz.cli.load_content", lambda: content)
    code = main(["grade", "t-floor-draw", "--finding", "intentional=true", "--finding", "decisive=no",
                 "--infraction", "intentional_violation", "--penalty", "disqualification_no_prize"])
    printed = json.loads(capsys.readouterr().out)
    assert code == 0
    assert printed == {"findings": {"intentional": "wrong", "decisive": "correct"}, "infraction": "wrong",
                       "penalty": "wrong", "fixes": "wrong", "players": None, "penalty_follows_findings": True,
                       "correct": False}


@pytest.mark.parametrize("argv, message", [
    (["grade", "no-such-card", "--penalty", "warning"], "no-such-card"),
    (["grade", "t-floor-draw", "--finding", "pattern=true"], "pattern"),
    (["grade", "t-floor-draw", "--finding", "decisive=maybe"], "decisive"),
])
def test_the_grade_command_refuses_an_unknown_card_or_fact(content, capsys, monkeypatch, argv, message):
    monkeypatch.setattr("quiz.cli.load_content", lambda: content)
    assert main(argv) == 2
    assert message in capsys.readouterr().err
