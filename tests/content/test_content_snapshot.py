"""Content snapshots: the same content back, used only while nothing has changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quiz.content import snapshot as content_snapshot
from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR, load_content
from quiz.content.snapshot import load_content_snapshotted
from quiz.rules.engine import judge


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copytree(RULESETS_DIR, tmp_path / "rulesets")
    shutil.copytree(SCENARIOS_DIR / "yugioh-ocg", tmp_path / "scenarios" / "yugioh-ocg")
    return tmp_path


def _load(tree: Path):
    return load_content_snapshotted(tree / "rulesets", [tree / "scenarios"], tree, tree / "cache")


def test_a_snapshot_gives_back_the_same_content(tree):
    fresh = _load(tree)
    assert len(list((tree / "cache").glob("content-*.json"))) == 1
    again = _load(tree)
    assert again is not fresh
    assert list(again.cards) == list(fresh.cards) and again.cards == fresh.cards
    assert {k: r.model_dump() for k, r in again.rulesets.items()} == {k: r.model_dump() for k, r in fresh.rulesets.items()}
    assert again.card_files == fresh.card_files
    assert again.themes == fresh.themes
    ygo = again.rulesets["yugioh-ocg"]
    assert ygo.source_lines == fresh.rulesets["yugioh-ocg"].source_lines
    verdict = judge(ygo, "tardiness", {"minutes_late": 6})
    assert verdict.penalty == "duel_loss" and verdict.citations[0].lines == (66, 67)


def test_the_snapshot_is_read_instead_of_the_yaml(tree, monkeypatch):
    _load(tree)

    def refuse(*args, **kwargs):
        raise AssertionError("loaded from YAML although the snapshot matches")

    monkeypatch.setattr(content_snapshot, "load_content", refuse)
    assert _load(tree).cards


def test_a_changed_file_loads_afresh_and_replaces_the_snapshot(tree):
    first = _load(tree)
    path = tree / "scenarios" / "yugioh-ocg" / "tardiness.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Back from the restroom", "Back from the washroom"), encoding="utf-8")
    second = _load(tree)
    assert second.cards["ygo-tardiness-1min-store"].title.en == "Back from the washroom"
    assert first.cards["ygo-tardiness-1min-store"].title.en == "Back from the restroom"
    assert len(list((tree / "cache").glob("content-*.json"))) == 2  # the newest few are kept


def test_only_the_newest_snapshots_are_kept(tree):
    path = tree / "scenarios" / "yugioh-ocg" / "tardiness.yaml"
    for number in range(content_snapshot.KEEP + 2):
        path.write_text(path.read_text(encoding="utf-8") + f"# edit {number}\n", encoding="utf-8")
        _load(tree)
    assert len(list((tree / "cache").glob("content-*.json"))) == content_snapshot.KEEP


def test_problems_are_kept_in_the_snapshot(tree):
    (tree / "scenarios" / "yugioh-ocg" / "broken.yaml").write_text("cards: [\n", encoding="utf-8")
    fresh = _load(tree)
    again = _load(tree)
    assert [str(p) for p in again.problems] == [str(p) for p in fresh.problems] != []


def test_a_corrupt_snapshot_is_ignored(tree):
    _load(tree)
    [snapshot] = (tree / "cache").glob("content-*.json")
    snapshot.write_text('{"format": 1, "rulesets": "nonsense"}', encoding="utf-8")
    content = _load(tree)
    assert content.cards == load_content(tree / "rulesets", [tree / "scenarios"], tree).cards


def test_the_snapshot_brings_each_cards_category_without_judging_again(tree, monkeypatch):
    from quiz.content import categories

    expected = categories.category_keys(load_content(tree / "rulesets", [tree / "scenarios"], tree))
    assert expected["ygo-tardiness-1min-store"] == "yugioh-ocg/tardiness"
    _load(tree)

    def refuse(*args, **kwargs):
        raise AssertionError("a card was judged although the snapshot holds its category")

    monkeypatch.setattr(categories, "card_category", refuse)
    assert categories.category_keys(_load(tree)) == expected
