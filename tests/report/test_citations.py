"""quiz.report.citations: what a feedback quotes, no passage where another holds its lines."""

from __future__ import annotations

import pytest

from quiz.model.cards import JudgementCallCard, ScenarioCard
from quiz.model.errors import UndecidedCaseError
from quiz.model.verdict import CitedLine
from quiz.report import citations
from quiz.rules.engine import judge
from quiz.rules.outline import places
from quiz.rules.variants import seed_facts


def cited(*lines: str, role: str = "rule") -> CitedLine:
    return CitedLine("Doc", role, "\n".join(lines), "")


def quoted_lines(quotes: citations.Quotes) -> list[str]:
    return [part for _, c in quotes.slots if c is not None for part in c.ja.split("\n")]


def none_holds_another(quotes: citations.Quotes) -> bool:
    passages = [set(c.ja.split("\n")) for _, c in quotes.slots if c is not None]
    return not any(i != j and a <= b for i, a in enumerate(passages) for j, b in enumerate(passages))


def test_a_passage_quoted_already_is_left_out():
    quotes = citations.Quotes()
    quotes.add("decisive", cited("A", "B"))
    quotes.add("source", cited("B"))
    assert quotes.covers(cited("A")) and not quotes.covers(cited("C"))
    assert quotes.section("decisive") == [cited("A", "B")]
    assert quotes.section("source") == []


def test_a_longer_passage_takes_the_place_of_the_shorter_ones_it_holds():
    quotes = citations.Quotes()
    quotes.add("decisive", cited("A"))
    quotes.add("more", cited("C"))
    quotes.add("more", cited("B"))
    quotes.add("source", cited("A", "B", "D"))
    assert quotes.section("decisive") == [cited("A", "B", "D")]  # in the first one's place, shown first
    assert quotes.section("more") == [cited("C")]
    assert quotes.section("source") == []
    assert quoted_lines(quotes) == ["A", "B", "D", "C"]


def test_lines_are_compared_by_text_ignoring_surrounding_space():
    quotes = citations.Quotes()
    quotes.add("decisive", cited("  A long line of the document  "))
    assert quotes.covers(cited("A long line"))  # a part of a quoted line is quoted


@pytest.mark.parametrize(("lines", "span"), [
    ((9, 10, 11, 48), "9–11, 48"), ((48, 9, 9), "9, 48"), ((7,), "7"), ((), "?"),
])
def test_line_span(lines, span):
    assert citations.line_span(lines) == span


def test_a_scenarios_quotes_hold_every_line_it_cites_and_no_passage_twice(content):
    for card in (c for c in content.cards.values() if isinstance(c, ScenarioCard)):
        ruleset = content.rulesets[card.ruleset]
        verdict = judge(ruleset, card.infraction, seed_facts(card))
        quotes = citations.scenario_quotes(card, ruleset, verdict)
        assert none_holds_another(quotes), card.id
        assert quotes.section("decisive") or not any(c.role in citations.DECISIVE_ROLES for c in verdict.citations), card.id
        assert all(quotes.covers(c) for c in (*verdict.citations, citations.source_citation(card, ruleset))), card.id


def test_a_judgement_calls_quotes_hold_its_nearest_lines_principle_and_source(content):
    calls = [c for c in content.cards.values() if isinstance(c, JudgementCallCard)]
    assert any(call.nearest for call in calls) and any(call.nearest is None for call in calls)
    for card in calls:
        ruleset = content.rulesets[card.ruleset]
        quotes = citations.judgement_quotes(card, ruleset)
        assert none_holds_another(quotes), card.id
        assert bool(quotes.section("nearest")) == (card.nearest is not None), card.id
        principle = citations.principle_of(card, ruleset)
        assert principle is not None and quotes.covers(cited(principle.citation.ja)), card.id
        assert quotes.covers(citations.source_citation(card, ruleset)), card.id


def test_a_judgement_calls_refusal_names_the_lines_that_leave_it_open(content):
    calls = [c for c in content.cards.values() if isinstance(c, JudgementCallCard)]
    with_facts = [c for c in calls if c.nearest is not None and c.facts]
    assert with_facts
    for card in with_facts:
        refused = citations.refusal(card, content.rulesets[card.ruleset])
        assert isinstance(refused, UndecidedCaseError) and refused.lines, card.id
    assert all(citations.refusal(c, content.rulesets[c.ruleset]) is None for c in calls if c.nearest is None or not c.facts)


# --- where a citation stands: by the document's own section and item titles ---------

