"""Fuzzing the loader: mutated real files only ever give located content problems."""

from __future__ import annotations

import resource
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR, load_content

pytestmark = pytest.mark.reliability
CARD_FILE = SCENARIOS_DIR / "yugioh-ocg" / "tardiness.yaml"
RULESET_FILE = RULESETS_DIR / "yugioh-ocg.yaml"
CARD_TEXT = CARD_FILE.read_text(encoding="utf-8")
RULESET_TEXT = RULESET_FILE.read_text(encoding="utf-8")

TOKENS = ["{", "}", "[", "]", ":", "- ", "\t", "  ", "\n", "'", '"', "&a", "*a", "!!", "%", "#", "|", ">", "\\",
          "null", "true", "-1", "1e9", "9" * 40, "yugioh-ocg", "tardiness", "minutes_late", "penalty", "ja", "en"]


@st.composite
def mutated(draw, text: str) -> str:
    """The text with a few edits: deletions, insertions, swapped lines, deep nesting, huge strings."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "insert", "swap", "indent", "nest", "huge", "bytes"]))
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        if kind == "delete" and lines:
            lines.pop(at)
        elif kind == "insert":
            lines.insert(at, "".join(draw(st.lists(st.sampled_from(TOKENS), max_size=6))))
        elif kind == "swap" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "indent" and lines:
            lines[at] = " " * draw(st.integers(1, 5)) + lines[at]
        elif kind == "nest":
            depth = draw(st.integers(50, 3000))
            lines.insert(at, "x: " + "[" * depth + "]" * depth)
        elif kind == "huge":
            lines.insert(at, "    note: " + "あ" * draw(st.integers(10_000, 300_000)))
        elif kind == "bytes" and lines:
            raw = bytearray(lines[at].encode("utf-8"))
            if raw:
                raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
            lines[at] = raw.decode("utf-8", "replace")
    return "\n".join(lines)


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(RULESETS_DIR, root / "rulesets")
    (root / "scenarios" / "yugioh-ocg").mkdir(parents=True)
    shutil.copy(SCENARIOS_DIR / "yugioh-ocg" / "deck.yaml", root / "scenarios" / "yugioh-ocg" / "deck.yaml")
    return root


def _assert_only_located_problems(content, root: Path, broken: str) -> None:
    for problem in content.problems:
        assert problem.path == broken, problem
        assert problem.line >= 1 and problem.message


# The deadline only catches hangs: a loaded 2-core CI machine can take seconds for one load.
SETTINGS = settings(max_examples=60, deadline=60_000, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(text=mutated(CARD_TEXT))
def test_mutated_card_files(tmp_path_factory, text):
    root = _tree(tmp_path_factory.mktemp("fuzz"))
    (root / "scenarios" / "yugioh-ocg" / "tardiness.yaml").write_text(text, encoding="utf-8")
    content = load_content(root / "rulesets", [root / "scenarios"], root)
    _assert_only_located_problems(content, root, "scenarios/yugioh-ocg/tardiness.yaml")
    assert any(card.startswith("ygo-deck") or content.card_files[card].endswith("deck.yaml") for card in content.cards)


@SETTINGS
@given(text=mutated(RULESET_TEXT))
def test_mutated_ruleset_files(tmp_path_factory, text):
    root = _tree(tmp_path_factory.mktemp("fuzz"))
    (root / "rulesets" / "yugioh-ocg.yaml").write_text(text, encoding="utf-8")
    content = load_content(root / "rulesets", [root / "scenarios"], root)
    assert "pokemon-card-ja" in content.rulesets
    for problem in content.problems:
        assert problem.line >= 1 and problem.message
        # the files that refer to the ruleset's ids: its cards, and the themes comparing the games
        assert problem.path in ("rulesets/yugioh-ocg.yaml", "scenarios/yugioh-ocg/deck.yaml",
                                "rulesets/themes/comparison.yaml")


def test_alias_bomb_is_refused_without_eating_memory(tmp_path):
    root = _tree(tmp_path)
    levels = ["a: &a [" + ", ".join(["lol"] * 10) + "]"]
    for n in range(1, 12):
        previous = chr(ord("a") + n - 1)
        levels.append(f"{chr(ord('a') + n)}: &{chr(ord('a') + n)} [" + ", ".join([f"*{previous}"] * 10) + "]")
    (root / "scenarios" / "yugioh-ocg" / "bomb.yaml").write_text("\n".join(levels) + "\n", encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    content = load_content(root / "rulesets", [root / "scenarios"], root)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert [p.path for p in content.problems] == ["scenarios/yugioh-ocg/bomb.yaml"]
    assert "aliases" in content.problems[0].message
    assert grown_mib < 50
    assert content.cards


def test_python_tags_are_refused(tmp_path):
    root = _tree(tmp_path)
    marker = tmp_path / "pwned"
    payload = f"cards: !!python/object/apply:os.system ['touch {marker}']\n"
    (root / "scenarios" / "yugioh-ocg" / "evil.yaml").write_text(payload, encoding="utf-8")
    content = load_content(root / "rulesets", [root / "scenarios"], root)
    assert not marker.exists()
    assert [p.path for p in content.problems] == ["scenarios/yugioh-ocg/evil.yaml"]
    assert "unsafe or unknown YAML tag" in content.problems[0].message
