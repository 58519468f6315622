"""Feedback marks: every part wrong is said so; an unanswered exam question is not half right."""

from __future__ import annotations

import pytest

from quiz.model.cards import ScenarioCard
from quiz.rules.variants import CardShowing
from quiz.training.answer_outcomes import verdict_for
from quiz.training.grading import ScenarioAnswer
from tests.shipped_content import shipped_content
from tests.ui import answering
from tests.ui.test_exam import PAGE as EXAM_PAGE
from tests.ui.test_exam import answer_right, hand_in_confirmed, start_custom

CONTENT = shipped_content()


def all_wrong(card: ScenarioCard, showing: CardShowing) -> ScenarioAnswer:
    ruleset = CONTENT.rulesets[card.ruleset]
    verdict = verdict_for(CONTENT, card, showing)
    infraction = next(i.id for i in ruleset.infractions if i.id != verdict.infraction)
    penalty = next(p.id for p in ruleset.ladder if p.id not in verdict.accepted)
    allowed = set(verdict.fixes) | set(verdict.optional_fixes)
    fixes = () if verdict.fixes else tuple(f.id for f in ruleset.fixes if f.id not in allowed)[:1]
    found = answering.right_answer(CONTENT, card, showing).findings  # then each found wrong
    wrong = tuple((fact, not value if isinstance(value, bool) else value + 1) for fact, value in found)
    return ScenarioAnswer(infraction, penalty, fixes, None, wrong)


def test_every_part_wrong_is_not_called_not_quite(open_app):
    at = open_app()
    for _ in range(30):
        card = answering.deal_until(at, CONTENT, ScenarioCard)
        given = all_wrong(card, answering.practice_showing(at, card))
        # an arguable finding's other reading may make another infraction right: not all wrong
        plain = not any(finding.arguable is not None for finding in card.findings.values())
        if plain and (given.fixes or verdict_for(CONTENT, card, answering.practice_showing(at, card)).fixes):
            break
        at.session_state["practice"].card = None
        at.run()
    else:
        pytest.fail("no card dealt in 30 tries has fixes to get wrong")
    if answering.players_question(at) is not None:
        verdict = verdict_for(CONTENT, card, answering.practice_showing(at, card))
        given = ScenarioAnswer(given.infraction, given.penalty, given.fixes,
                               "offender" if verdict.players == "both" else "both", given.findings)
    answering.fill(at, card, given)
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == ["Wrong on every part — see below."]
    assert not any(":material/check_circle:" in m.value for m in at.markdown)


def test_an_unanswered_exam_question_is_shown_as_not_answered_without_marks(open_app, store):
    at = open_app(page=EXAM_PAGE)
    start_custom(at)
    answer_right(at, store)
    hand_in_confirmed(at)
    errors = [e.value for e in at.error]
    assert errors[1:] == ["Not answered — the standard answer is below."]
    assert not any("Not quite" in e for e in errors)
    assert not any(":material/check_circle:" in m.value for m in at.markdown)  # no part marked right
    assert any("The standard answer" in m.value for m in at.markdown)


def test_an_unanswered_exam_question_in_japanese(open_app, store):
    at = open_app(lang="ja", page=EXAM_PAGE)
    next(n for n in at.number_input if n.label == "問題数").set_value(2)
    at.multiselect(key="exam-custom-games").set_value(["yugioh-ocg"])
    at.multiselect(key="exam-custom-categories").set_value(["yugioh-ocg/tardiness"])
    at.button(key="exam-start-custom").click().run()
    hand_in_confirmed(at)
    assert "未回答です。下に標準の答えを示します。" in [e.value for e in at.error]
