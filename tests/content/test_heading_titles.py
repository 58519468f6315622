"""English titles of a document's headings (``document.outline.titles``): every
section and item the outline finds has one, checked when the content loads, so that a new
heading never shows Japanese alone to a judge reading in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiz.rules.outline import headings
from tests.content.card_tree import GOOD_CARD, load_with, make_tree

YGO = "rulesets/yugioh-ocg.yaml"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff01-\uff5e]")  # kana, kanji, full-width forms


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path)


def edited(tree: Path, old: str, new: str) -> str:
    """Replace ``old`` (once) in the tree's Yu-Gi-Oh! ruleset file; its new text."""
    path = tree / YGO
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path.read_text(encoding="utf-8")


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.lstrip().startswith(start))


def table_line(text: str) -> int:
    """Where a problem of the whole titles table is shown: its first entry (``locate`` gives a
    block mapping's first line)."""
    return line_of(text, "titles:") + 1


@pytest.mark.parametrize("ruleset_id", ["yugioh-ocg", "pokemon-card-ja"])
def test_every_heading_the_outline_finds_has_an_english_title_and_every_title_a_heading(content, ruleset_id):
    ruleset = content.rulesets[ruleset_id]
    found = headings(ruleset.source_lines, ruleset.document.outline)
    titles = ruleset.document.outline.titles
    assert len(found) >= 30  # sections and items: the outline finds them
    assert set(found) == set(titles)
    assert not [title for title in titles.values() if JAPANESE.search(title)]  # English, not a copy


def test_headings_are_the_documents_titles_in_full_with_their_first_line_and_none_after_the_rules(ygo, pkm):
    found = headings(ygo.source_lines, ygo.document.outline)
    assert found["遅刻"] == 63 and found["A"] == 25
    long_item = "デッキ（サイドデッキを含む）に制限を越えた枚数の「禁止カード」・「制限・準制限カード」が含まれている。"
    assert found[long_item] == 39  # not cut: the key of its English title is the whole heading
    assert "追記" not in found and "関連リンク" not in found  # the afterword's headings are no rules
    assert headings(pkm.source_lines, pkm.document.outline)["違反例"] == 18  # the title group, first seen


def test_a_heading_without_an_english_title_is_a_problem_naming_the_file_and_the_heading(tree):
    text = edited(tree, '      遅刻: "Tardiness"\n', "")
    content = load_with(tree, "good.yaml", GOOD_CARD)
    assert "yugioh-ocg" not in content.rulesets  # refused, as any broken ruleset is
    [problem] = [p for p in content.problems if p.path == YGO]
    assert (problem.field, problem.line) == ("document.outline.titles", table_line(text))
    assert problem.message == ("heading '遅刻' (line 63 of the document) has no English title: "
                               "a judge reading in English would see only the Japanese")
    assert problem.wording.say("ja").startswith("見出し '遅刻'（文書の63行目）に英語の題がありません")


def test_a_title_of_no_heading_is_a_problem_at_its_key(tree):
    text = edited(tree, '      詐欺行為: "Fraud"\n', '      詐欺: "Fraud"\n')  # a mistyped heading
    content = load_with(tree, "good.yaml", GOOD_CARD)
    problems = sorted((p.field, p.line, p.message) for p in content.problems if p.path == YGO)
    assert [(field, line) for field, line, _ in problems] == [
        ("document.outline.titles", table_line(text)), ("document.outline.titles.詐欺", line_of(text, "詐欺:"))]
    assert "'詐欺行為' (line 88 of the document)" in problems[0][2]
    assert problems[1][2].startswith("no heading of the document is titled '詐欺'")


@pytest.mark.parametrize("title", ['""', '"' + "x" * 121 + '"'])
def test_an_empty_or_overlong_title_is_refused_where_it_stands(tree, title):
    text = edited(tree, '      遅刻: "Tardiness"\n', f"      遅刻: {title}\n")
    content = load_with(tree, "good.yaml", GOOD_CARD)
    [problem] = [p for p in content.problems if p.path == YGO]
    assert (problem.field, problem.line) == ("document.outline.titles.遅刻", line_of(text, "遅刻:"))
