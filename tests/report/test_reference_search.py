"""quiz.report.reference's search: what people type finds the document's lines: the
words in any order, full/half width and kana folded, a ruleset's synonyms, best matches first."""

from __future__ import annotations

import re

import pytest

from quiz.model.words import t
from quiz.report.reference import folded, query_words, search_entries


def found(content, query: str, language: str = "ja") -> dict[tuple[str, str], tuple[int, ...]]:
    """(ruleset, infraction) -> the document lines the hit names, in rank order."""
    return {(hit.entry.ruleset, hit.infraction): hit.lines
            for hit in search_entries(content.rulesets.values(), language, query)}


def test_draw_said_as_people_say_it_finds_the_extra_draw_lines(content, ygo, pkm):
    hits = found(content, "ドロー")  # the document says 引いた, never ドロー
    assert 52 in hits[("yugioh-ocg", "extra_draw")]  # - 故意ではなく、過剰にカードを引いた
    assert 25 in hits[("pokemon-card-ja", "extra_draw")]  # ・誤って、余分にカードを引いてしまった。
    assert "過剰にカードを引いた" in ygo.source_lines[52 - 1]
    assert "余分にカードを引いてしまった" in pkm.source_lines[25 - 1]
    assert list(hits)[:2] == [("pokemon-card-ja", "extra_draw"), ("yugioh-ocg", "extra_draw")]  # best first


@pytest.mark.parametrize("query", ["引きすぎ", "引き過ぎ", "ヒキスギ"])
def test_drawing_too_many_finds_both_games_extra_draw_and_nothing_else(content, query):
    hits = found(content, query)
    assert set(hits) == {("yugioh-ocg", "extra_draw"), ("pokemon-card-ja", "extra_draw")}
    assert 52 in hits[("yugioh-ocg", "extra_draw")] and 25 in hits[("pokemon-card-ja", "extra_draw")]


@pytest.mark.parametrize("query", ["サイド 取り忘れ", "取り忘れ　サイド", "ｻｲﾄﾞ 取り忘れ", "さいど 取り忘れ"])
def test_two_words_in_any_order_and_width_find_the_missed_prize_lines(content, query):
    hits = found(content, query)
    assert hits == {("pokemon-card-ja", "missed_opponent_prize"): (21,), ("pokemon-card-ja", "forgot_prize"): (27,)}


def test_every_word_must_match(content):
    assert found(content, "サイド 遅刻") == {}
    assert found(content, "deck list") and all(rid[1] != "tardiness" for rid in found(content, "deck list"))


def test_a_phrase_in_the_name_ranks_above_words_found_elsewhere(content):
    ranks = [(hit.infraction, hit.rank) for hit in search_entries(content.rulesets.values(), "en", "deck list")]
    assert [name for name, rank in ranks if rank == 0] == ["decklist_mismatch", "decklist_mismatch"]
    assert [rank for _, rank in ranks] == sorted(rank for _, rank in ranks)


def test_folding():
    assert folded("ＤＲＡＷ１０") == "draw10"
    assert folded("ドロー") == folded("どろー") == folded("ﾄﾞﾛｰ")
    assert query_words(" サイド　取り忘れ、遅刻 ") == ["さいど", "取り忘れ", "遅刻"]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_placeholders_examples_each_find_something(content, language):
    placeholder = t("reference.search_placeholder", language)
    examples = [e for e in re.split(r"[、,]\s*", re.sub(r"^(例：|e\.g\.\s*)", "", placeholder)) if e]
    assert len(examples) >= 2, placeholder
    for example in examples:
        assert search_entries(content.rulesets.values(), language, example), f"{example!r} finds nothing"


def test_a_sentence_in_ones_own_words_finds_its_infraction(content):
    """No spaces in Japanese: a particle parts the words (時間に遅れた: 時間, 遅れた), and an
    inflected word is also found by its stem and past forms (遅れ; 見えた: 見た, 見て)."""
    assert query_words("時間に遅れた") == ["時間", "遅れた"]
    assert ("yugioh-ocg", "tardiness") in found(content, "時間に遅れた")
    assert ("yugioh-ocg", "extra_look") in found(content, "見えた")
    assert ("yugioh-ocg", "extra_look") in found(content, "カードが見えた")


def test_cheating_finds_the_intentional_acts_not_nearly_everything(content):
    """イカサマ's synonyms (意図的, 故意に、ルールに違反) are sought in the names and the document's
    lines, not in the app's explanations, which speak of intent for almost every infraction."""
    total = sum(len(ruleset.infractions) for ruleset in content.rulesets.values())
    hits = found(content, "イカサマ")
    assert len(hits) <= total // 3, hits
    assert {("yugioh-ocg", "intentional_violation"), ("pokemon-card-ja", "marking_or_stacking"),
            ("pokemon-card-ja", "trash_to_hand_intentional")} <= set(hits)
    assert not {("yugioh-ocg", "tardiness"), ("yugioh-ocg", "deck_too_few_cards")} & set(hits)
