"""Statistics of floor calls: the pandas oracle on a hand-built history (every figure worked
out here), and the SQL equal to it on generated histories, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, null

from quiz.db.answers import save_answer
from quiz.db.store import Store
from quiz.db.tables import attempts
from quiz.model.attempt import AttemptRecord, FindingRecord
from quiz.model.investigation import GATHERED, MISSED, InvestigationRecord
from quiz.report import floor_call_statistics as floor_sql
from quiz.report.floor_call_statistics import FLOOR_CALL_COLUMNS, FloorCallSplit
from quiz.report.statistics import AnswerScope
from tests import stats_oracle as oracle
from tests.report.test_finding_statistics import empty, plain_frame, typed_frame

START = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
GAMES = ("yugioh-ocg", "pokemon-card-ja")
FACTS = ("intentional", "identifiable", "decisive")

Finding = tuple[str, bool, bool]  # (fact, right, evidence gathered)


def call(trainee_id: int = 0, card: str = "fc", *findings: Finding, ruleset: str = "yugioh-ocg", correct: bool = True,
         leading: int = 0, seconds: int = 120, budget: int = 300, minute: int = 0) -> AttemptRecord:
    """An answer to a floor call: its ``findings`` (fact, right, evidence gathered), the ruling
    right or not, ``leading`` leading questions and ``seconds`` of the ``budget``."""
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card, ruleset=ruleset, category="procedure", card_kind="floor_call",
        chosen_penalty="warning" if correct else "caution", standard_penalty="warning",
        penalty_result="correct" if correct else "wrong", correct=correct, seconds=30.0,
        answered_at=START + dt.timedelta(minutes=minute),
        findings=tuple(FindingRecord(fact, right, True, right) for fact, right, _ in findings),
        investigation=InvestigationRecord(
            steps=tuple(f"s{n}" for n in range(leading + 1)),
            evidence=tuple((fact, GATHERED if gathered else MISSED) for fact, _, gathered in findings),
            leading=tuple(f"s{n}" for n in range(leading)), seconds=seconds, budget_seconds=budget, separated=None,
        ),
    )


def scenario(trainee_id: int = 0, card: str = "sc", correct: bool = True, ruleset: str = "yugioh-ocg",
             kind: str = "scenario", minute: int = 0) -> AttemptRecord:
    """An answer to another card (a scenario card unless ``kind`` says otherwise)."""
    return AttemptRecord(trainee_id=trainee_id, card_id=card, ruleset=ruleset, category="procedure", card_kind=kind,
                         correct=correct, seconds=5.0, answered_at=START + dt.timedelta(minutes=minute))


@pytest.fixture(params=[typed_frame, plain_frame], ids=["typed", "plain"])
def frame(request):
    return request.param


# Aiko (0): two calls of card a, one of b; Ben (1): one call of a; and cards of other kinds.
HISTORY = [
    call(0, "a", ("intentional", True, True), ("identifiable", True, False), leading=1, seconds=240),
    call(0, "a", ("intentional", False, False), ("identifiable", True, True), correct=False, seconds=360),
    call(0, "b", ("decisive", True, False), leading=2, seconds=90, budget=60),
    call(1, "a", ("intentional", True, True), ("identifiable", False, False), correct=False, seconds=300),
    scenario(0, "s1", True), scenario(0, "s2", False), scenario(1, "s1", True),
    scenario(0, "k", False, kind="knowledge"),  # neither a floor call nor a scenario card
]


def test_the_investigation_is_counted_beside_the_ruling(frame) -> None:
    split = oracle.floor_call_split(frame(HISTORY))
    assert split == FloorCallSplit(answered=4, correct=2, findings=7, gathered=3, right_guesses=2, leading=3,
                                   seconds=990, budget_seconds=960, over_budget=2)
    assert (split.accuracy, split.gathered_share, split.leading_per_call) == (0.5, 3 / 7, 0.75)
    assert (split.mean_seconds, split.mean_budget, split.over_budget_share) == (247.5, 240.0, 0.5)


def test_per_trainee_and_per_card(frame) -> None:
    by_trainee = oracle.floor_calls_by(frame(HISTORY), "trainee_id")
    assert list(by_trainee.columns) == ["trainee_id", *FLOOR_CALL_COLUMNS]
    aiko, ben = by_trainee.to_dict("records")
    assert (aiko["answered"], aiko["findings"], aiko["gathered"], aiko["right_guesses"], aiko["leading"]) == (3, 5, 2, 2, 3)
    assert (aiko["mean_seconds"], aiko["mean_budget"], aiko["over_budget"]) == (230.0, 220.0, 2)
    assert (ben["answered"], ben["gathered_share"], ben["right_guesses"], ben["over_budget_share"]) == (1, 0.5, 0, 0.0)
    by_card = oracle.floor_calls_by(frame(HISTORY), "card_id").set_index("card_id")
    assert list(by_card.index) == ["a", "b"]
    assert by_card.loc["a", ["answered", "findings", "gathered"]].tolist() == [3, 6, 3]
    assert by_card.loc["b", "gathered_share"] == 0.0
    kinds = oracle.accuracy_by_kind(frame(HISTORY))
    assert kinds.values.tolist() == [["floor_call", 4, 2, 0.5], ["scenario", 3, 2, pytest.approx(2 / 3)]]
    per_trainee = oracle.accuracy_by_kind(frame(HISTORY), "trainee_id")
    assert per_trainee[["trainee_id", "card_kind", "answered"]].values.tolist() == [
        [0, "floor_call", 3], [0, "scenario", 2], [1, "floor_call", 1], [1, "scenario", 1]]


def test_no_floor_calls_answered_is_zero_and_empty(frame) -> None:
    for history in ([], [scenario(0)]):
        assert oracle.floor_call_split(frame(history)) == FloorCallSplit(0, 0, 0, 0, 0, 0, 0, 0, 0)
        assert oracle.floor_calls_by(frame(history), "card_id").empty
        assert list(oracle.floor_calls_by(frame(history), "card_id").columns) == ["card_id", *FLOOR_CALL_COLUMNS]
        assert oracle.accuracy_by_kind(frame(history)[frame(history)["card_kind"] == "floor_call"]).empty


# --- the SQL equals the oracle --------------------------------------------------------------


def store_history(store: Store, records: list[AttemptRecord]) -> list[int]:
    """The records stored as the app stores answers, their trainees 0, 1 and 2 made anew."""
    empty(store)
    ids = [store.trainee(f"T{i}").id for i in range(3)]
    for record_ in records:
        save_answer(store, replace(record_, trainee_id=ids[record_.trainee_id]))
    return ids


def assert_equal_to_oracle(store: Store, ids: list[int]) -> None:
    everything = store.attempts()
    scopes = [(AnswerScope(), ids, None), (AnswerScope(ids[0], GAMES), [ids[0]], None),
              (AnswerScope(ids[1], ("pokemon-card-ja",), "Asia/Tokyo"), [ids[1]], ("pokemon-card-ja",))]
    for scope, who, games in scopes:
        frame = everything[everything["trainee_id"].isin(who)]
        if games is not None:
            frame = frame[frame["ruleset"].isin(games)]
        assert floor_sql.floor_call_split(store, scope) == oracle.floor_call_split(frame)
        for key in ("trainee_id", "card_id", "ruleset", None):
            pd.testing.assert_frame_equal(floor_sql.floor_calls_by(store, scope, key), oracle.floor_calls_by(frame, key),
                                          check_dtype=False)
        for key in ("trainee_id", None):
            pd.testing.assert_frame_equal(floor_sql.accuracy_by_kind(store, scope, key),
                                          oracle.accuracy_by_kind(frame, key), check_dtype=False)


finding_strategy = st.tuples(st.sampled_from(FACTS), st.booleans(), st.booleans())
call_strategy = st.tuples(
    st.integers(0, 2),  # trainee
    st.sampled_from(["a", "b", "c"]),  # card
    st.sampled_from(GAMES),
    st.lists(finding_strategy, max_size=3, unique_by=lambda f: f[0]),
    st.booleans(),  # the ruling right
    st.integers(0, 3),  # leading questions
    st.integers(0, 600),  # seconds
    st.sampled_from([60, 300, 420]),  # budget
    st.sampled_from(["floor_call", "scenario", "knowledge"]),  # the kind: other kinds beside
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answers=st.lists(call_strategy, max_size=30))
def test_floor_call_statistics_equal_pandas_on_generated_histories(store, answers) -> None:
    records = [
        call(trainee, card, *findings, ruleset=game, correct=right, leading=leading, seconds=seconds, budget=budget,
             minute=n)
        if kind == "floor_call" else scenario(trainee, card, right, game, kind, minute=n)
        for n, (trainee, card, game, findings, right, leading, seconds, budget, kind) in enumerate(answers)
    ]
    ids = store_history(store, records)
    assert_equal_to_oracle(store, ids)


def test_hand_built_history_in_sql(store) -> None:
    ids = store_history(store, HISTORY)
    assert floor_sql.floor_call_split(store, AnswerScope()) == FloorCallSplit(4, 2, 7, 3, 2, 3, 990, 960, 2)
    assert floor_sql.floor_call_split(store, AnswerScope(ids[1])).right_guesses == 0
    assert floor_sql.floor_call_split(store, AnswerScope(ids[2])) == FloorCallSplit(0, 0, 0, 0, 0, 0, 0, 0, 0)
    by_card = floor_sql.floor_calls_by(store, AnswerScope(), "card_id")
    assert by_card[["card_id", "answered", "findings", "gathered"]].values.tolist() == [["a", 3, 6, 3], ["b", 1, 1, 0]]
    assert_equal_to_oracle(store, ids)


def test_floor_calls_stored_without_an_investigation_count_for_nothing(store) -> None:
    """A floor call whose investigation is SQL NULL or JSON null (a row from before floor
    calls were graded by their investigation), and one without evidence or leading questions,
    count as the oracle counts them on either database."""
    ids = store_history(store, [call(0, "a", ("intentional", True, False), leading=1)])
    bare = call(ids[0], "bare", ("intentional", True, True))
    with store.engine.begin() as conn:
        conn.execute(insert(attempts).values(**(call(ids[0], "sql-null").values() | {"investigation": null()})))
        conn.execute(insert(attempts).values(**(call(ids[0], "json-null").values() | {"investigation": None})))
        conn.execute(insert(attempts).values(**(bare.values() | {"investigation": {"seconds": 30}})))
    split = floor_sql.floor_call_split(store, AnswerScope(ids[0]))
    assert (split.answered, split.findings, split.right_guesses, split.leading, split.seconds) == (2, 1, 1, 1, 150)
    assert_equal_to_oracle(store, ids)


def test_floor_calls_are_counted_only_by_the_attempts_keys(store) -> None:
    with pytest.raises(ValueError, match="answered_at"):
        floor_sql.floor_calls_by(store, AnswerScope(), "answered_at")
