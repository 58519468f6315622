"""Statistics of floor calls (``AttemptRecord.investigation``): the investigation beside the
ruling, aggregated in the database as every statistic is (``quiz.report.statistics``). The
JSON is read into plain columns (``floor_call_rows``, ``evidence_rows``, joined to
``finding_statistics.finding_rows`` by fact for right guesses); ``quiz.report.floor_calls``
shapes them for Progress and Team.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy import ColumnElement, Integer, Subquery, and_, case, cast, func, select, true

from quiz.db.store import Store
from quiz.db.tables import attempts
from quiz.report.finding_statistics import finding_keys, finding_rows
from quiz.report.statistics import TALLY_COLUMNS, A, AnswerScope, count_true, query_frame, tallied

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


def floor_call_rows(store: Store, scope: AnswerScope) -> Subquery:
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


def evidence_rows(store: Store, scope: AnswerScope) -> Subquery:
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


def _evidence_per_answer(store: Store, scope: AnswerScope) -> Subquery:
    """Per answer to a floor call with findings: ``attempt_id, findings, gathered`` and
    ``right_guesses`` (a finding right, by the answer's findings, with its evidence missed)."""
    evidence, found = evidence_rows(store, scope), finding_rows(store, scope)
    same = and_(found.c.attempt_id == evidence.c.attempt_id, found.c.fact == evidence.c.fact)
    joined = evidence.outerjoin(found, same)
    guessed = and_(found.c.right == 1, evidence.c.gathered == 0)
    query = (
        select(evidence.c.attempt_id, func.count().label("findings"), func.sum(evidence.c.gathered).label("gathered"),
               count_true(guessed).label("right_guesses"))
        .select_from(joined)
        .group_by(evidence.c.attempt_id)
    )
    return query.subquery("per_call")


def floor_calls_by(store: Store, scope: AnswerScope, key: str | None) -> pd.DataFrame:
    """``key, *FLOOR_CALL_COLUMNS`` per value of ``key`` (of ``FINDING_KEYS``) with answers to
    floor calls; one row of totals (without ``key``) when it is None, zeros without any.
    ``gathered_share`` is the share of findings ruled with their evidence gathered (NaN
    without findings), ``right_guesses`` the findings right with their evidence missed,
    ``mean_seconds`` and ``mean_budget`` the round time used and allowed per call, and
    ``over_budget_share`` the share of calls over their budget (the shares and means NaN
    without answers)."""
    names = finding_keys(() if key is None else (key,))
    return floor_call_shares(_floor_call_counts(store, scope, names), names)


def _floor_call_counts(store: Store, scope: AnswerScope, names: list[str]) -> pd.DataFrame:
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
    frame = query_frame(store, query, [*names, *FLOOR_CALL_COUNTS])
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


def floor_call_split(store: Store, scope: AnswerScope) -> FloorCallSplit:
    """The answers to floor calls in ``scope``, their rulings and their investigations, together."""
    row = _floor_call_counts(store, scope, []).iloc[0]
    return FloorCallSplit(*(int(row[name]) for name in FLOOR_CALL_COUNTS))


def accuracy_by_kind(store: Store, scope: AnswerScope, key: str | None = None) -> pd.DataFrame:
    """``key, card_kind, answered, correct, accuracy``: floor calls against scenario cards
    (``KIND_COMPARED``), per value of ``key`` (of ``FINDING_KEYS``; every answer together when
    None), the kinds without answers left out, sorted by ``key`` then kind."""
    names = finding_keys(() if key is None else (key,))
    keys = [A[name] for name in (*names, "card_kind")]
    query = select(*keys, func.count(), count_true(A.correct)).where(scope.where(), A.card_kind.in_(KIND_COMPARED)) \
        .group_by(*keys)
    tally = tallied(query_frame(store, query, [*names, "card_kind", "answered", "correct"]))
    return tally.sort_values([*names, "card_kind"], ignore_index=True)[[*names, *KIND_COLUMNS]]