def test_a_citation_names_its_section_and_item_and_the_line_only_as_a_detail(ygo):
    rule = judge(ygo, "rules_misplay", {}).citations[0]  # was "47-49, 51行目": lines of the app's copy
    assert rule.lines == (47, 48, 49, 51)
    assert citations.where_cited(ygo, rule.lines, "ja") == (
        "遊戯王OCG 大会罰則規定 › ルールに関する違反 › 「故意ではなく、ルールを誤解したプレイをした」（アプリ内の写しの47–49, 51行目）")
    assert citations.where_cited(ygo, rule.lines, "en") == (
        "Yu-Gi-Oh! OCG Tournament Penalty Rules (遊戯王OCG 大会罰則規定) › Game rule infractions (ルールに関する違反) › "
        "“Not on purpose, made a play that misunderstood the rules” (故意ではなく、ルールを誤解したプレイをした) "
        "(lines 47–49, 51 of the app's copy)")


def test_a_one_line_item_is_its_own_quote_and_a_nested_heading_is_named_in_full(ygo, pkm):
    warning = next(c for c in judge(ygo, "tardiness", {"minutes_late": 3}).citations if c.role == "penalty")
    assert citations.where_cited(ygo, warning.lines, "en") == (
        "Yu-Gi-Oh! OCG Tournament Penalty Rules (遊戯王OCG 大会罰則規定) › Warning (警告) (lines 6–7 of the app's copy)")
    assert citations.where_cited(ygo, (26,), "ja") == "遊戯王OCG 大会罰則規定 › 罰則の適用 › A（アプリ内の写しの26行目）"
    forgot = judge(pkm, "forgot_prize", {}).citations[0]
    assert citations.where_cited(pkm, forgot.lines, "ja").startswith(
        "ポケモンカードゲーム フロアルール（ペナルティ） › ⑷ペナルティについて（重要） › ②「警告」、「手札へのペナルティ」 › 違反例（")


def test_a_line_under_no_heading_and_a_document_without_an_outline_name_the_lines(pkm):
    assert citations.where_cited(pkm, (2,), "en") == (
        "Pokémon Card Game Floor Rules (Penalties) (ポケモンカードゲーム フロアルール（ペナルティ）) (line 2 of the app's copy)")


def test_every_citation_of_the_shipped_content_names_a_section(content):
    for card in (c for c in content.cards.values() if isinstance(c, ScenarioCard)):
        ruleset = content.rulesets[card.ruleset]
        for cited_line in judge(ruleset, card.infraction, seed_facts(card)).citations:
            assert " › " in citations.where_cited(ruleset, cited_line.lines, "ja"), (card.id, cited_line.lines)


def test_in_english_a_card_names_each_heading_by_its_english_title_beside_the_japanese(content):
    """The English title from the ruleset, the Japanese one (by which a judge finds it in the
    official document) beside it; a long Japanese item title is cut, the English one is not."""
    card = content.cards["ygo-tardiness-1min-store"]
    ruleset = content.rulesets[card.ruleset]
    cited = citations.source_citation(card, ruleset)
    assert citations.where_cited(ruleset, cited.lines, "en") == (
        "Yu-Gi-Oh! OCG Tournament Penalty Rules (遊戯王OCG 大会罰則規定) › Tardiness (遅刻) › "
        "“Was not in one's seat at the set assembly time.” (指定の集合時間に自分の席についていなかった。) "
        "(lines 64–65 of the app's copy)")
    assert citations.where_cited(ruleset, cited.lines, "ja") == (
        "遊戯王OCG 大会罰則規定 › 遅刻 › 「指定の集合時間に自分の席についていなかった。」（アプリ内の写しの64–65行目）")
    long_item = citations.where_cited(ruleset, (39, 40), "en")
    assert "› “The deck (side deck included) holds Forbidden or Limited/Semi-Limited cards over their limit.” " \
           "(デッキ（サイドデッキを含む）に制限を越えた枚数の「禁止カー…)" in long_item


def test_in_english_no_shipped_citation_names_a_heading_in_japanese_alone(content):
    """Every section and item a shipped card's verdict cites is said in English first: its
    Japanese title only ever stands in brackets after the English one."""
    for card in (c for c in content.cards.values() if isinstance(c, ScenarioCard)):
        ruleset = content.rulesets[card.ruleset]
        titles = ruleset.document.outline.titles
        for cited_line in judge(ruleset, card.infraction, seed_facts(card)).citations:
            where = citations.where_cited(ruleset, cited_line.lines, "en")
            for place in places(ruleset, cited_line.lines):
                for heading in (*place.sections, *([place.item] if place.item else [])):
                    if titles[heading] != heading:
                        assert titles[heading] in where, (card.id, heading, where)
