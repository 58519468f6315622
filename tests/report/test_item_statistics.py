"""Item statistics in SQL equal the pandas oracle on generated histories, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert

from quiz.db.tables import attempt_regrades, attempts, problem_reports, review_schedules, trainee_name_keys, trainees
from quiz.model.attempt import AttemptRecord
from quiz.report.item_statistics import distractors, item_statistics, point_biserial
from tests import stats_oracle as oracle
from tests.recording import record
from tests.scopes import EVERY_STORE

START = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
PENALTIES = ["caution", "warning", "duel_loss"]
FIXES = [(), ("rewind_game",), ("destroy_used_card", "rewind_game")]
CARDS = [f"card-{i}" for i in range(7)]
KNOWLEDGE = {"card-5", "card-6"}  # answered by a choice
SECONDS = [1.0, 2.5, 2.5, 4.75, 9.0, 30.0]

answer_strategy = st.tuples(
    st.integers(0, 4),  # trainee
    st.sampled_from(CARDS),
    st.booleans(),  # right
    st.integers(0, 2),  # chosen penalty / choice
    st.integers(0, 2),  # chosen fixes
    st.sampled_from(SECONDS),
)


def attempt(trainee_id: int, card: str, right: bool, chosen: int, fixes: int, seconds: float, n: int) -> AttemptRecord:
    when = START + dt.timedelta(minutes=n)
    if card in KNOWLEDGE:
        return AttemptRecord(trainee_id=trainee_id, card_id=card, ruleset="pokemon-card-ja", category=None,
                             card_kind="knowledge", chosen_choice="abc"[chosen], correct_choice="a",
                             correct=right, seconds=seconds, answered_at=when)
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card, ruleset="yugioh-ocg", category="rules", card_kind="scenario",
        chosen_infraction="rules_misplay" if chosen < 2 else "extra_draw", standard_infraction="rules_misplay",
        chosen_penalty=PENALTIES[chosen], standard_penalty="caution", chosen_fixes=FIXES[fixes],
        standard_fixes=FIXES[2], infraction_result="correct" if chosen < 2 else "wrong",
        penalty_result="correct" if chosen == 0 else "wrong", fixes_result="correct" if fixes == 2 else "wrong",
        correct=right, seconds=seconds, answered_at=when,
    )


def empty(store) -> None:
    with store.engine.begin() as conn:
        for table in (problem_reports, attempt_regrades, review_schedules, attempts, trainee_name_keys, trainees):
            conn.execute(delete(table))


def stored_history(store, answers, reports) -> list[int]:
    empty(store)
    ids = [store.trainee(f"T{i}").id for i in range(5)]
    records = []
    for n, (trainee, card, right, chosen, fixes, seconds) in enumerate(answers):
        records.append(attempt(ids[trainee], card, right, chosen, fixes, seconds, n))
        record(store, records[-1])
    for index, (which, resolved) in enumerate(reports):
        if records:  # written as they are: any number per trainee and card (the limits on filing aside)
            reported = records[which % len(records)]
            with store.engine.begin() as conn:
                conn.execute(insert(problem_reports).values(
                    trainee_id=reported.trainee_id, card_id=reported.card_id, reason="key_wrong", text=f"report {index}",
                    created_at=reported.answered_at, resolved=resolved, resolution="fixed" if resolved else None))
    return ids


def assert_equal_to_oracle(store) -> None:
    frame = store.attempts()
    sql = item_statistics(store, EVERY_STORE)
    with store.engine.connect() as conn:
        rows = conn.execute(problem_reports.select().where(problem_reports.c.resolved.is_(False))).mappings().all()
    open_counts = pd.Series([row["card_id"] for row in rows], dtype=object).value_counts().to_dict()
    expected = oracle.item_statistics(frame, open_counts)
    assert sql["card_id"].tolist() == expected["card_id"].tolist()
    for column in ("ruleset", "answers", "correct", "open_reports"):
        assert sql[column].tolist() == expected[column].tolist(), column
    for column in ("difficulty", "median_seconds", "discrimination"):
        np.testing.assert_allclose(sql[column].to_numpy(float), expected[column].to_numpy(float),
                                   rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=column)
    keys = ["card_id", "part", "chosen"]
    got = distractors(store, EVERY_STORE).sort_values(keys, ignore_index=True)
    want = oracle.distractors(frame).sort_values(keys, ignore_index=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    answers=st.lists(answer_strategy, max_size=60),
    reports=st.lists(st.tuples(st.integers(0, 100), st.booleans()), max_size=4),
)
def test_item_statistics_equal_pandas_on_generated_histories(store, answers, reports):
    stored_history(store, answers, reports)
    assert_equal_to_oracle(store)


def test_a_large_varied_history_equals_pandas(store):
    """One bigger history (every card answered by everyone, many times) as a fixed case."""
    rng = np.random.default_rng(7)
    answers = [
        (int(rng.integers(5)), CARDS[int(rng.integers(len(CARDS)))], bool(rng.random() < 0.6), int(rng.integers(3)),
         int(rng.integers(3)), SECONDS[int(rng.integers(len(SECONDS)))])
        for _ in range(600)
    ]
    stored_history(store, answers, [(3, False), (9, True), (10, False)])
    assert_equal_to_oracle(store)
    assert item_statistics(store, EVERY_STORE)["discrimination"].notna().all()


def test_discrimination_is_negative_when_the_strong_miss_it(store):
    """Three strong trainees miss card-0 and get the rest; two weak ones get card-0 only."""
    stored = []
    for trainee in range(5):
        strong = trainee < 3
        stored.append((trainee, "card-0", not strong, 0, 2, 2.0))
        for card in ("card-1", "card-2", "card-3"):
            stored.append((trainee, card, strong, 0, 2, 3.0))
    stored_history(store, stored, [])
    stats = item_statistics(store, EVERY_STORE).set_index("card_id")
    assert stats.loc["card-0", "difficulty"] == pytest.approx(0.4)
    assert stats.loc["card-0", "discrimination"] == pytest.approx(-1.0)
    assert stats.loc["card-1", "discrimination"] == pytest.approx(1.0)
    assert stats.loc["card-0", "median_seconds"] == 2.0
    assert_equal_to_oracle(store)


def test_median_seconds_of_an_even_count_is_the_mean_of_the_middle_two(store):
    stored_history(store, [(0, "card-0", True, 0, 2, s) for s in (9.0, 1.0, 30.0, 2.5)], [])
    assert item_statistics(store, EVERY_STORE).loc[0, "median_seconds"] == pytest.approx((2.5 + 9.0) / 2)


def test_distractors_name_the_wrong_answers_chosen(store):
    stored_history(store, [(0, "card-0", False, 1, 0, 1.0), (1, "card-0", False, 1, 2, 1.0),
                           (2, "card-0", True, 0, 2, 1.0), (3, "card-5", False, 2, 0, 1.0)], [])
    table = distractors(store, EVERY_STORE)
    penalty = table[(table["card_id"] == "card-0") & (table["part"] == "penalty")]
    assert penalty[["chosen", "count", "wrong"]].values.tolist() == [["warning", 2, 2], ["caution", 1, 0]]
    fixes = table[(table["card_id"] == "card-0") & (table["part"] == "fixes")]
    assert fixes[["chosen", "count", "wrong"]].values.tolist() == [
        ["destroy_used_card,rewind_game", 2, 0], ["", 1, 1]]
    choice = table[table["card_id"] == "card-5"]
    assert choice[["part", "chosen", "count", "wrong"]].values.tolist() == [["choice", "c", 1, 1]]


def test_open_reports_count_only_unresolved_ones(store):
    stored_history(store, [(0, "card-0", True, 0, 2, 1.0), (1, "card-1", True, 0, 2, 1.0)],
                   [(0, False), (0, True), (1, False), (2, False)])
    counts = item_statistics(store, EVERY_STORE).set_index("card_id")["open_reports"].to_dict()
    assert counts == {"card-0": 2, "card-1": 1}


def test_point_biserial_is_undefined_without_spread():
    assert math.isnan(point_biserial(1, 1, 0.5, 0.5, 0.25))
    assert math.isnan(point_biserial(3, 3, 1.5, 1.5, 0.75))  # everyone right
    assert math.isnan(point_biserial(3, 1, 1.0, 1 / 3, 1 / 3))  # every trainee equally strong
    assert point_biserial(2, 1, 1.0, 1.0, 1.0) == pytest.approx(1.0)
