"""The database-side statistics agree with the pandas ones on the same history."""

from __future__ import annotations

import datetime as dt
import random
from datetime import datetime
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import insert
from sqlalchemy.engine import make_url

from quiz.content.categories import category_key
from quiz.db.store import Store
from quiz.db.tables import attempt_regrades
from quiz.model.attempt import AttemptRecord
from quiz.report import statistics as stats_sql
from tests import stats_oracle as stats
from tests.databases import copy_database, migrated
from tests.recording import record

TODAY = dt.date(2026, 3, 20)
LADDER = ["caution", "warning", "duel_loss", "match_loss"]


def build_history(store: Store) -> list[int]:
    """A seeded, varied history of two trainees over 40 days, stored in ``store``; their ids."""
    rng = random.Random(5)
    modes = random.Random(6)  # apart, so the rest of the history stays as it was
    ids = [store.trainee("Aiko").id, store.trainee("Ben").id]
    for _ in range(400):
        standard = rng.choice(LADDER)
        chosen = rng.choice(LADDER + [standard] * 3)
        knowledge = rng.random() < 0.15
        steps = LADDER.index(chosen) - LADDER.index(standard)
        infraction_right = rng.random() < 0.8
        record(store, AttemptRecord(
            trainee_id=rng.choice(ids), card_id=f"card-{rng.randrange(30)}",
            ruleset=rng.choice(["yugioh-ocg", "pokemon-card-ja"]),
            category=None if knowledge else rng.choice(["deck", "tardiness", "rules"]),
            card_kind="knowledge" if knowledge else "scenario",
            chosen_penalty=None if knowledge else chosen, standard_penalty=None if knowledge else standard,
            infraction_result=None if knowledge else ("correct" if infraction_right else "wrong"),
            penalty_result=None if knowledge else ("correct" if steps == 0 else rng.choice(["wrong", "accepted"])),
            fixes_result=None if knowledge else rng.choice(["correct", "wrong"]),
            penalty_steps=None if knowledge else steps,
            correct=rng.random() < 0.6, seconds=3.0, mode=modes.choice(["practice", "practice", "review", "exam"]),
            answered_at=dt.datetime(2026, 2, 8, tzinfo=dt.UTC)
            + dt.timedelta(days=rng.choice(list(range(0, 40, 1)) + [41, 41]), hours=rng.uniform(0, 23.9)),
        ))
    return ids


@pytest.fixture(scope="module")
def sqlite_history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """The history built once, in a SQLite file each test gets a copy of (its 400 commits took
    longer than most of the tests themselves)."""
    path = tmp_path_factory.mktemp("history") / "quiz.db"
    store = Store(migrated(f"sqlite:///{path}"))
    try:
        return path, build_history(store)
    finally:
        store.dispose()


@pytest.fixture
def history(db_url: str, request: pytest.FixtureRequest):
    """The history in a database of the test's own: a copy of ``sqlite_history``, or built
    anew on PostgreSQL."""
    if make_url(db_url).get_backend_name() == "sqlite":
        template, ids = request.getfixturevalue("sqlite_history")
        copy_database(template, db_url)
        store = Store(db_url)
    else:
        store = Store(db_url)
        ids = build_history(store)
    yield store, ids
    store.dispose()


SCOPES = [
    lambda ids: (stats_sql.AnswerScope(ids[0], ("yugioh-ocg", "pokemon-card-ja")), [ids[0]], None),
    lambda ids: (stats_sql.AnswerScope(ids[1], ("pokemon-card-ja",)), [ids[1]], ["pokemon-card-ja"]),
    lambda ids: (stats_sql.AnswerScope(), ids, None),
    lambda ids: (stats_sql.AnswerScope(ids[0], modes=stats_sql.ANSWER_SOURCES["exam"]), [ids[0]], None),
    lambda ids: (stats_sql.AnswerScope(modes=stats_sql.ANSWER_SOURCES["practice"]), ids, None),
]


