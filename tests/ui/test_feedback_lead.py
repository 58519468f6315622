"""The feedback leads with the verdict and one line of why; the rest is folded (on a
phone it ran ~2.4 screens): for every kind of card, in both languages, on Practice; and in the
exam's results, inside each question's own expander."""

from __future__ import annotations

import pytest

from quiz.content.loader import load_content
from quiz.model.attempt import PartResult
from quiz.model.cards import JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.words import t
from quiz.training.answer_outcomes import answer_scenario
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from tests.ui import answering

CONTENT = load_content()
WHY_ICON = ":material/lightbulb:"  # the line of why (quiz.ui.feedback_views.lead)
KINDS = {"scenario": ScenarioCard, "knowledge": KnowledgeCard, "judgement_call": JudgementCallCard}


def texts(node) -> list[tuple[str, str]]:
    """(kind of element, text) of every element under ``node``, in the page's order."""
    children = getattr(node, "children", None)
    if children is not None:
        return [found for key in sorted(children) for found in texts(children[key])]
    value = getattr(node, "value", None)
    return [(node.type, str(value))] if value is not None else []


def split(at, label: str):
    """The feedback's details expander, the elements drawn before it and those inside it."""
    details = [e for e in at.expander if e.label == label]
    assert len(details) == 1, [e.label for e in at.expander]
    inside = texts(details[0])
    before: list[tuple[str, str]] = []
    for kind, text in texts(at.main):
        if (kind, text) == inside[0]:
            break
        before.append((kind, text))
    return details[0], before, inside


def wrong_answer(at, card) -> ScenarioAnswer | str:
    """An answer graded wrong (a knowledge card's wrong choice, a scenario's penalty), or for
    a judgement call the right nearest line (its verdict a success)."""
    showing = answering.practice_showing(at, card)
    right = answering.right_answer(CONTENT, card, showing)
    if isinstance(card, KnowledgeCard):
        return next(c.id for c in card.choices if c.id != card.answer)
    if isinstance(card, JudgementCallCard):
        return right
    assert isinstance(right, ScenarioAnswer)
    ruleset = CONTENT.rulesets[card.ruleset]
    candidates = (ScenarioAnswer(right.infraction, penalty.id, right.fixes, right.players, right.findings)
                  for penalty in ruleset.ladder)
    # a penalty graded wrong: not one the card's verdict accepts, nor one an arguable finding's
    # other reading does (that one is graded accepted, with no wrong mark)
    return next(answer for answer in candidates if _penalty_graded(card, showing, answer) is PartResult.WRONG)


def _penalty_graded(card, showing, answer: ScenarioAnswer) -> PartResult:
    given = GivenAnswer(card=card, chosen=answer, trainee_id=0, seconds=1.0, showing=showing)
    return answer_scenario(CONTENT, card, given).grade.penalty


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_verdict_and_one_line_of_why_lead_and_the_rest_is_folded(open_app, lang, kind):
    at = open_app(lang=lang)
    card = answering.deal_until(at, CONTENT, KINDS[kind])
    answering.fill(at, card, wrong_answer(at, card))
    assert not at.exception, at.exception
    closed = [e for e in at.expander if e.label == t("feedback.details", lang)]
    assert len(closed) == 1 and closed[0].proto.expanded is False  # closed until opened,
    assert not closed[0].children  # and nothing drawn into it until then (quiz.ui.folds)
    answering.open_details(at)
    details, before, inside = split(at, t("feedback.details", lang))
    assert details.proto.expanded is True
    verdicts = [text for kind_, text in before if kind_ in ("success", "error")]
    whys = [text for kind_, text in before if text.startswith(WHY_ICON)]
    assert len(verdicts) == 1 and len(whys) == 1, before
    assert before[-2][0] in ("success", "error") and before[-1][1] in whys  # the verdict, then why, then the fold
    # nothing else of the feedback before the fold: no quoted line, mark, heading or standard answer
    assert not any(text.startswith(">") or ":material/check_circle:" in text or ":material/cancel:" in text
                   or text.startswith("####") for _, text in before)
    # inside: the lines of the document first (one tap from the line of why), then the rest
    first_heading = next(text for _, text in inside if text.startswith("####"))
    if kind == "knowledge":
        assert inside[0][1] == t("feedback.source", lang)  # the card's source line
    else:
        assert first_heading == f"#### {t('feedback.document', lang)}"
    assert any(text.startswith(">") for _, text in inside)  # a quoted line of the document
    assert f"#### {t('feedback.why', lang)}" in [text for _, text in inside]
    if kind == "scenario":
        assert f"#### {t('feedback.standard', lang)}" in [text for _, text in inside]
        assert any(":material/cancel:" in text for _, text in inside)  # the wrong part, marked


def test_exam_results_fold_each_answer_inside_its_own_expander(open_app, store):
    from tests.ui.test_exam import PAGE, answer_right, hand_in_confirmed, start_custom

    at = open_app(page=PAGE)
    start_custom(at)
    answer_right(at, store)
    hand_in_confirmed(at)
    assert not at.exception, at.exception
    folds = [e for e in at.expander if e.label == t("feedback.details", "en")]
    assert folds and all(fold.proto.expanded is False and not fold.children for fold in folds)
    answering.open_details(at)
    folds = [e for e in at.expander if e.label == t("feedback.details", "en")]
    assert folds and all(fold.proto.expanded is True for fold in folds)
    for fold in folds:
        assert any(text.startswith(">") for _, text in texts(fold))
