"""A content tree of a test's own: the shipped rulesets and a Yu-Gi-Oh! folder of cards
written by the test, loaded as the app loads its content."""

from __future__ import annotations

import shutil
from pathlib import Path

from quiz.content.loader import RULESETS_DIR, Content, load_content

GOOD_CARD = """\
cards:
  - id: good-card
    kind: scenario
    ruleset: yugioh-ocg
    title: {ja: 遅れて着席, en: Seated late}
    situation: {ja: 3分遅れて着席した。, en: Sat down three minutes late.}
    infraction: tardiness
    facts: {minutes_late: 3}
    expect: {penalty: warning, fixes: []}
    source: {ja: "- 指定の集合時間に自分の席についていなかった。", en: Not seated at the time.}
    style: exam
"""


def make_tree(root: Path) -> Path:
    """``root`` with the shipped rulesets and an empty folder for Yu-Gi-Oh! cards."""
    shutil.copytree(RULESETS_DIR, root / "rulesets")
    (root / "scenarios" / "yugioh-ocg").mkdir(parents=True)
    return root


def load_with(tree: Path, name: str, text: str) -> Content:
    """The tree's content, once ``text`` is written into its card file ``name``."""
    (tree / "scenarios" / "yugioh-ocg" / name).write_text(text, encoding="utf-8")
    return load_content(tree / "rulesets", [tree / "scenarios"], tree)
