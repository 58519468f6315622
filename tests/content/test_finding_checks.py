"""A floor-style card shows evidence: its situation may not say a finding's conclusion in the
document's words outside a quotation, and every finding needs its evidence."""

from __future__ import annotations

import pytest

from tests.content.card_tree import load_with, make_tree
from tests.findings_cards import EXTRA_DRAW, telltale_card


@pytest.fixture()
def tree(tmp_path):
    return make_tree(tmp_path)


def test_a_situation_that_says_decisive_outside_quotes_is_refused(tree):
    content = load_with(tree, "cards.yaml", telltale_card("ゲームの展開に決定的な影響を与えるカードを1枚多く引いた。"))
    assert "t-telltale" not in content.cards
    [problem] = content.problems
    assert (problem.path, problem.line, problem.field) == ("scenarios/yugioh-ocg/cards.yaml", 7,
                                                           "cards[0].situation.ja")
    assert "決定的" in problem.wording.say("ja") and "decisive" in problem.wording.say("en")


def test_english_telltales_are_refused_whatever_their_case(tree):
    content = load_with(tree, "cards.yaml", telltale_card("1枚多く引いた。", "He drew a DECISIVE extra card."))
    [problem] = content.problems
    assert problem.field == "cards[0].situation.en" and "DECISIVE".casefold() in problem.wording.say("en").casefold()


@pytest.mark.parametrize("quoted", ["相手は「それは決定的だ」と言った。", "相手は『決定的だ』と言った。"])
def test_the_word_inside_a_quotation_is_evidence_and_allowed(tree, quoted):
    content = load_with(tree, "cards.yaml", telltale_card(quoted, 'The opponent said \\"that is decisive\\".'))
    assert content.problems == [] and "t-telltale" in content.cards


def test_a_finding_without_evidence_is_refused(tree):
    text = EXTRA_DRAW.replace(
        "        evidence: {ja: 自分から手を止めて申告し、2枚目が相手にも見えていた。, en: \"He stopped and said so himself; the opponent saw the card too.\"}\n",
        "")
    content = load_with(tree, "cards.yaml", text)
    assert "t-floor-draw" not in content.cards
    assert any(p.field.startswith("cards[0].findings.intentional") for p in content.problems)


def test_a_card_without_findings_must_be_tagged_exam_style(tree):
    content = load_with(tree, "cards.yaml", telltale_card("x").replace(
        "    findings:\n      decisive:\n        evidence: {ja: 相手のライフは800で、引いたのはバーンカード。, en: The opponent is on 800 and the card is a burn spell.}\n", ""))
    assert content.cards == {} and "style: exam" in content.problems[0].wording.say("en")


def test_a_finding_on_a_fact_the_ruleset_does_not_ask_is_refused(tree):
    content = load_with(tree, "cards.yaml", EXTRA_DRAW.replace("      decisive:\n        evidence: {ja: 盤面",
                                                                "      prior_same_infraction:\n        evidence: {ja: 盤面"))
    assert "t-floor-draw" not in content.cards
    assert any(p.field == "cards[0].findings.prior_same_infraction" for p in content.problems)
