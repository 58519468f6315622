"""The supervisor's aggregations, on a real SQLite database with hand-built attempts."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import asdict

import pandas as pd
import pytest
from sqlalchemy import create_engine, insert

from quiz.db.tables import attempts, exams, trainees
from quiz.model.attempt import AttemptRecord
from quiz.report.team import card_statistics, team_overview, weakest_categories
from tests.scopes import EVERY_STORE

NOW = dt.datetime(2024, 5, 20, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def engine(db_url: str):
    """The app's tables on SQLite, and on PostgreSQL when given."""
    engine = create_engine(db_url)
    trainees.metadata.create_all(engine)
    with engine.begin() as conn:
        for tid, name in ((1, "Aiko"), (2, "Ben"), (3, "Chie")):
            conn.execute(insert(trainees).values(id=tid, name=name, created_at=NOW - dt.timedelta(days=30)))
    yield engine
    engine.dispose()


def scenario(trainee_id: int, card_id: str, *, days_ago: float, correct: bool, ruleset: str = "yugioh-ocg",
             category: str = "tardiness", infraction: str = "tardiness", penalty: str = "warning",
             standard_penalty: str = "warning") -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset=ruleset, category=category, card_kind="scenario",
        chosen_infraction=infraction, standard_infraction=category if category != "knowledge" else None,
        chosen_penalty=penalty, standard_penalty=standard_penalty,
        infraction_result="correct" if infraction == category else "wrong",
        penalty_result="correct" if penalty == standard_penalty else "wrong",
        fixes_result="correct", correct=correct, seconds=5.0, answered_at=NOW - dt.timedelta(days=days_ago),
    )


def knowledge(trainee_id: int, card_id: str, *, days_ago: float, chosen: str, answer: str = "a",
              ruleset: str = "yugioh-ocg") -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset=ruleset, category=None, card_kind="knowledge",
        chosen_choice=chosen, correct_choice=answer, correct=chosen == answer, seconds=5.0,
        answered_at=NOW - dt.timedelta(days=days_ago),
    )


def store_all(engine, records: list[AttemptRecord]) -> None:
    with engine.begin() as conn:
        for record in records:
            conn.execute(insert(attempts).values(**asdict(record)))


def history(engine) -> None:
    """Aiko: 4 answers, 2 right; 2 in the last week, 1 right. Ben: 1 right answer 10 days ago."""
    store_all(engine, [
        scenario(1, "ygo-late-a", days_ago=1, correct=True),
        scenario(1, "ygo-late-b", days_ago=2, correct=False, penalty="duel_loss"),
        scenario(1, "ygo-late-a", days_ago=10, correct=False, penalty="caution"),
        knowledge(1, "ygo-k-one", days_ago=20, chosen="a"),
        scenario(2, "ygo-late-a", days_ago=10, correct=True),
    ])


def test_overview_counts_all_time_and_the_last_seven_days(engine):
    history(engine)
    frame = team_overview(engine, EVERY_STORE, NOW)
    assert list(frame["trainee"]) == ["Aiko", "Ben"]  # Chie has no answers
    aiko, ben = frame.iloc[0], frame.iloc[1]
    assert (aiko["answered"], aiko["correct"], aiko["accuracy"]) == (4, 2, 0.5)
    assert (aiko["answered_recent"], aiko["correct_recent"], aiko["accuracy_recent"]) == (2, 1, 0.5)
    assert aiko["last_active"] == NOW - dt.timedelta(days=1)
    assert (ben["answered"], ben["accuracy"], ben["answered_recent"]) == (1, 1.0, 0)
    assert math.isnan(ben["accuracy_recent"])  # nothing in the window, not 0 %
    assert list(frame["exams_passed"]) == [0, 0]  # no exams table in this database


def test_answer_exactly_seven_days_old_is_recent(engine):
    store_all(engine, [scenario(1, "c", days_ago=7, correct=True), scenario(1, "c", days_ago=7.01, correct=True)])
    assert team_overview(engine, EVERY_STORE, NOW).iloc[0]["answered_recent"] == 1


def test_weakest_categories_need_enough_answers_and_a_mistake(engine):
    history(engine)
    # Aiko's tardiness: 3 answers, 1 right; her knowledge has 1 answer (below 3); Ben has no mistake.
    assert weakest_categories(engine, EVERY_STORE) == {1: ["yugioh-ocg/tardiness"]}
    assert weakest_categories(engine, EVERY_STORE, min_answers=1) == {1: ["yugioh-ocg/tardiness"]}  # knowledge 1/1 right
    assert team_overview(engine, EVERY_STORE, NOW).iloc[0]["weakest"] == ("yugioh-ocg/tardiness",)


