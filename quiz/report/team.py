"""The supervisor's figures: every trainee at a glance, and every card's right and wrong answers.

Aggregated in the database with GROUP BY over SQLAlchemy Core, so the same queries run on
SQLite and PostgreSQL. ``scope`` keeps only the answers of the trainees a supervisor sees
(``quiz.db.scoped``), ``rulesets`` (when given) only those of these games.
Exams are counted from the ``exams`` table only when the database has one with
``trainee_id`` and ``passed`` columns.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable

import pandas as pd
from sqlalchemy import ColumnElement, Engine, case, false, func, select, true
from sqlalchemy.engine import Connection

from quiz.content.categories import KNOWLEDGE, category_key
from quiz.db.scoped import sees_trainee
from quiz.db.tables import attempts, exams, trainees
from quiz.model.attempt import PartResult
from quiz.model.scope import Scope

RECENT_WINDOW = timedelta(days=7)
OVERVIEW_COLUMNS = [
    "trainee_id", "trainee", "answered", "correct", "accuracy",
    "answered_recent", "correct_recent", "accuracy_recent", "exams_passed", "last_active", "weakest",
]
CARD_COLUMNS = [
    "card_id", "ruleset", "card_kind", "answered", "correct", "accuracy",
    "wrong_infraction", "wrong_infraction_count", "wrong_penalty", "wrong_penalty_count",
    "wrong_choice", "wrong_choice_count",
]
WRONG_PARTS = ("infraction", "penalty", "choice")


def _count_where(condition: ColumnElement[bool]) -> ColumnElement[int]:
    """How many rows of the group meet ``condition`` (portable: no summing of booleans)."""
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _answers(scope: Scope, rulesets: Iterable[str] | None) -> list[ColumnElement[bool]]:
    """The answers of ``scope``'s trainees in ``rulesets`` (every game when None)."""
    seen = sees_trainee(attempts.c.trainee_id, scope)
    return [seen] if rulesets is None else [seen, attempts.c.ruleset.in_(list(rulesets))]


def team_overview(
    engine: Engine, scope: Scope, now: datetime, rulesets: Iterable[str] | None = None,
    window: timedelta = RECENT_WINDOW, min_answers: int = 3, weakest: int = 3,
) -> pd.DataFrame:
    """One row per trainee with answers, ordered by name (columns ``OVERVIEW_COLUMNS``).

    ``*_recent`` count the answers since ``now - window``; ``accuracy_recent`` is NaN when
    there are none. ``weakest`` holds up to ``weakest`` category keys (see
    ``weakest_categories``); ``last_active`` is the newest answer, in UTC.
    """
    games = None if rulesets is None else list(rulesets)
    recent = attempts.c.answered_at >= now - window
    query = (
        select(
            trainees.c.id.label("trainee_id"),
            trainees.c.name.label("trainee"),
            func.count(attempts.c.id).label("answered"),
            _count_where(attempts.c.correct).label("correct"),
            _count_where(recent).label("answered_recent"),
            _count_where(recent & attempts.c.correct).label("correct_recent"),
            func.max(attempts.c.answered_at).label("last_active"),
        )
        .join(attempts, attempts.c.trainee_id == trainees.c.id)
        .where(*_answers(scope, games))
        .group_by(trainees.c.id, trainees.c.name)
        .order_by(trainees.c.name)
    )
    with engine.connect() as conn:
        rows = [dict(row._mapping) for row in conn.execute(query)]
        passed = _exams_passed(conn, scope)
    weak = weakest_categories(engine, scope, games, min_answers, weakest)
    counts = ["answered", "correct", "answered_recent", "correct_recent"]
    frame = pd.DataFrame.from_records(rows, columns=["trainee_id", "trainee", *counts, "last_active"])
    frame = frame.astype({"trainee_id": "int64", **{name: "int64" for name in counts}})
    frame["accuracy"] = frame["correct"] / frame["answered"]
    frame["accuracy_recent"] = (frame["correct_recent"] / frame["answered_recent"]).where(frame["answered_recent"] > 0)
    frame["exams_passed"] = frame["trainee_id"].map(lambda tid: passed.get(tid, 0)).astype("int64")
    frame["last_active"] = pd.to_datetime(frame["last_active"], utc=True)
    frame["weakest"] = frame["trainee_id"].map(lambda tid: tuple(weak.get(tid, ())))
    return frame[OVERVIEW_COLUMNS]


