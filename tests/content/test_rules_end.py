"""Where a document's rules end (``document.rules_end``): a citation into what follows (an
afterword, a cut-off fragment of it) is refused, never shown as a rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.content.card_tree import GOOD_CARD, load_with, make_tree

LINE_139 = "当てはまる罰則は存在しないものの、ペガサス、イシズは千年アイテムの能力で常人では知りえない事実を知ることができ"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path)


def test_a_card_quoting_the_afterword_is_refused(tree):
    card = GOOD_CARD.replace('source: {ja: "- 指定の集合時間に自分の席についていなかった。"',
                             f'source: {{ja: "{LINE_139}"')
    content = load_with(tree, "afterword.yaml", card)
    assert "good-card" not in content.cards
    [problem] = content.problems
    assert problem.field == "cards[0].source.ja"
    assert problem.message.startswith("quoted line is after the end of the rules (an afterword, not a rule)")
    assert problem.wording.say("ja").startswith("引用した行は規定の本文が終わったあと")


def test_a_ruleset_citing_the_afterword_is_refused(tree):
    path = tree / "rulesets" / "yugioh-ocg.yaml"
    text = path.read_text(encoding="utf-8")
    old = '"- 注意は、その行為が罰則に違反することをプレイヤーに伝えることを目的とする。"'
    path.write_text(text.replace(old, f'"{LINE_139}"', 1), encoding="utf-8")
    content = load_with(tree, "good.yaml", GOOD_CARD)
    assert "yugioh-ocg" not in content.rulesets
    assert [p.field for p in content.problems if "after the end of the rules" in p.message] == ["ladder[0].citation.ja"]


def test_a_rules_end_that_is_no_line_of_the_document_is_reported(tree):
    path = tree / "rulesets" / "yugioh-ocg.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  rules_end: （Welcome", "  rules_end: （Welcom", 1), encoding="utf-8")
    content = load_with(tree, "good.yaml", GOOD_CARD)
    assert [p.field for p in content.problems if p.path == "rulesets/yugioh-ocg.yaml"] == ["document.rules_end"]


def test_the_shipped_documents_mark_where_their_rules_end(content):
    ygo, pkm = content.rulesets["yugioh-ocg"], content.rulesets["pokemon-card-ja"]
    assert len(ygo.source_lines) == 102 and LINE_139 in ygo.after_rules[139 - 103]
    assert len(pkm.source_lines) == 53  # the blog's closing words and the excerpt's repeat are not rules
    assert pkm.after_rules[56 - 54] == pkm.source_lines[2 - 1]
