"""The pack preview names the infraction and the engine's verdict in the chosen language."""

from __future__ import annotations

from pathlib import Path

from quiz.content.packs import check_pack
from quiz.content.previews import PREVIEW_COLUMNS, preview_table
from tests.pack_files import knowledge, scenario, zip_of

KINDS = {"scenario": "Scenario", "knowledge": "Knowledge"}


def test_preview_rows_show_titles_infraction_and_verdict(tmp_path: Path, content):
    report = check_pack("pack.zip", zip_of({"a.yaml": scenario(), "b.yaml": knowledge()}), tmp_path)
    table = preview_table(report.cards, content.rulesets, "en", KINDS, "No fix")
    assert list(table.columns) == PREVIEW_COLUMNS
    assert table.to_dict("records") == [
        {"file": "a.yaml", "card_id": "pack-ygo-late-15", "game": "Yu-Gi-Oh! OCG", "kind": "Scenario",
         "title": "Seated fifteen minutes in", "infraction": "Tardiness", "verdict": "Match Loss · No fix"},
        {"file": "b.yaml", "card_id": "pack-pkm-k-piles", "game": "Pokémon TCG", "kind": "Knowledge",
         "title": "How many piles", "infraction": "", "verdict": "Shuffling"},
    ]


def test_preview_in_japanese(tmp_path: Path, content):
    report = check_pack("a.yaml", scenario().encode("utf-8"), tmp_path)
    row = preview_table(report.cards, content.rulesets, "ja", KINDS, "処置なし").iloc[0]
    assert (row["title"], row["infraction"], row["verdict"]) == ("十五分後の着席", "遅刻", "マッチの敗北 · 処置なし")
