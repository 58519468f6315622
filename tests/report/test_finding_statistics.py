"""Statistics of findings: the pandas oracle on hand-built histories (every figure worked out
here), and the SQL equal to it on generated histories, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, replace

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert, null, select

from quiz.db.answers import save_answer
from quiz.db.frames import FRAME_COLUMNS, attempts_frame
from quiz.db.store import Store
from quiz.db.tables import attempts, review_schedules, trainee_name_keys, trainees
from quiz.model.attempt import AttemptRecord, FindingRecord
from quiz.report import finding_statistics as finding_sql
from quiz.report.finding_statistics import FINDINGS_COLUMNS, FindingsSplit
from quiz.report.statistics import AnswerScope
from tests import stats_oracle as oracle
from tests.recording import record

START = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
GAMES = ("yugioh-ocg", "pokemon-card-ja")
FACTS = ("intentional", "decisive", "restorable", "minutes_late")


def found(fact: str, right: bool) -> FindingRecord:
    """A finding of ``fact``: a yes/no the trainee got right or wrong (``minutes_late`` a number)."""
    if fact == "minutes_late":
        return FindingRecord(fact, 3 if right else 5, 3, right)
    return FindingRecord(fact, True if right else False, True, right)


def answer(trainee_id: int = 1, card: str = "c", *findings: tuple[str, bool], ruleset: str = "yugioh-ocg",
           penalty_right: bool = True, follows: bool | None = None, minute: int = 0) -> AttemptRecord:
    """A scenario answer with ``findings`` (fact, right); a wrong penalty on a card with
    findings is told apart by ``follows`` (true: misjudged the facts)."""
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card, ruleset=ruleset, category="procedure", card_kind="scenario",
        chosen_penalty="warning" if penalty_right else "caution", standard_penalty="warning",
        penalty_result="correct" if penalty_right else "wrong",
        correct=penalty_right and all(right for _, right in findings), seconds=4.0,
        answered_at=START + dt.timedelta(minutes=minute),
        findings=tuple(found(fact, right) for fact, right in findings),
        penalty_follows_findings=None if penalty_right or not findings else follows,
    )


def typed_frame(records: list[AttemptRecord]) -> pd.DataFrame:
    return attempts_frame([{"id": n, **record.values()} for n, record in enumerate(records, start=1)])


def plain_frame(records: list[AttemptRecord]) -> pd.DataFrame:
    return pd.DataFrame([{"id": n, **asdict(record)} for n, record in enumerate(records, start=1)],
                        columns=list(FRAME_COLUMNS))


@pytest.fixture(params=[typed_frame, plain_frame], ids=["typed", "plain"])
def frame(request):
    return request.param


# Aiko (1): card a twice, card b once; Ben (2): card a once, a Pokémon card once; a card without findings.
HISTORY = [
    answer(1, "a", ("intentional", False), ("decisive", True), penalty_right=False, follows=True),
    answer(1, "a", ("intentional", True), ("decisive", True)),
    answer(1, "b", ("minutes_late", False), penalty_right=False, follows=False),
    answer(2, "a", ("intentional", False), ("decisive", False), penalty_right=False, follows=True),
    answer(2, "p", ("intentional", True), ruleset="pokemon-card-ja", penalty_right=False, follows=False),
    answer(2, "plain", penalty_right=False),  # no findings: not counted, its wrong penalty neither
]


def test_finding_accuracy_counts_each_fact_of_each_game_weakest_first(frame) -> None:
    table = oracle.finding_accuracy(frame(HISTORY))
    assert list(table.columns) == ["ruleset", "fact", "answered", "correct", "accuracy"]
    assert list(table.itertuples(index=False, name=None)) == [
        ("yugioh-ocg", "minutes_late", 1, 0, 0.0),
        ("yugioh-ocg", "intentional", 3, 1, pytest.approx(1 / 3)),
        ("yugioh-ocg", "decisive", 3, 2, pytest.approx(2 / 3)),
        ("pokemon-card-ja", "intentional", 1, 1, 1.0),  # the same id in another game: another fact
    ]
    per_card = oracle.finding_accuracy(frame(HISTORY), by=("card_id",))
    assert per_card[per_card["card_id"] == "a"][["fact", "answered", "correct"]].values.tolist() == [
        ["intentional", 3, 1], ["decisive", 3, 2]]


def test_the_split_tells_misjudged_facts_from_a_misapplied_document(frame) -> None:
    split = oracle.findings_split(frame(HISTORY))
    assert split == FindingsSplit(answered=5, findings=8, right=4, misjudged=2, misapplied=2)
    assert (split.accuracy, split.wrong_penalties) == (0.5, 4)
    by_trainee = oracle.findings_by(frame(HISTORY), "trainee_id")
    assert list(by_trainee.columns) == ["trainee_id", *FINDINGS_COLUMNS]
    assert by_trainee.drop(columns="accuracy").values.tolist() == [[1, 3, 5, 3, 1, 1], [2, 2, 3, 1, 1, 1]]
    assert list(by_trainee["accuracy"]) == pytest.approx([3 / 5, 1 / 3])
    by_card = oracle.findings_by(frame(HISTORY), "card_id").set_index("card_id")
    assert list(by_card.index) == ["a", "b", "p"]  # "plain" has no findings
    assert by_card.loc["a", ["answered", "findings", "right", "misjudged", "misapplied"]].tolist() == [3, 6, 3, 2, 0]


def test_no_findings_answered_is_zero_and_empty(frame) -> None:
    for history in ([], [answer(1, "plain", penalty_right=False)]):
        assert oracle.findings_split(frame(history)) == FindingsSplit(0, 0, 0, 0, 0)
        assert oracle.finding_accuracy(frame(history)).empty
        assert oracle.findings_by(frame(history), "card_id").empty
        assert list(oracle.findings_by(frame(history), "card_id").columns) == ["card_id", *FINDINGS_COLUMNS]


# --- the SQL equals the oracle --------------------------------------------------------------


def empty(store: Store) -> None:
    with store.engine.begin() as conn:
        for table in (review_schedules, attempts, trainee_name_keys, trainees):
            conn.execute(delete(table))


def store_history(store: Store, records: list[AttemptRecord]) -> list[int]:
    """The records stored as the app stores answers, their trainees 0, 1 and 2 made anew."""
    empty(store)
    ids = [store.trainee(f"T{i}").id for i in range(3)]
    for record_ in records:
        save_answer(store, replace(record_, trainee_id=ids[record_.trainee_id]))
    return ids


def scopes(ids: list[int]) -> list[tuple[AnswerScope, list[int], tuple[str, ...] | None]]:
    """(the scope, its trainees, its games) of each scope the tests compare."""
    return [(AnswerScope(), ids, None), (AnswerScope(ids[0], GAMES), [ids[0]], None),
            (AnswerScope(ids[1], ("pokemon-card-ja",), "Asia/Tokyo"), [ids[1]], ("pokemon-card-ja",))]


def assert_equal_to_oracle(store: Store, ids: list[int]) -> None:
    everything = store.attempts()
    for scope, who, games in scopes(ids):
        frame = everything[everything["trainee_id"].isin(who)]
        if games is not None:
            frame = frame[frame["ruleset"].isin(games)]
        assert finding_sql.findings_split(store, scope) == oracle.findings_split(frame)
        for by in (("ruleset",), ("card_id",), ("ruleset", "card_id")):
            pd.testing.assert_frame_equal(finding_sql.finding_accuracy(store, scope, by), oracle.finding_accuracy(frame, by),
                                          check_dtype=False)
        for key in ("trainee_id", "card_id", "ruleset", None):
            pd.testing.assert_frame_equal(finding_sql.findings_by(store, scope, key), oracle.findings_by(frame, key),
                                          check_dtype=False)


finding_strategy = st.tuples(st.sampled_from(FACTS), st.booleans())
answer_strategy = st.tuples(
    st.integers(0, 2),  # trainee
    st.sampled_from(["a", "b", "c", "d"]),  # card
    st.sampled_from(GAMES),
    st.lists(finding_strategy, max_size=3, unique_by=lambda f: f[0]),  # none: a card without findings
    st.booleans(),  # the penalty right
    st.booleans(),  # a wrong penalty follows from the trainee's findings
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answers=st.lists(answer_strategy, max_size=40))
def test_findings_statistics_equal_pandas_on_generated_histories(store, answers) -> None:
    records = [
        answer(trainee, card, *findings, ruleset=game, penalty_right=penalty_right, follows=follows, minute=n)
        for n, (trainee, card, game, findings, penalty_right, follows) in enumerate(answers)
    ]
    ids = store_history(store, records)
    assert_equal_to_oracle(store, ids)


def test_attempts_stored_without_findings_in_any_shape_count_for_nothing(store) -> None:
    """A JSON null (``save_answer`` of a card without findings), an empty list, and SQL NULL
    (a row from before findings existed) give no findings on either database."""
    ids = store_history(store, [answer(0, "x", ("intentional", False), penalty_right=False, follows=True),
                                answer(0, "none", penalty_right=False)])
    record(store, answer(ids[0], "empty-list", penalty_right=False))  # asdict: findings stored as []
    with store.engine.begin() as conn:
        conn.execute(insert(attempts).values(**(answer(ids[0], "sql-null").values() | {"findings": null()})))
        shapes = dict(conn.execute(select(attempts.c.card_id, attempts.c.findings)).all())
    assert (shapes["none"], shapes["empty-list"], shapes["sql-null"]) == (None, [], None)
    scope = AnswerScope(ids[0])
    assert finding_sql.findings_split(store, scope) == FindingsSplit(1, 1, 0, 1, 0)
    assert list(finding_sql.findings_by(store, scope, "card_id")["card_id"]) == ["x"]
    assert list(finding_sql.finding_accuracy(store, scope)["fact"]) == ["intentional"]
    assert_equal_to_oracle(store, ids)


def test_hand_built_history_in_sql(store) -> None:
    ids = store_history(store, HISTORY)
    assert finding_sql.findings_split(store, AnswerScope()) == FindingsSplit(5, 8, 4, 2, 2)
    assert finding_sql.findings_split(store, AnswerScope(ids[2], ("yugioh-ocg",))) == FindingsSplit(1, 2, 0, 1, 0)  # Ben
    assert finding_sql.findings_split(store, AnswerScope(ids[0])) == FindingsSplit(0, 0, 0, 0, 0)  # no answers
    facts = finding_sql.finding_accuracy(store, AnswerScope(ids[1]))  # Aiko
    assert facts[["fact", "answered", "correct"]].values.tolist() == [
        ["minutes_late", 1, 0], ["intentional", 2, 1], ["decisive", 2, 2]]
    assert_equal_to_oracle(store, ids)


def test_findings_are_counted_only_by_the_attempts_keys(store) -> None:
    with pytest.raises(ValueError, match="answered_at"):
        finding_sql.findings_by(store, AnswerScope(), "answered_at")
    with pytest.raises(ValueError, match="follows"):
        finding_sql.finding_accuracy(store, AnswerScope(), ("follows",))
