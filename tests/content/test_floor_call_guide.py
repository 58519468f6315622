"""The authoring guides' floor call is a card that passes validation, and a floor call can be
checked and previewed as a pack like any card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiz.content.packs import GUIDES_DIR, check_pack
from tests.conftest import ROOT
from tests.content.card_tree import load_with, make_tree

GUIDES = [ROOT / "docs" / "AUTHORING.md", *sorted(GUIDES_DIR.glob("authoring.*.md"))]
YAML_BLOCK = re.compile(r"```yaml\n(.*?)```", re.S)


def floor_call_examples(path: Path) -> list[str]:
    return [block for block in YAML_BLOCK.findall(path.read_text(encoding="utf-8")) if "kind: floor_call" in block]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda path: path.name)
def test_the_guide_s_floor_call_passes_validation(tmp_path, guide):
    [example] = floor_call_examples(guide)
    content = load_with(make_tree(tmp_path), "example.yaml", example)
    assert content.problems == []
    [call] = content.floor_calls
    assert call.id == "store-ygo-fc-seat-empty" and call.conflicts


def test_a_floor_call_is_checked_and_previewed_as_a_pack(tmp_path):
    [example] = floor_call_examples(GUIDES[0])
    report = check_pack("calls.yaml", example.encode("utf-8"), tmp_path)
    assert report.problems == [] and report.ok
    [preview] = report.cards
    assert preview.card.kind == "floor_call"
    assert (preview.verdict.infraction, preview.verdict.penalty) == ("tardiness", "match_loss")  # 11 minutes