def weakest_categories(
    engine: Engine, scope: Scope, rulesets: Iterable[str] | None = None, min_answers: int = 3, limit: int = 3,
) -> dict[int, list[str]]:
    """Trainee id -> up to ``limit`` ``ruleset/category`` keys, weakest first.

    Only categories with at least ``min_answers`` answers and at least one wrong one count;
    knowledge cards count as the category ``knowledge``. Ties go to the category with more
    answers, then to the key.
    """
    category = func.coalesce(attempts.c.category, KNOWLEDGE)
    query = (
        select(
            attempts.c.trainee_id,
            attempts.c.ruleset,
            category.label("category"),
            func.count().label("answered"),
            _count_where(attempts.c.correct).label("correct"),
        )
        .where(*_answers(scope, rulesets))
        .group_by(attempts.c.trainee_id, attempts.c.ruleset, category)
        .having(func.count() >= min_answers)
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    ranked: dict[int, list[tuple[float, int, str]]] = {}
    for trainee_id, ruleset, category_id, answered, correct in rows:
        if correct < answered:
            ranked.setdefault(trainee_id, []).append(
                (correct / answered, -answered, category_key(ruleset, category_id))
            )
    return {tid: [key for *_, key in sorted(items)[:limit]] for tid, items in ranked.items()}


def card_statistics(engine: Engine, scope: Scope, rulesets: Iterable[str] | None = None) -> pd.DataFrame:
    """One row per answered card (columns ``CARD_COLUMNS``), least often right first.

    ``wrong_<part>`` is the wrong infraction, penalty or (knowledge) choice picked most
    often for the card, ``wrong_<part>_count`` how often; missing (NA) and 0 when never.
    """
    games = None if rulesets is None else list(rulesets)
    query = (
        select(
            attempts.c.card_id,
            attempts.c.ruleset,
            attempts.c.card_kind,
            func.count().label("answered"),
            _count_where(attempts.c.correct).label("correct"),
        )
        .where(*_answers(scope, games))
        .group_by(attempts.c.card_id, attempts.c.ruleset, attempts.c.card_kind)
    )
    wrong = {
        "infraction": (attempts.c.chosen_infraction, attempts.c.infraction_result == PartResult.WRONG.value),
        "penalty": (attempts.c.chosen_penalty, attempts.c.penalty_result == PartResult.WRONG.value),
        "choice": (attempts.c.chosen_choice, attempts.c.correct == false()),
    }
    with engine.connect() as conn:
        totals = pd.DataFrame.from_records(
            [dict(r._mapping) for r in conn.execute(query)], columns=CARD_COLUMNS[:5]
        )
        answers = _answers(scope, games)
        tops = {part: _most_chosen(conn, chosen, condition, answers) for part, (chosen, condition) in wrong.items()}
    totals = totals.astype({"answered": "int64", "correct": "int64"})
    totals["accuracy"] = totals["correct"] / totals["answered"]
    for part in WRONG_PARTS:
        top = tops[part]
        totals[f"wrong_{part}"] = [top.get(cid, (None, 0))[0] for cid in totals["card_id"]]
        totals[f"wrong_{part}_count"] = pd.Series([top.get(cid, (None, 0))[1] for cid in totals["card_id"]],
                                                  index=totals.index, dtype="int64")
    ordered = totals.sort_values(["accuracy", "answered", "card_id"], ascending=[True, False, True], kind="stable")
    return ordered[CARD_COLUMNS].reset_index(drop=True)


def _most_chosen(
    conn: Connection, chosen: ColumnElement, condition: ColumnElement[bool], answers: list[ColumnElement[bool]],
) -> dict[str, tuple[str, int]]:
    """Card id -> (the wrong answer chosen most often, how often); ties go to the smaller id."""
    query = (
        select(attempts.c.card_id, chosen.label("chosen"), func.count().label("n"))
        .where(condition, chosen.is_not(None), *answers)
        .group_by(attempts.c.card_id, chosen)
    )
    best: dict[str, tuple[str, int]] = {}
    for card_id, value, n in conn.execute(query):
        held = best.get(card_id)
        if held is None or n > held[1] or (n == held[1] and value < held[0]):
            best[card_id] = (value, int(n))
    return best


def _exams_passed(conn: Connection, scope: Scope) -> dict[int, int]:
    """Trainee id -> exams passed, of ``scope``'s trainees."""
    query = (
        select(exams.c.trainee_id, func.count().label("n"))
        .where(exams.c.passed == true(), sees_trainee(exams.c.trainee_id, scope))
        .group_by(exams.c.trainee_id)
    )
    return {int(tid): int(n) for tid, n in conn.execute(query)}
