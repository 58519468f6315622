"""A trainee's statistics, aggregated in the database (the one statistics path of the app).

Only aggregated rows leave the database, so the progress and team pages stay fast on a large
history or a remote server. Days are calendar days in the scope's time zone (the trainee's
own), computed in SQL on both databases: PostgreSQL's ``timezone()``, and on SQLite a
function the store registers on every connection. ``tests/stats_oracle.py`` computes the
same figures with pandas from the raw attempts, and the tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Iterable

import pandas as pd
from sqlalchemy import ColumnElement, Executable, Integer, Subquery, and_, case, cast, func, select, true

from quiz.content.categories import KNOWLEDGE, category_key
from quiz.db.scoped import sees_trainee
from quiz.db.sql import local_date
from quiz.db.store import Store
from quiz.db.tables import attempt_regrades, attempts
from quiz.model.attempt import RIGHT_RESULTS
from quiz.model.scope import Scope as StoreScope

A = attempts.c
PARTS: dict[str, str] = {"infraction": "infraction_result", "penalty": "penalty_result", "fix": "fixes_result"}
TALLY_COLUMNS = ["answered", "correct", "accuracy"]
MISTAKE_COLUMNS = ["card_id", "ruleset", "answered_at", "chosen_penalty", "standard_penalty"]
FINDINGS_COLUMNS = ["answered", "findings", "right", "accuracy", "misjudged", "misapplied"]
FINDING_KEYS = ("trainee_id", "card_id", "ruleset")  # what findings may be counted by
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


@dataclass(frozen=True, slots=True)
class FindingsSplit:
    """Answers to cards with findings: how many, how many of their findings were right, and
    their wrong penalties told apart (``AttemptRecord.penalty_follows_findings``)."""

    answered: int  # answers to cards with findings
    findings: int  # the findings in them
    right: int  # of those, right (an arguable finding always is)
    misjudged: int  # a wrong penalty the trainee's own findings give: the facts were misjudged
    misapplied: int  # a wrong penalty they do not give: the document was misapplied

    @property
    def accuracy(self) -> float:
        return self.right / self.findings if self.findings else 0.0

    @property
    def wrong_penalties(self) -> int:
        return self.misjudged + self.misapplied


# Where answers come from, as Progress tells them apart: exam answers are given without
# feedback against the clock, so a trainee may count them apart from practice and review.
ANSWER_SOURCES: dict[str, tuple[str, ...] | None] = {"all": None, "practice": ("practice", "review"), "exam": ("exam",)}


@dataclass(frozen=True)
class Scope:
    """Which attempts: one trainee's (or everyone's), in some rulesets (or all), of the
    trainees a supervisor sees (``seen_by``; None: a trainee's own figures), given in some
    modes (or all); and the time zone whose calendar days count them (an IANA name, e.g.
    ``Asia/Tokyo``)."""

    trainee_id: int | None = None
    rulesets: tuple[str, ...] | None = None
    time_zone: str = UTC
    seen_by: StoreScope | None = None
    modes: tuple[str, ...] | None = None  # answers given in these modes (``ANSWER_SOURCES``); None: all

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


def _right(column: ColumnElement) -> ColumnElement[int]:
    return func.sum(case((column, 1), else_=0))


def _day(store: Store, scope: Scope) -> ColumnElement:
    """The calendar day of each answer in the scope's time zone, as ``YYYY-MM-DD``."""
    return local_date(store.engine, A.answered_at, scope.time_zone)


def _frame(store: Store, query: Executable, columns: Iterable[str]) -> pd.DataFrame:
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return pd.DataFrame([tuple(r) for r in rows], columns=list(columns))


def _tally(frame: pd.DataFrame) -> pd.DataFrame:
    frame["answered"] = frame["answered"].astype("int64")
    frame["correct"] = frame["correct"].fillna(0).astype("int64")
    frame["accuracy"] = frame["correct"] / frame["answered"]
    return frame


def summary(store: Store, scope: Scope) -> Summary:
    query = select(func.count(), _right(A.correct), func.count(func.distinct(_day(store, scope)))).where(scope.where())
    with store.engine.connect() as conn:
        answered, correct, days = conn.execute(query).one()
    answered, correct = int(answered or 0), int(correct or 0)
    return Summary(answered, correct, correct / answered if answered else 0.0, int(days or 0))


def daily_counts(store: Store, scope: Scope) -> pd.DataFrame:
    """``date, answered, correct`` per local day with answers, oldest first."""
    day = _day(store, scope).label("day")
    query = select(day, func.count(), _right(A.correct)).where(scope.where()).group_by(day).order_by(day)
    frame = _frame(store, query, ["date", "answered", "correct"])
    frame["date"] = pd.to_datetime(frame["date"].astype(str))
    return frame


def daily_accuracy(store: Store, scope: Scope) -> pd.DataFrame:
    daily = _tally(daily_counts(store, scope))
    if daily.empty:
        empty = pd.DataFrame(columns=["date", *TALLY_COLUMNS])
        types = {"date": "datetime64[ns]", "answered": "int64", "correct": "int64", "accuracy": "float64"}
        return with_rolling_7d(empty.astype(types).set_index("date"))
    return with_rolling_7d(daily.set_index("date")[TALLY_COLUMNS])


def accuracy_by_part(store: Store, scope: Scope) -> pd.DataFrame:
    columns = {part: A[column] for part, column in PARTS.items()}
    aggregates = []
    for column in columns.values():
        aggregates += [func.count(column), _right(column.in_(RIGHT_RESULTS))]
    with store.engine.connect() as conn:
        row = conn.execute(select(*aggregates).where(scope.where())).one()
    rows = [
        (part, int(row[2 * i] or 0), int(row[2 * i + 1] or 0))
        for i, part in enumerate(columns)
        if row[2 * i]
    ]
    return _tally(pd.DataFrame(rows, columns=["part", "answered", "correct"]))[["part", *TALLY_COLUMNS]]


def accuracy_by(store: Store, scope: Scope, column: str) -> pd.DataFrame:
    key = A[column]
    query = select(key, func.count(), _right(A.correct)).where(scope.where(), key.is_not(None)).group_by(key)
    tally = _tally(_frame(store, query, [column, "answered", "correct"]))
    return tally.sort_values(["accuracy", column], kind="stable", ignore_index=True)


def penalty_confusion(store: Store, scope: Scope) -> pd.DataFrame:
    query = (
        select(A.standard_penalty, A.chosen_penalty, func.count())
        .where(scope.where(), A.card_kind == "scenario", A.standard_penalty.is_not(None), A.chosen_penalty.is_not(None))
        .group_by(A.standard_penalty, A.chosen_penalty)
        .order_by(A.standard_penalty, A.chosen_penalty)
    )
    frame = _frame(store, query, ["standard_penalty", "chosen_penalty", "count"])
    frame["count"] = frame["count"].astype("int64")
    return frame


def leniency(store: Store, scope: Scope) -> Leniency:
    wrong = and_(scope.where(), A.penalty_result == "wrong")
    with store.engine.connect() as conn:
        errors = conn.execute(select(func.count()).where(wrong)).scalar_one()
    query = (
        select(A.penalty_steps, func.count())
        .where(wrong, A.penalty_steps.is_not(None))
        .group_by(A.penalty_steps)
        .order_by(A.penalty_steps)
    )
    by_steps = _frame(store, query, ["steps", "count"]).astype("int64")
    total = int(by_steps["count"].sum())
    mean = float((by_steps["steps"] * by_steps["count"]).sum() / total) if total else 0.0
    return Leniency(
        errors=int(errors),
        too_lenient=int(by_steps.loc[by_steps["steps"] < 0, "count"].sum()),
        too_harsh=int(by_steps.loc[by_steps["steps"] > 0, "count"].sum()),
        mean_steps=mean,
        by_steps=by_steps,
    )


def practice_streak(store: Store, scope: Scope, today: date, goal: int = 1) -> Streak:
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


def recent_mistakes(store: Store, scope: Scope, limit: int = 20) -> pd.DataFrame:
    rank = func.row_number().over(partition_by=A.card_id, order_by=(A.answered_at.desc(), A.id.desc())).label("rank")
    latest = select(*(A[c] for c in MISTAKE_COLUMNS), A.correct, A.id, rank).where(scope.where()).subquery()
    query = (
        select(*(latest.c[c] for c in MISTAKE_COLUMNS))
        .where(latest.c.rank == 1, latest.c.correct.is_(False))
        .order_by(latest.c.answered_at.desc(), latest.c.id.desc())
        .limit(limit)
    )
    frame = _frame(store, query, MISTAKE_COLUMNS)
    frame["answered_at"] = pd.to_datetime(frame["answered_at"], utc=True)
    return frame


def accuracy_by_category(store: Store, scope: Scope) -> pd.DataFrame:
    """``category_key, answered, correct, accuracy`` where the key is ``ruleset/category``
    (``ruleset/knowledge`` for knowledge cards), weakest first."""
    category = func.coalesce(A.category, KNOWLEDGE)
    query = (
        select(A.ruleset, category, func.count(), _right(A.correct))
        .where(scope.where())
        .group_by(A.ruleset, category)
    )
    frame = _frame(store, query, ["ruleset", "category", "answered", "correct"])
    frame.insert(0, "category_key", [category_key(r, c) for r, c in zip(frame.pop("ruleset"), frame.pop("category"))])
    tally = _tally(frame)
    return tally.sort_values(["accuracy", "category_key"], kind="stable", ignore_index=True)


def finding_rows(store: Store, scope: Scope) -> Subquery:
    """One row per finding of each attempt in ``scope`` (none for an attempt without
    findings): ``attempt_id, trainee_id, card_id, ruleset, follows`` (the attempt's
    ``penalty_follows_findings``), ``fact`` and ``right`` (1 or 0).

    The one place the databases differ, expanding the JSON array of ``attempts.findings``:
    SQLite's ``json_each`` gives a row per element (and one of type ``null`` for a stored
    JSON ``null``, left out with anything else that is not an object); PostgreSQL's
    ``json_array_elements`` (the column is ``json``) refuses a scalar, so it is given only
    arrays (NULL otherwise: no rows). Statistics group by this subquery's plain columns: an
    expression with bound parameters (the JSON paths) in both SELECT and GROUP BY would be
    two different expressions to PostgreSQL.
    """
    fact: ColumnElement[Any]
    right: ColumnElement[bool]
    if store.engine.dialect.name == "sqlite":
        each = func.json_each(A.findings).table_valued("value", "type")
        source = attempts.join(each, each.c.type == "object")
        fact = func.json_extract(each.c.value, "$.fact")
        right = func.json_extract(each.c.value, "$.right") == 1
    else:
        arrays = case((func.json_typeof(A.findings) == "array", A.findings))
        elements = func.json_array_elements(arrays).table_valued("value").lateral()
        source = attempts.join(elements, true())
        fact = elements.c.value.op("->>")("fact")
        right = elements.c.value.op("->>")("right") == "true"
    query = select(
        A.id.label("attempt_id"), A.trainee_id, A.card_id, A.ruleset, A.penalty_follows_findings.label("follows"),
        fact.label("fact"), case((right, 1), else_=0).label("right"),
    ).select_from(source).where(scope.where())
    return query.subquery("findings")


def finding_accuracy(store: Store, scope: Scope, by: tuple[str, ...] = ("ruleset",)) -> pd.DataFrame:
    """``*by, fact, answered, correct, accuracy``: the findings of each fact (per value of the
    ``by`` columns, of ``FINDING_KEYS``: a fact is a ruleset's) and how many were right,
    weakest first."""
    found = finding_rows(store, scope)
    keys = [found.c[name] for name in (*_finding_keys(by), "fact")]
    query = select(*keys, func.count(), func.sum(found.c.right)).group_by(*keys)
    tally = _tally(_frame(store, query, [*by, "fact", "answered", "correct"]))
    return tally.sort_values(["accuracy", *by, "fact"], kind="stable", ignore_index=True)


def _finding_keys(names: tuple[str, ...]) -> list[str]:
    """``names``, checked to be ``FINDING_KEYS``."""
    unknown = [name for name in names if name not in FINDING_KEYS]
    if unknown:
        raise ValueError(f"findings are counted by {FINDING_KEYS}, not {unknown}")
    return list(names)


def findings_split(store: Store, scope: Scope) -> FindingsSplit:
    """The answers to cards with findings in ``scope``, their findings, and their wrong
    penalties told apart: misjudged facts or a misapplied document."""
    row = findings_by(store, scope, None).iloc[0]
    return FindingsSplit(*(int(row[name]) for name in ("answered", "findings", "right", "misjudged", "misapplied")))


def findings_by(store: Store, scope: Scope, key: str | None) -> pd.DataFrame:
    """``key, *FINDINGS_COLUMNS`` per value of ``key`` (of ``FINDING_KEYS``) with answers to
    cards with findings, by key; one row of totals (without ``key``) when it is None.
    ``accuracy`` is the share of findings right (NaN without findings)."""
    found = finding_rows(store, scope)
    names = _finding_keys(() if key is None else (key,))
    per_answer = (
        select(*(found.c[name] for name in names), found.c.follows, func.count().label("findings"),
               func.sum(found.c.right).label("right"))
        .group_by(found.c.attempt_id, *(found.c[name] for name in names), found.c.follows)
        .subquery("per_answer")
    )
    keys, follows = [per_answer.c[name] for name in names], per_answer.c.follows
    query = select(
        *keys, func.count(), func.sum(per_answer.c.findings), func.sum(per_answer.c.right),
        _right(follows.is_(True)), _right(follows.is_(False)),
    ).group_by(*keys)
    counts = ["answered", "findings", "right", "misjudged", "misapplied"]
    frame = _frame(store, query, [*names, *counts])
    frame[counts] = frame[counts].fillna(0).astype("int64")
    frame["accuracy"] = (frame["right"] / frame["findings"]).where(frame["findings"] > 0)
    return frame[[*names, *FINDINGS_COLUMNS]].sort_values(names, ignore_index=True)  # as Python orders text


def version(store: Store, scope: Scope) -> tuple[int, int]:
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


# Floor calls (``AttemptRecord.investigation``): the investigation beside the ruling

FLOOR_CALL = "floor_call"
KIND_COMPARED = ("scenario", FLOOR_CALL)  # floor calls against the cards ruled without investigating
FLOOR_CALL_COUNTS = ["answered", "correct", "findings", "gathered", "right_guesses", "leading", "seconds",
                     "budget_seconds", "over_budget"]
FLOOR_CALL_COLUMNS = ["answered", "correct", "accuracy", "findings", "gathered", "gathered_share", "right_guesses",
                      "leading", "leading_per_call", "mean_seconds", "mean_budget", "over_budget", "over_budget_share"]
KIND_COLUMNS = ["card_kind", *TALLY_COLUMNS]


@dataclass(frozen=True, slots=True)
class FloorCallSplit:
    """Answers to floor calls: the ruling (right or not) and the investigation beside it."""

    answered: int
    correct: int  # the ruling right
    findings: int  # the findings of the calls answered
    gathered: int  # of those, with their evidence gathered (a step that shows it, not leading)
    right_guesses: int  # a finding right with its evidence missed
    leading: int  # leading questions asked
    seconds: int  # round time used, all calls together
    budget_seconds: int  # the time the calls allowed, together
    over_budget: int  # calls that took longer than their budget

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0

    @property
    def gathered_share(self) -> float:
        return self.gathered / self.findings if self.findings else 0.0

    @property
    def leading_per_call(self) -> float:
        return self.leading / self.answered if self.answered else 0.0

    @property
    def mean_seconds(self) -> float:
        return self.seconds / self.answered if self.answered else 0.0

    @property
    def mean_budget(self) -> float:
        return self.budget_seconds / self.answered if self.answered else 0.0

    @property
    def over_budget_share(self) -> float:
        return self.over_budget / self.answered if self.answered else 0.0


def _investigated(store: Store) -> ColumnElement[bool]:
    """An answer to a floor call stored with its investigation (a JSON object)."""
    sqlite = store.engine.dialect.name == "sqlite"
    kind = func.json_type(A.investigation) if sqlite else func.json_typeof(A.investigation)
    return and_(A.card_kind == FLOOR_CALL, kind == "object")


def floor_call_rows(store: Store, scope: Scope) -> Subquery:
    """One row per answer to a floor call in ``scope`` stored with its investigation:
    ``attempt_id, trainee_id, card_id, ruleset, correct`` (1 or 0), ``seconds``,
    ``budget_seconds``, ``leading`` (the leading questions asked) and ``over_budget`` (1 or 0).
    The JSON is read here, in plain columns the statistics group by (``finding_rows``)."""
    seconds: ColumnElement[Any]
    budget: ColumnElement[Any]
    leading: ColumnElement[Any]
    if store.engine.dialect.name == "sqlite":
        seconds = func.coalesce(func.json_extract(A.investigation, "$.seconds"), 0)
        budget = func.coalesce(func.json_extract(A.investigation, "$.budget_seconds"), 0)
        leading = func.coalesce(func.json_array_length(A.investigation, "$.leading"), 0)
    else:
        seconds = func.coalesce(cast(A.investigation.op("->>")("seconds"), Integer), 0)
        budget = func.coalesce(cast(A.investigation.op("->>")("budget_seconds"), Integer), 0)
        asked = A.investigation.op("->")("leading")
        leading = case((func.json_typeof(asked) == "array", func.json_array_length(asked)), else_=0)
    query = select(
        A.id.label("attempt_id"), A.trainee_id, A.card_id, A.ruleset, case((A.correct, 1), else_=0).label("correct"),
        seconds.label("seconds"), budget.label("budget_seconds"), leading.label("leading"),
        case((seconds > budget, 1), else_=0).label("over_budget"),
    ).where(scope.where(), _investigated(store))
    return query.subquery("floor_calls")


def evidence_rows(store: Store, scope: Scope) -> Subquery:
    """One row per finding of each answer to a floor call in ``scope``, from its
    investigation's ``evidence`` (``[fact, "gathered" | "missed"]`` pairs): ``attempt_id,
    fact, gathered`` (1 or 0). As ``finding_rows``, the one place the databases differ:
    SQLite's ``json_each`` over the path (no rows where it is missing), PostgreSQL's
    ``json_array_elements`` given only arrays."""
    fact: ColumnElement[Any]
    found: ColumnElement[Any]
    if store.engine.dialect.name == "sqlite":
        each = func.json_each(A.investigation, "$.evidence").table_valued("value", "type")
        source = attempts.join(each, each.c.type == "array")
        fact = func.json_extract(each.c.value, "$[0]")
        found = func.json_extract(each.c.value, "$[1]")
    else:
        evidence = A.investigation.op("->")("evidence")
        arrays = case((func.json_typeof(evidence) == "array", evidence))
        elements = func.json_array_elements(arrays).table_valued("value").lateral()
        source = attempts.join(elements, true())
        pair = case((func.json_typeof(elements.c.value) == "array", elements.c.value))
        fact = func.json_extract_path_text(pair, "0")
        found = func.json_extract_path_text(pair, "1")
    query = select(
        A.id.label("attempt_id"), fact.label("fact"), case((found == "gathered", 1), else_=0).label("gathered"),
    ).select_from(source).where(scope.where(), _investigated(store))
    return query.subquery("evidence")


def _evidence_per_answer(store: Store, scope: Scope) -> Subquery:
    """Per answer to a floor call with findings: ``attempt_id, findings, gathered`` and
    ``right_guesses`` (a finding right, by the answer's findings, with its evidence missed)."""
    evidence, found = evidence_rows(store, scope), finding_rows(store, scope)
    same = and_(found.c.attempt_id == evidence.c.attempt_id, found.c.fact == evidence.c.fact)
    joined = evidence.outerjoin(found, same)
    guessed = and_(found.c.right == 1, evidence.c.gathered == 0)
    query = (
        select(evidence.c.attempt_id, func.count().label("findings"), func.sum(evidence.c.gathered).label("gathered"),
               _right(guessed).label("right_guesses"))
        .select_from(joined)
        .group_by(evidence.c.attempt_id)
    )
    return query.subquery("per_call")


def floor_calls_by(store: Store, scope: Scope, key: str | None) -> pd.DataFrame:
    """``key, *FLOOR_CALL_COLUMNS`` per value of ``key`` (of ``FINDING_KEYS``) with answers to
    floor calls; one row of totals (without ``key``) when it is None, zeros without any.
    ``gathered_share`` is the share of findings ruled with their evidence gathered (NaN
    without findings), ``right_guesses`` the findings right with their evidence missed,
    ``mean_seconds`` and ``mean_budget`` the round time used and allowed per call, and
    ``over_budget_share`` the share of calls over their budget (the shares and means NaN
    without answers)."""
    names = _finding_keys(() if key is None else (key,))
    return floor_call_shares(_floor_call_counts(store, scope, names), names)


def _floor_call_counts(store: Store, scope: Scope, names: list[str]) -> pd.DataFrame:
    """``names, *FLOOR_CALL_COUNTS`` per group of ``names``; one row of zeros without names
    and without answers."""
    calls, per_call = floor_call_rows(store, scope), _evidence_per_answer(store, scope)
    keys = [calls.c[name] for name in names]
    sums = [calls.c.correct, per_call.c.findings, per_call.c.gathered, per_call.c.right_guesses, calls.c.leading,
            calls.c.seconds, calls.c.budget_seconds, calls.c.over_budget]
    query = (
        select(*keys, func.count(), *(func.sum(column) for column in sums))
        .select_from(calls.outerjoin(per_call, per_call.c.attempt_id == calls.c.attempt_id))
        .group_by(*keys)
    )
    frame = _frame(store, query, [*names, *FLOOR_CALL_COUNTS])
    if not names and frame.empty:
        frame = pd.DataFrame([[0] * len(FLOOR_CALL_COUNTS)], columns=FLOOR_CALL_COUNTS)
    frame[FLOOR_CALL_COUNTS] = frame[FLOOR_CALL_COUNTS].fillna(0).astype("int64")
    return frame


def floor_call_shares(counts: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """``names, *FLOOR_CALL_COLUMNS`` from the counts (``FLOOR_CALL_COUNTS``) per group, sorted by
    ``names`` as Python orders text; a share is NaN without anything to share (no answers, no
    findings)."""
    frame = counts.copy()
    answered = frame["answered"].where(frame["answered"] > 0)
    frame["accuracy"] = frame["correct"] / answered
    frame["gathered_share"] = frame["gathered"] / frame["findings"].where(frame["findings"] > 0)
    frame["leading_per_call"] = frame["leading"] / answered
    frame["mean_seconds"] = frame["seconds"] / answered
    frame["mean_budget"] = frame["budget_seconds"] / answered
    frame["over_budget_share"] = frame["over_budget"] / answered
    return frame[[*names, *FLOOR_CALL_COLUMNS]].sort_values(names, ignore_index=True)


def floor_call_split(store: Store, scope: Scope) -> FloorCallSplit:
    """The answers to floor calls in ``scope``, their rulings and their investigations, together."""
    row = _floor_call_counts(store, scope, []).iloc[0]
    return FloorCallSplit(*(int(row[name]) for name in FLOOR_CALL_COUNTS))


def accuracy_by_kind(store: Store, scope: Scope, key: str | None = None) -> pd.DataFrame:
    """``key, card_kind, answered, correct, accuracy``: floor calls against scenario cards
    (``KIND_COMPARED``), per value of ``key`` (of ``FINDING_KEYS``; every answer together when
    None), the kinds without answers left out, sorted by ``key`` then kind."""
    names = _finding_keys(() if key is None else (key,))
    keys = [A[name] for name in (*names, "card_kind")]
    query = select(*keys, func.count(), _right(A.correct)).where(scope.where(), A.card_kind.in_(KIND_COMPARED)) \
        .group_by(*keys)
    tally = _tally(_frame(store, query, [*names, "card_kind", "answered", "correct"]))
    return tally.sort_values([*names, "card_kind"], ignore_index=True)[[*names, *KIND_COLUMNS]]
