"""A judgement call's ``nearest`` may list every line a judge could lean on (CONTENT.md
revision 4): each listed line is checked, no title names one, and an accident is never keyed
to a line about intent alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.model.cards import JudgementCallCard
from quiz.model.errors import QuizError, UndecidedCaseError
from quiz.model.rulesets import Ruleset
from quiz.rules.engine import judge
from tests.content.card_tree import load_with, make_tree

NAME = "calls.yaml"
CALL = """\
cards:
  - id: lines-card
    kind: judgement_call
    ruleset: yugioh-ocg
    title: {ja: "倒れたセットカード", en: "Set cards knocked over"}
    situation: {ja: ひじでセットカードを倒し、戻すときに入れ違えた。, en: He knocked his set cards over and put them back swapped.}
    nearest:
      - intentional_violation
      - rules_misplay
    facts: {intentional: false}
    principle: discretion
    explanation: {ja: 規定はこの事例を決めていない。, en: The rules do not decide this case.}
    source:
      ja: |-
        - 故意に、ルールに違反したプレイをした
        罰則：受賞資格を失う失格
      en: "- Made a play that breaks the rules on purpose"
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path)


def test_a_call_listing_several_lines_loads(tree):
    content = load_with(tree, NAME, CALL)
    assert content.problems == []
    card = content.cards["lines-card"]
    assert isinstance(card, JudgementCallCard) and card.nearest_lines == ("intentional_violation", "rules_misplay")


def test_an_unknown_line_in_the_list_is_refused_at_its_line(tree):
    content = load_with(tree, NAME, CALL.replace("      - rules_misplay", "      - rule_misplay"))
    assert [(p.path, p.field, p.line) for p in content.problems] == [
        (f"scenarios/yugioh-ocg/{NAME}", "cards[0].nearest[1]", 9)]
    assert "rule_misplay" in content.problems[0].message and "lines-card" not in content.cards


def test_a_title_naming_any_listed_line_is_refused(tree):
    content = load_with(tree, NAME, CALL.replace('en: "Set cards knocked over"', 'en: "A rules misplay?"'))
    assert [p.field for p in content.problems] == ["cards[0].title.en"]
    assert "the nearest infraction 'Rules misplay'" in content.problems[0].message


def test_facts_are_checked_under_the_first_listed_line(tree):
    """The facts state the gap of the first line (the one practised): under the line about
    intent the engine refuses an accident; stated against a line that decides them, they are
    refused as a judgement call."""
    swapped = CALL.replace("      - intentional_violation\n      - rules_misplay",
                           "      - rules_misplay\n      - intentional_violation")
    content = load_with(tree, NAME, swapped)
    assert [p.field for p in content.problems] == ["cards[0].facts"]
    assert "the document decides this case" in content.problems[0].message


def _intent_only(ruleset: Ruleset, infraction: str) -> bool:
    """A line about intent: the engine decides it done on purpose and refuses it done by accident."""
    try:
        judge(ruleset, infraction, {"intentional": True})
    except QuizError:
        return False
    try:
        judge(ruleset, infraction, {"intentional": False})
    except UndecidedCaseError:
        return True
    except QuizError:
        return False
    return False


def _accidents(content) -> list[JudgementCallCard]:
    """The judgement calls whose story is an accident, as data: stated not intentional, or tagged so."""
    return [c for c in content.judgement_calls if c.facts.get("intentional") is False or "accident" in c.tags]


def test_every_accident_is_tagged_and_stated_as_such(content):
    for card in _accidents(content):
        assert card.facts.get("intentional") is False or card.nearest is None, card.id


def test_no_accident_is_keyed_to_a_line_about_intent_alone(content):
    """CONTENT.md revision 4: an accident is never keyed only to a line about intent; it lists
    the accident's own nearest line too, or says that no line comes near."""
    alone = []
    for card in _accidents(content):
        ruleset = content.rulesets[card.ruleset]
        if card.nearest_lines and all(_intent_only(ruleset, line) for line in card.nearest_lines):
            alone.append(card.id)
    assert len(_accidents(content)) >= 10
    assert alone == []
