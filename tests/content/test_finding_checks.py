"""A floor-style card shows evidence: its situation may not say a finding's conclusion in the
document's words outside a quotation, and every finding needs its evidence."""

from __future__ import annotations

import pytest

from quiz.content.finding_checks import telltale_in
from tests.content.card_tree import load_with, make_tree
from tests.findings_cards import EXTRA_DRAW, narration_card, result_card, telltale_card


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


PLAIN_JA = "ドローフェイズに木村選手は山札から2枚を手に取り、すぐに手を止めました。"
PLAIN_EN = "In his draw phase Kimura picked up two cards and stopped at once."


def test_a_plain_account_of_what_was_seen_is_accepted(tree):
    content = load_with(tree, "cards.yaml", narration_card(PLAIN_JA, PLAIN_EN))
    assert content.problems == [] and "t-narration" in content.cards


def test_the_narrator_telling_the_offenders_slip_in_japanese_is_refused_with_its_language(tree):
    content = load_with(tree, "cards.yaml", narration_card(
        "ドローフェイズに木村選手は山札から2枚を引いてしまいました。", PLAIN_EN))
    [problem] = content.problems
    assert (problem.path, problem.line, problem.field) == ("scenarios/yugioh-ocg/cards.yaml", 7,
                                                           "cards[0].situation.ja")
    said = problem.wording.say("en")
    assert "てしま" in said and "ja" in said and "intentional" in said


def test_slipped_in_english_is_refused_and_checked_against_the_english_text_only(tree):
    content = load_with(tree, "cards.yaml", narration_card(PLAIN_JA, "His thumb slipped and two cards came off."))
    [problem] = content.problems
    assert problem.field == "cards[0].situation.en" and "slipped" in problem.wording.say("en")
    # the English list does not check the Japanese text, nor the Japanese list the English
    content = load_with(tree, "cards.yaml", narration_card(PLAIN_JA + "slipped", PLAIN_EN + "てしまった"))
    assert content.problems == []


@pytest.mark.parametrize("en", ["He drew two cards, as if by accident.", "He was pretending to draw one.",
                                "He drew so that his opponent would not see.", "He noticed the second card."])
def test_each_english_word_that_narrates_a_slip_or_a_plan_is_refused(tree, en):
    content = load_with(tree, "cards.yaml", narration_card(PLAIN_JA, en))
    assert [p.field for p in content.problems] == ["cards[0].situation.en"]


@pytest.mark.parametrize("ja", ["木村選手はカードを置いた拍子に2枚引きました。", "木村選手は引こうとして2枚持ち上げました。",
                                "木村選手は1枚を引くふりをして2枚引きました。", "木村選手は2枚目に気づかず手札に入れました。"])
def test_each_japanese_word_that_narrates_a_slip_or_a_plan_is_refused(tree, ja):
    content = load_with(tree, "cards.yaml", narration_card(ja, PLAIN_EN))
    assert [p.field for p in content.problems] == ["cards[0].situation.ja"]


def test_knocked_out_is_a_game_term_not_a_slip(tree):
    content = load_with(tree, "cards.yaml", narration_card(PLAIN_JA, PLAIN_EN + " His monster was knocked out."))
    assert content.problems == []


def test_a_finding_stated_as_a_result_is_refused(tree):
    content = load_with(tree, "cards.yaml", result_card(
        "木村選手は2枚を手札に混ぜました。どれが余分な1枚か分かりません。",
        "Kimura mixed both into his hand; nobody can tell which card was the extra one."))
    assert [p.field for p in content.problems] == ["cards[0].situation.ja", "cards[0].situation.en"]
    assert "can tell which" in content.problems[1].wording.say("en")


def test_the_same_words_quoted_are_a_players_account_and_accepted(tree):
    content = load_with(tree, "cards.yaml", narration_card(
        "木村選手は「指が滑って2枚引いてしまいました」と言いました。",
        'Kimura said: \\"My thumb slipped, I did not notice the second card.\\"'))
    assert content.problems == [] and "t-narration" in content.cards


def test_telltale_in_takes_the_language_of_the_text(tree):
    content = load_with(tree, "cards.yaml", narration_card(PLAIN_JA, PLAIN_EN))
    ruleset = content.rulesets["yugioh-ocg"]
    intent = [spec for spec in ruleset.facts if spec.id == "intentional"]
    assert telltale_in("彼は引いてしまった。", intent, "ja") == ("intentional", "てしま")
    assert telltale_in("彼は引いてしまった。", intent, "en") is None
    assert telltale_in("It slipped.", intent, "en") == ("intentional", "slipped")
    assert telltale_in("He said “it slipped”.", intent, "en") is None


def test_a_variant_choice_that_states_the_result_is_refused(tree):
    card = result_card(PLAIN_JA + "{after}", PLAIN_EN + " {after}").replace(
        "    facts: {identifiable: false}\n",
        "    parameters:\n      after:\n        choice:\n"
        "          - {ja: 1枚目は左端に置かれた。, en: The first went to the far left., facts: {identifiable: true}}\n"
        "          - {ja: どれか分からない。, en: No one can tell which., facts: {identifiable: false}}\n").replace(
        "    expect: {penalty: duel_loss, fixes: []}\n", "")
    content = load_with(tree, "cards.yaml", card)
    assert [p.field for p in content.problems] == ["cards[0].parameters.after.choice[1].ja",
                                                   "cards[0].parameters.after.choice[1].en"]