@pytest.mark.parametrize("make_scope", SCOPES)
def test_every_figure_matches_pandas(history, make_scope):
    store, ids = history
    scope, trainees, rulesets = make_scope(ids)
    frame = store.attempts()
    frame = frame[frame["trainee_id"].isin(trainees)]
    if rulesets:
        frame = frame[frame["ruleset"].isin(rulesets)]
    if scope.modes is not None:
        frame = frame[frame["mode"].isin(scope.modes)]
    assert len(frame) > 40
    assert stats_sql.summary(store, scope) == stats.summary(frame)
    pd.testing.assert_frame_equal(stats_sql.daily_accuracy(store, scope), stats.daily_accuracy(frame),
                                  check_dtype=False)
    pd.testing.assert_frame_equal(stats_sql.accuracy_by_part(store, scope), stats.accuracy_by_part(frame),
                                  check_dtype=False)
    for column in ("ruleset", "category"):
        pd.testing.assert_frame_equal(stats_sql.accuracy_by(store, scope, column), stats.accuracy_by(frame, column),
                                      check_dtype=False)
    expected = stats.penalty_confusion(frame).sort_values(["standard_penalty", "chosen_penalty"], ignore_index=True)
    pd.testing.assert_frame_equal(stats_sql.penalty_confusion(store, scope), expected, check_dtype=False)
    sql_leniency, pandas_leniency = stats_sql.leniency(store, scope), stats.leniency(frame)
    assert (sql_leniency.errors, sql_leniency.too_lenient, sql_leniency.too_harsh) == (
        pandas_leniency.errors, pandas_leniency.too_lenient, pandas_leniency.too_harsh)
    assert sql_leniency.mean_steps == pytest.approx(pandas_leniency.mean_steps)
    pd.testing.assert_frame_equal(sql_leniency.by_steps, pandas_leniency.by_steps, check_dtype=False)
    assert stats_sql.practice_streak(store, scope, TODAY) == stats.practice_streak(frame, TODAY)
    sql_mistakes = stats_sql.recent_mistakes(store, scope, limit=15)
    pandas_mistakes = stats.recent_mistakes(frame, limit=15)
    assert list(sql_mistakes["card_id"]) == list(pandas_mistakes["card_id"])
    assert list(sql_mistakes["answered_at"]) == list(pandas_mistakes["answered_at"])


def test_empty_scope(history):
    store, _ = history
    scope = stats_sql.AnswerScope(trainee_id=999_999)
    assert stats_sql.summary(store, scope) == stats.Summary(0, 0, 0.0, 0)
    assert stats_sql.daily_accuracy(store, scope).empty
    assert stats_sql.accuracy_by_part(store, scope).empty
    assert stats_sql.leniency(store, scope).errors == 0
    assert stats_sql.recent_mistakes(store, scope).empty
    assert stats_sql.practice_streak(store, scope, TODAY) == stats.Streak(0, 0)


def test_accuracy_by_category_keys_by_ruleset(history):
    store, ids = history
    scope = stats_sql.AnswerScope(ids[0], ("yugioh-ocg", "pokemon-card-ja"))
    frame = store.attempts(ids[0])
    frame["category_key"] = [category_key(r, c if isinstance(c, str) else None)
                             for r, c in zip(frame["ruleset"], frame["category"])]
    pd.testing.assert_frame_equal(
        stats_sql.accuracy_by_category(store, scope), stats.accuracy_by(frame, "category_key"), check_dtype=False
    )


def test_version_changes_with_each_answer(history):
    store, ids = history
    scope = stats_sql.AnswerScope(ids[0])
    before = stats_sql.version(store, scope)
    assert before == (int(store.attempts(ids[0])["id"].max()), 0)
    new_id = record(store, AttemptRecord(trainee_id=ids[0], card_id="new", ruleset="yugioh-ocg", category=None,
                                        card_kind="knowledge", correct=True, seconds=1.0))
    assert stats_sql.version(store, scope) == (new_id, 0) > before
    assert stats_sql.version(store, stats_sql.AnswerScope()) == (new_id, 0)
    assert stats_sql.version(store, stats_sql.AnswerScope(ids[1]))[0] < new_id


def test_version_changes_with_a_regrade(history):
    """A re-grade changes stored grades without adding attempts: cached figures must go."""
    store, ids = history
    scope = stats_sql.AnswerScope(ids[0])
    before = stats_sql.version(store, scope)
    attempt_id = int(store.attempts(ids[0])["id"].max())
    with store.engine.begin() as conn:
        conn.execute(insert(attempt_regrades).values(
            attempt_id=attempt_id, regraded_at=datetime.now(dt.UTC), from_fingerprint="a", to_fingerprint="b",
            correct=False, standard_fixes=(),
        ))
    after = stats_sql.version(store, scope)
    assert after[0] == before[0] and after > before


def test_exam_and_practice_answers_are_counted_apart(history):
    """Progress tells exam answers from practice ones: each source counts only its own, and
    the two together are every answer."""
    store, ids = history
    frame = store.attempts(ids[0])
    counts = {name: stats_sql.summary(store, stats_sql.AnswerScope(ids[0], modes=modes)).answered
              for name, modes in stats_sql.ANSWER_SOURCES.items()}
    assert counts["exam"] == int((frame["mode"] == "exam").sum()) > 0
    assert counts["practice"] == int(frame["mode"].isin(["practice", "review"]).sum()) > 0
    assert counts["exam"] + counts["practice"] == counts["all"] == len(frame)
