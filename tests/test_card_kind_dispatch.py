"""Card kinds are one unit: code that does something different per kind of card does it in one
dispatch module per stage (``quiz.model.cards.CARD_KINDS`` names them). Anywhere else in the
package, an ``isinstance`` on a card class or a ``match`` case on one fails this test."""

from __future__ import annotations

import ast
from pathlib import Path

from quiz.model.cards import CARD_KINDS, AnyCard

PACKAGE = Path(__file__).resolve().parents[1] / "quiz"
CARD_CLASSES = {cls.__name__ for cls in AnyCard.__args__}  # type: ignore[attr-defined]
DISPATCH_MODULES = {
    "report/card_words.py",
    "content/card_kinds.py",
    "training/kinds.py",
    "ui/card_views.py",
}


def class_names(node: ast.AST) -> set[str]:
    """The names a node mentions, ``Card`` and ``cards.Card`` alike."""
    return {n.id if isinstance(n, ast.Name) else n.attr
            for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))}


def kind_checks(tree: ast.AST) -> list[int]:
    """Lines that test a value against a card class: ``isinstance(x, Card)``, ``case Card():``
    or ``type(x) is Card``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            if len(node.args) > 1 and CARD_CLASSES & class_names(node.args[1]):
                lines.append(node.lineno)
        if isinstance(node, ast.MatchClass) and CARD_CLASSES & class_names(node.cls):
            lines.append(node.lineno)
        if (isinstance(node, ast.Compare) and isinstance(node.left, ast.Call)
                and isinstance(node.left.func, ast.Name) and node.left.func.id == "type"
                and any(CARD_CLASSES & class_names(c) for c in node.comparators)):
            lines.append(node.lineno)
    return lines


def test_every_kind_of_card_is_named_once():
    assert set(CARD_KINDS) == {cls.model_fields["kind"].annotation.__args__[0] for cls in AnyCard.__args__}


def test_only_the_dispatch_modules_branch_on_the_kind_of_card():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in DISPATCH_MODULES:
            continue
        lines = kind_checks(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[relative] = lines
    assert found == {}, f"branch on a card's kind in a dispatch module instead: {found}"


def test_the_check_finds_every_spelling():
    code = "isinstance(card, (KnowledgeCard, str))\nmatch card:\n    case ScenarioCard():\n        pass\n"
    assert kind_checks(ast.parse(code)) == [1, 3]
    code = "isinstance(card, cards.JudgementCallCard)\nif type(card) is ScenarioCard:\n    pass\nisinstance(x, str)\n"
    assert kind_checks(ast.parse(code)) == [1, 2]
