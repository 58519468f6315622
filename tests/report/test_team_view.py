"""The supervisor's tables as shown: names, percentages and a CSV that is safe to open."""

from __future__ import annotations

import pandas as pd

from quiz.report.csv_export import csv_bytes
from quiz.report.team import CARD_COLUMNS, OVERVIEW_COLUMNS
from quiz.report.team_tables import CARD_TABLE, OVERVIEW_TABLE, card_table, overview_table, percent


def test_percent_rounds_and_keeps_missing_values_missing():
    assert percent(2 / 3) == 66.7
    assert percent(1.0) == 100.0
    assert percent(float("nan")) is None and percent(None) is None


def test_overview_table_names_the_weakest_categories():
    overview = pd.DataFrame([{
        "trainee_id": 1, "trainee": "Aiko", "answered": 3, "correct": 2, "accuracy": 2 / 3,
        "answered_recent": 0, "correct_recent": 0, "accuracy_recent": float("nan"), "exams_passed": 1,
        "last_active": pd.Timestamp("2024-05-19 08:30", tz="UTC"), "weakest": ("yugioh-ocg/tardiness", "x/gone"),
    }], columns=OVERVIEW_COLUMNS)
    table = overview_table(overview, {"yugioh-ocg/tardiness": "Yu-Gi-Oh! OCG › Tardiness"}, "UTC")
    assert list(table.columns) == OVERVIEW_TABLE
    row = table.iloc[0]
    assert row["accuracy"] == 66.7 and row["accuracy_recent"] is None
    assert row["weakest"] == "Yu-Gi-Oh! OCG › Tardiness, x/gone"  # an unknown key shows as itself
    assert row["last_active"] == "2024-05-19 08:30"
    tokyo = overview_table(overview, {}, "Asia/Tokyo")  # a supervisor at UTC+9 reads their own clock
    assert tokyo.iloc[0]["last_active"] == "2024-05-19 17:30"


def test_card_table_shows_names_of_wrong_answers(content):
    stats = pd.DataFrame([
        {"card_id": "ygo-afterword-mai-perfumed-pouch", "ruleset": "yugioh-ocg", "card_kind": "scenario",
         "answered": 4, "correct": 1, "accuracy": 0.25, "wrong_infraction": "slow_play", "wrong_infraction_count": 1,
         "wrong_penalty": "duel_loss", "wrong_penalty_count": 2, "wrong_choice": None, "wrong_choice_count": 0},
        {"card_id": "ygo-k-caution-purpose", "ruleset": "yugioh-ocg", "card_kind": "knowledge",
         "answered": 2, "correct": 1, "accuracy": 0.5, "wrong_infraction": None, "wrong_infraction_count": 0,
         "wrong_penalty": None, "wrong_penalty_count": 0, "wrong_choice": "c", "wrong_choice_count": 1},
        {"card_id": "removed-card", "ruleset": "gone-game", "card_kind": "scenario",
         "answered": 1, "correct": 0, "accuracy": 0.0, "wrong_infraction": None, "wrong_infraction_count": 0,
         "wrong_penalty": "odd", "wrong_penalty_count": 1, "wrong_choice": None, "wrong_choice_count": 0},
    ], columns=CARD_COLUMNS)
    table = card_table(stats, content, "en")
    assert list(table.columns) == CARD_TABLE
    pouch, caution, removed = (table.iloc[i] for i in range(3))
    assert (pouch["card"], pouch["game"], pouch["accuracy"]) == ("The perfumed pouch", "Yu-Gi-Oh! OCG", 25.0)
    assert (pouch["wrong_infraction"], pouch["wrong_penalty"], pouch["wrong_choice"]) == (
        "Slow play (1)", "Duel Loss (2)", "")
    assert caution["wrong_choice"] == "To end the duel in progress (1)"
    assert (removed["card"], removed["game"], removed["wrong_penalty"]) == ("removed-card", "gone-game", "odd (1)")
    japanese = card_table(stats, content, "ja").iloc[0]
    assert (japanese["card"], japanese["wrong_penalty"]) == ("香水のポーチ", "デュエルの敗北 (2)")


def test_csv_has_a_bom_keeps_japanese_and_defuses_formulas():
    frame = pd.DataFrame({"trainee": ["=HYPERLINK(\"http://x\")", "佐藤", "-1+2", "@sum"], "answered": [1, 2, -3, 4]})
    data = csv_bytes(frame)
    assert data.startswith(b"\xef\xbb\xbf")
    lines = data.decode("utf-8-sig").splitlines()
    assert lines[0] == "trainee,answered"
    assert lines[1] == "\"'=HYPERLINK(\"\"http://x\"\")\",1"
    assert lines[2:] == ["佐藤,2", "'-1+2,-3", "'@sum,4"]  # numbers stay numbers
