"""The one line of why under a feedback's verdict: the first thing wrong, the
standard answer and the section that decides it; a wrong finding told apart from a misapplied
document; in both languages, every case."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from quiz.content.loader import load_content
from quiz.model.cards import JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.report.why_line import (
    deciding_citation,
    first_sentence,
    judgement_why,
    knowledge_why,
    scenario_why,
    short_place,
)
from quiz.training.answer_outcomes import ScenarioOutcome, answer_scenario, verdict_for
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from tests.content.card_tree import GOOD_CARD, load_with, make_tree
from tests.findings_cards import EXTRA_DRAW
from tests.ui.answering import right_answer

CONTENT = load_content()
YGO = CONTENT.rulesets["yugioh-ocg"]
LANGS = ("ja", "en")
QUESTION = {"ja": "この違反はわざと（故意に）行われましたか？", "en": "Was it done on purpose?"}  # the finding "intentional"


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    """The shipped rulesets with the tests' own cards: two with findings, and a Yu-Gi-Oh! card
    without (seated three minutes late: a Warning)."""
    tree = make_tree(tmp_path_factory.mktemp("tree"))
    (tree / "scenarios" / "yugioh-ocg" / "good.yaml").write_text(GOOD_CARD, encoding="utf-8")
    return load_with(tree, "floor.yaml", EXTRA_DRAW)


def outcome(content, card_id: str, answer: ScenarioAnswer) -> ScenarioOutcome:
    card = content.cards[card_id]
    assert isinstance(card, ScenarioCard)
    return answer_scenario(content, card, GivenAnswer(card, answer, trainee_id=1, seconds=5.0))


def why(content, card_id: str, answer: ScenarioAnswer, lang: str, answered: bool = True) -> str:
    done = outcome(content, card_id, answer)
    ruleset = content.rulesets[content.cards[card_id].ruleset]
    said = scenario_why(ruleset, done.verdict, done.grade, done.record, answered, lang)
    assert "{" not in said and "}" not in said, said  # every placeholder filled
    return said


@pytest.mark.parametrize(("text", "first"), [
    ("いちばん近い行は「対戦相手と相談し、操作した。」です。しかし断った。", "いちばん近い行は「対戦相手と相談し、操作した。」です。"),
    ('The nearest line is "conferred. and manipulated". But Endo refused.', 'The nearest line is "conferred. and manipulated".'),
    ("A cut means two piles (not three. or more) here. Then more.", "A cut means two piles (not three. or more) here."),
    ("No end at all", "No end at all"),
])
def test_the_first_sentence_does_not_end_inside_a_quote(text, first):
    assert first_sentence(text) == first


def test_the_deciding_line_of_an_escalation_is_the_escalation():
    card = next(c for c in CONTENT.cards.values() if isinstance(c, ScenarioCard) and not c.parameters
                and any(cited.role == "escalation" for cited in verdict_for(CONTENT, c).citations))
    cited = deciding_citation(verdict_for(CONTENT, card))
    assert cited is not None and cited.role == "escalation"


def test_a_place_is_short_and_in_the_language(floor):
    lines = deciding_citation(verdict_for(floor, floor.cards["good-card"])).lines
    ja, en = (short_place(YGO, lines, lang) for lang in LANGS)
    assert ja.startswith("遅刻") and "行目" not in ja and YGO.document.title.ja not in ja
    assert en.startswith("Tardiness") and not re.search(r"[\u3040-\u30ff]", en)  # no Japanese beside it


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_finding_is_told_apart_from_a_misapplied_document(floor, lang):
    # found intent against the evidence: the penalty follows from that finding
    follows = why(floor, "t-floor-draw", ScenarioAnswer("intentional_violation", "disqualification_no_prize", (),
                                                        None, (("intentional", True), ("decisive", False))), lang)
    # the facts found right, the penalty wrong: the document misapplied
    misapplied = why(floor, "t-floor-draw", ScenarioAnswer("extra_draw", "duel_loss", (), None,
                                                           (("intentional", False), ("decisive", False))), lang)
    question = QUESTION[lang]
    no = "いいえ" if lang == "ja" else "No"
    assert question in follows and no in follows  # the finding that was wrong, and what the evidence shows
    assert question not in misapplied
    warning = YGO.name_of("penalty", "warning", lang)
    assert warning in misapplied  # the standard penalty for the facts found
    words = {"ja": ("事実の認定", "規定の当てはめです"), "en": ("A finding was wrong", "the document was misapplied")}
    assert words[lang][0] in follows and words[lang][1] not in follows
    assert words[lang][1] in misapplied


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_finding_and_a_misapplied_document_are_both_named(floor, lang):
    # intent found against the evidence, and a penalty that neither reading gives
    said = why(floor, "t-floor-draw", ScenarioAnswer("extra_draw", "caution", (), None,
                                                     (("intentional", True), ("decisive", False))), lang)
    question = QUESTION[lang]
    assert question in said and YGO.name_of("penalty", "warning", lang) in said


@pytest.mark.parametrize("lang", LANGS)
def test_each_wrong_part_is_the_reason_and_the_section_decides(floor, lang):
    card_id = "good-card"
    place = short_place(YGO, deciding_citation(verdict_for(floor, floor.cards[card_id])).lines, lang)
    warning, duel_loss = (YGO.name_of("penalty", p, lang) for p in ("warning", "duel_loss"))
    tardiness, extra_draw = (YGO.name_of("infraction", i, lang) for i in ("tardiness", "extra_draw"))
    right = why(floor, card_id, ScenarioAnswer("tardiness", "warning", ()), lang)
    assert tardiness in right and warning in right and place in right
    wrong_penalty = why(floor, card_id, ScenarioAnswer("tardiness", "duel_loss", ()), lang)
    assert duel_loss in wrong_penalty and warning in wrong_penalty and place in wrong_penalty
    wrong_infraction = why(floor, card_id, ScenarioAnswer("extra_draw", "warning", ()), lang)
    assert extra_draw in wrong_infraction and tardiness in wrong_infraction
    extra_fix = why(floor, card_id, ScenarioAnswer("tardiness", "warning", ("rewind_game",)), lang)
    assert YGO.name_of("fix", "rewind_game", lang) in extra_fix
    blank = why(floor, card_id, ScenarioAnswer(None, None, ()), lang, answered=False)
    assert tardiness in blank and warning in blank and place in blank
    assert len({right, wrong_penalty, wrong_infraction, extra_fix, blank}) == 5


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_fix_and_an_accepted_penalty(lang):
    fixed = next(c for c in CONTENT.cards.values() if isinstance(c, ScenarioCard) and not c.findings
                 and not c.parameters and c.ruleset == "yugioh-ocg" and verdict_for(CONTENT, c).fixes)
    verdict = verdict_for(CONTENT, fixed)
    missing = why(CONTENT, fixed.id, ScenarioAnswer(verdict.infraction, verdict.penalty, ()), lang)
    assert YGO.name_of("fix", verdict.fixes[0], lang) in missing
    upgraded = next(c for c in CONTENT.cards.values() if isinstance(c, ScenarioCard) and not c.arguable
                    and not c.parameters and len(verdict_for(CONTENT, c).accepted) > 1)
    verdict = verdict_for(CONTENT, upgraded)
    ruleset = CONTENT.rulesets[upgraded.ruleset]
    right = right_answer(CONTENT, upgraded)
    assert isinstance(right, ScenarioAnswer)
    accepted = why(CONTENT, upgraded.id, replace(right, penalty=verdict.accepted[1]), lang)
    assert ruleset.name_of("penalty", verdict.accepted[1], lang) in accepted
    assert ruleset.name_of("penalty", verdict.penalty, lang) in accepted


@pytest.mark.parametrize("lang", LANGS)
def test_knowledge_and_judgement_calls_say_why_in_a_sentence(lang):
    knowledge = next(c for c in CONTENT.cards.values() if isinstance(c, KnowledgeCard))
    said = knowledge_why(knowledge, CONTENT.rulesets[knowledge.ruleset], lang)
    assert first_sentence(knowledge.explanation.get(lang)) in said
    assert said != knowledge.explanation.get(lang)  # one sentence, not the whole explanation
    call = next(c for c in CONTENT.cards.values() if isinstance(c, JudgementCallCard) and c.nearest)
    said = judgement_why(call, lang)
    assert said.startswith(first_sentence(call.explanation.get(lang))) and len(said) < len(call.explanation.get(lang))