def test_weakest_categories_order_and_limit(engine):
    store_all(engine, [
        # slow_play: 1 of 2 right (50 %); deck: 0 of 2 (0 %); results: 1 of 4 (25 %); talking: 2 of 2.
        *(scenario(1, "s", days_ago=1, correct=c, category="slow_play") for c in (True, False)),
        *(scenario(1, "d", days_ago=1, correct=False, category="deck") for _ in range(2)),
        *(scenario(1, "r", days_ago=1, correct=c, category="results") for c in (True, False, False, False)),
        *(scenario(1, "t", days_ago=1, correct=True, category="talking") for _ in range(2)),
    ])
    assert weakest_categories(engine, EVERY_STORE, min_answers=2, limit=2) == {1: ["yugioh-ocg/deck", "yugioh-ocg/results"]}
    assert weakest_categories(engine, EVERY_STORE, min_answers=2, limit=5) == {
        1: ["yugioh-ocg/deck", "yugioh-ocg/results", "yugioh-ocg/slow_play"]}


def test_games_filter_keeps_only_those_attempts(engine):
    history(engine)
    store_all(engine, [scenario(2, "pkm-x", days_ago=0, correct=False, ruleset="pokemon-card-ja", category="game_play")])
    pokemon = team_overview(engine, EVERY_STORE, NOW, rulesets=["pokemon-card-ja"])
    assert list(pokemon["trainee"]) == ["Ben"]
    assert (pokemon.iloc[0]["answered"], pokemon.iloc[0]["accuracy"]) == (1, 0.0)
    assert team_overview(engine, EVERY_STORE, NOW, rulesets=[]).empty


def test_exams_passed_are_counted(engine):
    history(engine)
    exam = {"preset": "custom", "settings": {}, "card_ids": [], "seeds": [], "started_at": NOW, "deadline": NOW}
    with engine.begin() as conn:
        conn.execute(insert(exams), [
            {**exam, "trainee_id": 1, "passed": True}, {**exam, "trainee_id": 1, "passed": True},
            {**exam, "trainee_id": 1, "passed": False}, {**exam, "trainee_id": 2, "passed": None},
            {**exam, "trainee_id": 2, "passed": False},
        ])
    assert list(team_overview(engine, EVERY_STORE, NOW)["exams_passed"]) == [2, 0]


def test_card_statistics_find_the_confusing_cards(engine):
    store_all(engine, [
        # X: 1 of 4 right; wrong penalties duel_loss twice and match_loss once; one wrong infraction.
        scenario(1, "x", days_ago=1, correct=True),
        scenario(1, "x", days_ago=1, correct=False, penalty="duel_loss"),
        scenario(2, "x", days_ago=1, correct=False, penalty="duel_loss"),
        scenario(3, "x", days_ago=1, correct=False, penalty="match_loss", infraction="slow_play"),
        # Y (knowledge, answer a): 1 of 3 right; b chosen twice.
        knowledge(1, "y", days_ago=1, chosen="a"),
        knowledge(2, "y", days_ago=1, chosen="b"),
        knowledge(3, "y", days_ago=1, chosen="b"),
        # Z: 2 of 2 right.
        scenario(1, "z", days_ago=1, correct=True),
        scenario(2, "z", days_ago=1, correct=True),
    ])
    frame = card_statistics(engine, EVERY_STORE)
    assert list(frame["card_id"]) == ["x", "y", "z"]  # 25 %, 33 %, 100 %
    x, y, z = (frame.iloc[i] for i in range(3))
    assert (x["answered"], x["correct"], x["accuracy"]) == (4, 1, 0.25)
    assert (x["wrong_penalty"], x["wrong_penalty_count"]) == ("duel_loss", 2)
    assert (x["wrong_infraction"], x["wrong_infraction_count"]) == ("slow_play", 1)
    assert pd.isna(x["wrong_choice"]) and x["wrong_choice_count"] == 0
    assert (y["card_kind"], y["wrong_choice"], y["wrong_choice_count"]) == ("knowledge", "b", 2)
    assert pd.isna(y["wrong_penalty"])
    assert (z["accuracy"], z["wrong_penalty_count"], z["wrong_infraction_count"]) == (1.0, 0, 0)


def test_card_statistics_ties_go_to_the_smaller_id(engine):
    store_all(engine, [
        scenario(1, "x", days_ago=1, correct=False, penalty="match_loss"),
        scenario(1, "x", days_ago=1, correct=False, penalty="caution"),
    ])
    assert card_statistics(engine, EVERY_STORE).iloc[0]["wrong_penalty"] == "caution"


def test_empty_database_gives_empty_frames(engine):
    assert team_overview(engine, EVERY_STORE, NOW).empty
    assert card_statistics(engine, EVERY_STORE).empty
    assert weakest_categories(engine, EVERY_STORE) == {}
