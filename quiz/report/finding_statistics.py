"""Statistics of findings (CONTENT.md revision 3), aggregated in the database as every
statistic is (``quiz.report.statistics``): each finding of each answer read from the
``findings`` JSON into plain columns (``finding_rows``), counted per fact, per trainee, card
or ruleset, and the wrong penalties of cards with findings told apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy import ColumnElement, Subquery, case, func, select, true

from quiz.db.store import Store
from quiz.db.tables import attempts
from quiz.report.statistics import A, AnswerScope, count_true, query_frame, tallied

FINDINGS_COLUMNS = ["answered", "findings", "right", "accuracy", "misjudged", "misapplied"]
FINDING_KEYS = ("trainee_id", "card_id", "ruleset")  # what findings may be counted by


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



def finding_rows(store: Store, scope: AnswerScope) -> Subquery:
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


def finding_accuracy(store: Store, scope: AnswerScope, by: tuple[str, ...] = ("ruleset",)) -> pd.DataFrame:
    """``*by, fact, answered, correct, accuracy``: the findings of each fact (per value of the
    ``by`` columns, of ``FINDING_KEYS``: a fact is a ruleset's) and how many were right,
    weakest first."""
    found = finding_rows(store, scope)
    keys = [found.c[name] for name in (*finding_keys(by), "fact")]
    query = select(*keys, func.count(), func.sum(found.c.right)).group_by(*keys)
    tally = tallied(query_frame(store, query, [*by, "fact", "answered", "correct"]))
    return tally.sort_values(["accuracy", *by, "fact"], kind="stable", ignore_index=True)


def finding_keys(names: tuple[str, ...]) -> list[str]:
    """``names``, checked to be ``FINDING_KEYS``."""
    unknown = [name for name in names if name not in FINDING_KEYS]
    if unknown:
        raise ValueError(f"findings are counted by {FINDING_KEYS}, not {unknown}")
    return list(names)


def findings_split(store: Store, scope: AnswerScope) -> FindingsSplit:
    """The answers to cards with findings in ``scope``, their findings, and their wrong
    penalties told apart: misjudged facts or a misapplied document."""
    row = findings_by(store, scope, None).iloc[0]
    return FindingsSplit(*(int(row[name]) for name in ("answered", "findings", "right", "misjudged", "misapplied")))


def findings_by(store: Store, scope: AnswerScope, key: str | None) -> pd.DataFrame:
    """``key, *FINDINGS_COLUMNS`` per value of ``key`` (of ``FINDING_KEYS``) with answers to
    cards with findings, by key; one row of totals (without ``key``) when it is None.
    ``accuracy`` is the share of findings right (NaN without findings)."""
    found = finding_rows(store, scope)
    names = finding_keys(() if key is None else (key,))
    per_answer = (
        select(*(found.c[name] for name in names), found.c.follows, func.count().label("findings"),
               func.sum(found.c.right).label("right"))
        .group_by(found.c.attempt_id, *(found.c[name] for name in names), found.c.follows)
        .subquery("per_answer")
    )
    keys, follows = [per_answer.c[name] for name in names], per_answer.c.follows
    query = select(
        *keys, func.count(), func.sum(per_answer.c.findings), func.sum(per_answer.c.right),
        count_true(follows.is_(True)), count_true(follows.is_(False)),
    ).group_by(*keys)
    counts = ["answered", "findings", "right", "misjudged", "misapplied"]
    frame = query_frame(store, query, [*names, *counts])
    frame[counts] = frame[counts].fillna(0).astype("int64")
    frame["accuracy"] = (frame["right"] / frame["findings"]).where(frame["findings"] > 0)
    return frame[[*names, *FINDINGS_COLUMNS]].sort_values(names, ignore_index=True)  # as Python orders text
