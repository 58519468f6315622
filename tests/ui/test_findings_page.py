"""Findings on the practice page: asked first, one control each; the feedback marks each with
the evidence that showed it, and tells a wrong finding apart from a misapplied document."""

from __future__ import annotations

import re

import pytest

from quiz.training.grading import ScenarioAnswer
from tests.findings_cards import EXTRA_DRAW
from tests.ui import answering
from tests.ui.test_judging import page_text, show

FOLLOWS = "A finding was wrong, not the document: “Was it done on purpose?” The evidence says No."
MISAPPLIED = "You found the facts right; the document was misapplied"


def why_line(at) -> str:
    """The feedback's one line of why, under its verdict (the rest is folded below it), its
    Markdown escapes removed."""
    return re.sub(r"\\(.)", r"\1", next(m.value for m in at.markdown if m.value.startswith(":material/lightbulb:")))


@pytest.fixture
def cards(imported_cards):
    return imported_cards("findings.yaml", EXTRA_DRAW)


def test_the_form_asks_the_findings_first(open_app, cards):
    at = open_app()
    show(at, "t-floor-draw")
    findings = [w for w in at.get("button_group") if "-finding-" in str(w.key)]  # (not Practice's choice of cards)
    assert [w.label for w in findings] == ["Was it done on purpose?",
                                           "Does the card drawn or seen decisively affect the game?"]
    assert [o for o in findings[0].options] == ["Yes", "No"]


def test_a_missing_finding_keeps_the_form_and_stores_nothing(open_app, cards, store):
    at = open_app()
    card = show(at, "t-floor-draw")
    answering.fill(at, card, ScenarioAnswer("extra_draw", "warning", ("return_extra_to_top",), None,
                                            (("intentional", False),)))
    assert "Answer every finding too." in at.warning[0].value
    assert store.attempts().empty


def test_intent_found_against_the_evidence_is_told_as_a_wrong_finding(open_app, cards, store):
    at = open_app()
    card = show(at, "t-floor-draw")
    answering.fill(at, card, ScenarioAnswer("intentional_violation", "disqualification_no_prize", (), None,
                                            (("intentional", True), ("decisive", False))))
    answering.open_details(at)
    text, why = page_text(at), why_line(at)
    assert FOLLOWS in why and MISAPPLIED not in text
    assert "He stopped and said so himself; the opponent saw the card too." in text  # what showed it
    row = store.attempts().iloc[0]
    assert bool(row["penalty_follows_findings"]) is True
    assert [f["right"] for f in row["findings"]] == [False, True]


def test_right_findings_and_a_wrong_penalty_are_told_as_a_misapplied_document(open_app, cards, store):
    at = open_app()
    card = show(at, "t-floor-draw")
    answering.fill(at, card, ScenarioAnswer("extra_draw", "duel_loss", (), None,
                                            (("intentional", False), ("decisive", False))))
    text, why = page_text(at), why_line(at)
    assert MISAPPLIED in why and "Warning" in why and FOLLOWS not in text
    assert bool(store.attempts().iloc[0]["penalty_follows_findings"]) is False


def test_an_arguable_finding_says_why_and_accepts_the_other_verdict(open_app, cards, store):
    at = open_app(lang="ja")
    card = show(at, "t-floor-look")
    answering.fill(at, card, ScenarioAnswer("extra_look", "duel_loss", (), None, (("decisive", True),)))
    answering.open_details(at)
    text = page_text(at)
    assert "判断が分かれる認定" in text and "残りの手札次第で判断が分かれる" in text
    assert [s.value for s in at.success] == ["すべて正解です。"]
    assert store.attempts().iloc[0]["penalty_result"] == "accepted"
