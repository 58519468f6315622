"""The floor calls' figures of Progress and Team (``quiz.report.floor_calls``): the tables
as shown, the calls whose evidence is most often missed, the charts in both languages, and
a supervisor's scope (store A's supervisor sees nothing of store B's floor calls)."""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import pandas as pd
import pytest

from quiz.db.answers import save_answer
from quiz.model.cards import FloorCallCard
from quiz.report.csv_export import csv_bytes
from quiz.report.floor_calls import (
    MISSED_TABLE,
    TRAINEE_TABLE,
    floor_call_figures,
    most_missed,
    progress_floor_charts,
    team_floor_calls,
    team_floor_charts,
    trainee_floor_table,
)
from quiz.report.statistics import AnswerScope
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from tests.report.test_floor_call_statistics import call, scenario, store_history
from tests.scopes import EVERY_STORE
from tests.two_stores import NOW, seed_two_stores
from tests.ui.answering import right_answer

CALL = "ygo-fc-two-cards-at-the-draw"


def by_card(*rows: tuple[str, int, int, int]) -> pd.DataFrame:
    """``floor_call_statistics.floor_calls_by`` per card, only the columns ``most_missed`` reads."""
    return pd.DataFrame(rows, columns=["card_id", "answered", "findings", "gathered"])


def test_the_calls_most_often_missed_come_first(content) -> None:
    table = most_missed(by_card(("b", 2, 4, 3), ("a", 1, 2, 0), ("c", 3, 6, 3), ("d", 2, 2, 1), ("none", 2, 0, 0)),
                        content, "en")
    assert list(table.columns) == MISSED_TABLE
    # a: all missed; c and d half (c with more findings first); b a quarter; a call without findings left out
    assert table[["card_id", "missed", "missed_share"]].values.tolist() == [
        ["a", 2, 100.0], ["c", 3, 50.0], ["d", 1, 50.0], ["b", 1, 25.0]]
    assert table["card"].tolist() == ["a", "c", "d", "b"]  # unknown ids stand for their titles
    shipped = most_missed(by_card((CALL, 1, 2, 1)), content, "ja")
    assert shipped["card"].tolist() == [content.cards[CALL].title.ja]


def test_the_trainees_table_and_charts_in_both_languages(store) -> None:
    ids = store_history(store, [
        call(0, "a", ("intentional", True, True), ("identifiable", True, False), leading=1, seconds=400),
        call(1, "a", ("intentional", False, False), correct=False),
        scenario(0, "s", True), scenario(1, "s", False), scenario(1, "t", True),
    ])
    team = team_floor_calls(store, EVERY_STORE)
    names = {ids[0]: "Aiko", ids[1]: "Ben"}
    table = trainee_floor_table(team, names)
    assert list(table.columns) == TRAINEE_TABLE
    assert table.to_dict("records") == [
        {"trainee": "Aiko", "answered": 1, "accuracy": 100.0, "scenario_accuracy": 100.0, "gathered_share": 50.0,
         "right_guesses": 1, "leading_per_call": 1.0, "mean_seconds": 400, "mean_budget": 300,
         "over_budget_share": 100.0},
        {"trainee": "Ben", "answered": 1, "accuracy": 0.0, "scenario_accuracy": 50.0, "gathered_share": 0.0,
         "right_guesses": 0, "leading_per_call": 0.0, "mean_seconds": 120, "mean_budget": 300,
         "over_budget_share": 0.0},
    ]
    for language in ("en", "ja"):
        spec = team_floor_charts(team, names, language)["evidence"]
        assert spec is not None
        alt.Chart.from_dict(spec)  # a valid Vega-Lite spec
        figures = floor_call_figures(store, AnswerScope(ids[0]))
        specs = progress_floor_charts(figures, language)
        assert specs["evidence"] is not None and specs["kinds"] is not None
    assert progress_floor_charts(floor_call_figures(store, AnswerScope(ids[2])), "en") == {"evidence": None, "kinds": None}


@pytest.fixture
def two(store):
    return seed_two_stores(store)


def test_a_supervisor_sees_only_their_stores_floor_calls(store, content, two) -> None:
    card = content.cards[CALL]
    assert isinstance(card, FloorCallCard)
    given = right_answer(content, card)
    assert isinstance(given, ScenarioAnswer)
    for trainee, steps in ((two.aiko, ("hand-count", "sleeves")), (two.ben, ("hand-count",)), (two.ben, ())):
        record = answer_card(content, GivenAnswer(card, replace(given, steps=steps), trainee.id, 30.0)).record
        save_answer(store, replace(record, answered_at=NOW))
    mine = team_floor_calls(store, two.scope_a)
    assert mine.by_trainee["trainee_id"].tolist() == [two.aiko.id]
    assert mine.by_card[["card_id", "answered", "findings", "gathered"]].values.tolist() == [[CALL, 1, 2, 2]]
    assert mine.kinds["trainee_id"].unique().tolist() == [two.aiko.id]
    shown = [trainee_floor_table(mine, {two.aiko.id: "Aiko"}), most_missed(mine.by_card, content, "en")]
    assert all("Ben" not in csv_bytes(table).decode("utf-8-sig") for table in shown)
    everyone = team_floor_calls(store, two.admin.scope())
    assert sorted(everyone.by_trainee["trainee_id"]) == sorted([two.aiko.id, two.ben.id])
    assert everyone.by_card[["answered", "findings", "gathered"]].values.tolist() == [[3, 6, 3]]
    assert team_floor_calls(store, two.scope_b).by_trainee["gathered"].tolist() == [1]
