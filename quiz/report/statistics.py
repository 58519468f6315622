"""A trainee's statistics, aggregated in the database (the one statistics path of the app).

Only aggregated rows leave the database, so the progress and team pages stay fast on a large
history or a remote server. Days are calendar days in the scope's time zone (the trainee's
own), computed in SQL on both databases: PostgreSQL's ``timezone()``, and on SQLite a
function the store registers on every connection. ``tests/stats_oracle.py`` computes the
same figures with pandas from the raw attempts, and the tests hold the two equal. The
statistics of findings (``finding_statistics``) and of floor calls (``floor_call_statistics``)
are beside it, on the same ``AnswerScope`` and helpers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Iterable

import pandas as pd
from sqlalchemy import ColumnElement, Executable, and_, case, func, select, true

from quiz.content.categories import KNOWLEDGE, category_key
from quiz.db.scoped import sees_trainee
from quiz.db.sql import local_date
from quiz.db.store import Store
from quiz.db.tables import attempt_regrades, attempts
from quiz.model.attempt import RIGHT_RESULTS, Mode, PartResult
from quiz.model.scope import Scope

A = attempts.c
PARTS: dict[str, str] = {"infraction": "infraction_result", "penalty": "penalty_result", "fix": "fixes_result"}
TALLY_COLUMNS = ["answered", "correct", "accuracy"]
MISTAKE_COLUMNS = ["card_id", "ruleset", "answered_at", "chosen_penalty", "standard_penalty"]
UTC = "UTC"
UTC = "UTC"


@dataclass(frozen=True, slots=True)
class Leniency:
    """Wrong penalties: how many, and whether they erred toward lenient or harsh."""

    errors: int
    too_lenient: int
    too_harsh: int
    mean_steps: float
    by_steps: pd.DataFrame = field(compare=False)


@dataclass(frozen=True, slots=True)
class Streak:
    """Consecutive calendar days with at least one answer."""

    current: int
    longest: int


@dataclass(frozen=True, slots=True)
class Summary:
    answered: int
    correct: int
    accuracy: float
    days_active: int



# Where answers come from, as Progress tells them apart: exam answers are given without
# feedback against the clock, so a trainee may count them apart from practice and review.
ANSWER_SOURCES: dict[str, tuple[Mode, ...] | None] = {"all": None, "practice": (Mode.PRACTICE, Mode.REVIEW),
                                                      "exam": (Mode.EXAM,)}


@dataclass(frozen=True)
class AnswerScope:
    """Which attempts: one trainee's (or everyone's), in some rulesets (or all), of the
    trainees a supervisor sees (``seen_by``; None: a trainee's own figures), given in some
    modes (or all); and the time zone whose calendar days count them (an IANA name, e.g.
    ``Asia/Tokyo``)."""

    trainee_id: int | None = None
    rulesets: tuple[str, ...] | None = None
    time_zone: str = UTC
    seen_by: Scope | None = None
    modes: tuple[Mode, ...] | None = None  # answers given in these modes (``ANSWER_SOURCES``); None: all

    def where(self) -> ColumnElement[bool]:
        clauses = []
        if self.trainee_id is not None:
            clauses.append(A.trainee_id == self.trainee_id)
        if self.rulesets is not None:
            clauses.append(A.ruleset.in_(self.rulesets))
        if self.seen_by is not None:
            clauses.append(sees_trainee(A.trainee_id, self.seen_by))
        if self.modes is not None:
            clauses.append(A.mode.in_(self.modes))
        return and_(true(), *clauses)


def count_true(column: ColumnElement) -> ColumnElement[int]:
    """How many rows of a group ``column`` holds for (an aggregate)."""
    return func.sum(case((column, 1), else_=0))


def _day(store: Store, scope: AnswerScope) -> ColumnElement:
    """The calendar day of each answer in the scope's time zone, as ``YYYY-MM-DD``."""
    return local_date(store.engine, A.answered_at, scope.time_zone)


def query_frame(store: Store, query: Executable, columns: Iterable[str]) -> pd.DataFrame:
    """The rows of ``query`` as a DataFrame of ``columns``."""
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return pd.DataFrame([tuple(r) for r in rows], columns=list(columns))


def tallied(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s ``answered`` and ``correct`` as counts, and their ``accuracy``."""
    frame["answered"] = frame["answered"].astype("int64")
    frame["correct"] = frame["correct"].fillna(0).astype("int64")
    frame["accuracy"] = frame["correct"] / frame["answered"]
    return frame


def summary(store: Store, scope: AnswerScope) -> Summary:
    active_days = func.count(func.distinct(_day(store, scope)))
    query = select(func.count(), count_true(A.correct), active_days).where(scope.where())
    with store.engine.connect() as conn:
        answered, correct, days = conn.execute(query).one()
    answered, correct = int(answered or 0), int(correct or 0)
    return Summary(answered, correct, correct / answered if answered else 0.0, int(days or 0))


def daily_counts(store: Store, scope: AnswerScope) -> pd.DataFrame:
    """``date, answered, correct`` per local day with answers, oldest first."""
    day = _day(store, scope).label("day")
    query = select(day, func.count(), count_true(A.correct)).where(scope.where()).group_by(day).order_by(day)
    frame = query_frame(store, query, ["date", "answered", "correct"])
    frame["date"] = pd.to_datetime(frame["date"].astype(str))
    return frame


def daily_accuracy(store: Store, scope: AnswerScope) -> pd.DataFrame:
    daily = tallied(daily_counts(store, scope))
    if daily.empty:
        empty = pd.DataFrame(columns=["date", *TALLY_COLUMNS])
        types = {"date": "datetime64[ns]", "answered": "int64", "correct": "int64", "accuracy": "float64"}
        return with_rolling_7d(empty.astype(types).set_index("date"))
    return with_rolling_7d(daily.set_index("date")[TALLY_COLUMNS])


def accuracy_by_part(store: Store, scope: AnswerScope) -> pd.DataFrame:
    columns = {part: A[column] for part, column in PARTS.items()}
    aggregates = []
    for column in columns.values():
        aggregates += [func.count(column), count_true(column.in_(RIGHT_RESULTS))]
    with store.engine.connect() as conn:
        row = conn.execute(select(*aggregates).where(scope.where())).one()
    rows = [
        (part, int(row[2 * i] or 0), int(row[2 * i + 1] or 0))
        for i, part in enumerate(columns)
        if row[2 * i]
    ]
    return tallied(pd.DataFrame(rows, columns=["part", "answered", "correct"]))[["part", *TALLY_COLUMNS]]


def accuracy_by(store: Store, scope: AnswerScope, column: str) -> pd.DataFrame:
    key = A[column]
    query = select(key, func.count(), count_true(A.correct)).where(scope.where(), key.is_not(None)).group_by(key)
    tally = tallied(query_frame(store, query, [column, "answered", "correct"]))
    return tally.sort_values(["accuracy", column], kind="stable", ignore_index=True)


def penalty_confusion(store: Store, scope: AnswerScope) -> pd.DataFrame:
    query = (
        select(A.standard_penalty, A.chosen_penalty, func.count())
        .where(scope.where(), A.card_kind == "scenario", A.standard_penalty.is_not(None), A.chosen_penalty.is_not(None))
        .group_by(A.standard_penalty, A.chosen_penalty)
        .order_by(A.standard_penalty, A.chosen_penalty)
    )
    frame = query_frame(store, query, ["standard_penalty", "chosen_penalty", "count"])
    frame["count"] = frame["count"].astype("int64")
    return frame


def leniency(store: Store, scope: AnswerScope) -> Leniency:
    wrong = and_(scope.where(), A.penalty_result == PartResult.WRONG.value)
    with store.engine.connect() as conn:
        errors = conn.execute(select(func.count()).where(wrong)).scalar_one()
    query = (
        select(A.penalty_steps, func.count())
        .where(wrong, A.penalty_steps.is_not(None))
        .group_by(A.penalty_steps)
        .order_by(A.penalty_steps)
    )
    by_steps = query_frame(store, query, ["steps", "count"]).astype("int64")
    total = int(by_steps["count"].sum())
    mean = float((by_steps["steps"] * by_steps["count"]).sum() / total) if total else 0.0
    return Leniency(
        errors=int(errors),
        too_lenient=int(by_steps.loc[by_steps["steps"] < 0, "count"].sum()),
        too_harsh=int(by_steps.loc[by_steps["steps"] > 0, "count"].sum()),
        mean_steps=mean,
        by_steps=by_steps,
    )


def practice_streak(store: Store, scope: AnswerScope, today: date, goal: int = 1) -> Streak:
    """The current run of practice days (to ``today``, a day in the scope's zone, or to the
    day before if today's goal is not met yet), and the longest; a day counts when at least
    ``goal`` cards were answered on it."""
    return goal_streak(daily_counts(store, scope), today, goal)


def goal_streak(daily: pd.DataFrame, today: date, goal: int = 1) -> Streak:
    """``practice_streak`` from ``daily_counts`` already read."""
    return streak_of([day.date() for day, answered in zip(daily["date"], daily["answered"]) if answered >= goal], today)


def answered_on(daily: pd.DataFrame, day: date) -> int:
    """Cards answered on ``day``, from ``daily_counts``."""
    found = daily.loc[daily["date"].dt.date == day, "answered"]
    return int(found.iloc[0]) if len(found) else 0


def streak_of(days: Iterable[date], today: date) -> Streak:
    """The current and longest runs of consecutive ``days`` (in any order, repeats allowed)."""
    ordinals = sorted({day.toordinal() for day in days})
    if not ordinals:
        return Streak(current=0, longest=0)
    runs: list[tuple[int, int]] = []  # (first, last) ordinal of each run
    for ordinal in ordinals:
        if runs and ordinal == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], ordinal)
        else:
            runs.append((ordinal, ordinal))
    longest = max(last - first + 1 for first, last in runs)
    for end in (today.toordinal(), today.toordinal() - 1):  # the run through today, else through yesterday
        for first, last in runs:
            if first <= end <= last:
                return Streak(current=end - first + 1, longest=longest)
    return Streak(current=0, longest=longest)


def with_rolling_7d(daily: pd.DataFrame) -> pd.DataFrame:
    """Per-day tallies (indexed by day) with ``rolling_7d``: the correct/answered ratio of the
    sums over the seven calendar days ending each day."""
    daily = daily.copy()
    window = daily[["answered", "correct"]].rolling("7D").sum()
    daily["rolling_7d"] = window["correct"] / window["answered"]
    return daily.reset_index()


def recent_mistakes(store: Store, scope: AnswerScope, limit: int = 20) -> pd.DataFrame:
    rank = func.row_number().over(partition_by=A.card_id, order_by=(A.answered_at.desc(), A.id.desc())).label("rank")
    latest = select(*(A[c] for c in MISTAKE_COLUMNS), A.correct, A.id, rank).where(scope.where()).subquery()
    query = (
        select(*(latest.c[c] for c in MISTAKE_COLUMNS))
        .where(latest.c.rank == 1, latest.c.correct.is_(False))
        .order_by(latest.c.answered_at.desc(), latest.c.id.desc())
        .limit(limit)
    )
    frame = query_frame(store, query, MISTAKE_COLUMNS)
    frame["answered_at"] = pd.to_datetime(frame["answered_at"], utc=True)
    return frame


def accuracy_by_category(store: Store, scope: AnswerScope) -> pd.DataFrame:
    """``category_key, answered, correct, accuracy`` where the key is ``ruleset/category``
    (``ruleset/knowledge`` for knowledge cards), weakest first."""
    category = func.coalesce(A.category, KNOWLEDGE)
    query = (
        select(A.ruleset, category, func.count(), count_true(A.correct))
        .where(scope.where())
        .group_by(A.ruleset, category)
    )
    frame = query_frame(store, query, ["ruleset", "category", "answered", "correct"])
    frame.insert(0, "category_key", [category_key(r, c) for r, c in zip(frame.pop("ruleset"), frame.pop("category"))])
    tally = tallied(frame)
    return tally.sort_values(["accuracy", "category_key"], kind="stable", ignore_index=True)


def version(store: Store, scope: AnswerScope) -> tuple[int, int]:
    """The newest attempt id of the scope's trainee (of anyone without one), and the newest
    re-grade: it changes with every answer (attempts are only ever added) and with every
    re-grade (the only change to stored attempts). Two index lookups, whatever the history."""
    query = select(func.max(A.id))
    if scope.trainee_id is not None:
        query = query.where(A.trainee_id == scope.trainee_id)
    with store.engine.connect() as conn:
        newest = int(conn.execute(query).scalar_one_or_none() or 0)
        regraded = int(conn.execute(select(func.max(attempt_regrades.c.id))).scalar_one_or_none() or 0)
    return newest, regraded
