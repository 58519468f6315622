"""Item statistics: how each card performs as a question, aggregated in SQL on both databases.

Per card: the answers, the difficulty (share right), the discrimination, the median seconds
to answer and the open problem reports; per card and part, the answers chosen (the
distractors). ``tests/stats_oracle.py`` computes the same with pandas from the raw attempts.

Discrimination is the point-biserial correlation (Pearson's r of a 0/1 item score) between
each answer's being right and the answering trainee's accuracy on the rest of the pool (every
other card that trainee answered). An answer whose trainee answered nothing else has no rest
score and is left out. SQL sums, per card, the moments of the two (only those rows leave the
database); r is finished here. It is NaN with fewer than two such answers, or when either
side does not vary (everyone right, or everyone equally strong).
"""

from __future__ import annotations

import math
from typing import Iterable

import pandas as pd
from sqlalchemy import ColumnElement, Float, Text, and_, case, cast, func, select, true, type_coerce

from quiz.db.store import Store
from quiz.db.tables import attempts, problem_reports

A = attempts.c
DISCRIMINATION_METHOD = "point_biserial_rest"  # the i18n key suffix naming the method on the page
ITEM_COLUMNS = [
    "card_id", "ruleset", "answers", "correct", "difficulty", "discrimination", "median_seconds", "open_reports",
]
DISTRACTOR_COLUMNS = ["card_id", "part", "chosen", "count", "wrong"]
# part -> (chosen column, result column or None for the whole answer's), over the cards that ask it
DISTRACTOR_PARTS: dict[str, tuple[ColumnElement, ColumnElement | None]] = {
    "infraction": (A.chosen_infraction, A.infraction_result),
    "penalty": (A.chosen_penalty, A.penalty_result),
    "fixes": (type_coerce(A.chosen_fixes, Text), A.fixes_result),
    "choice": (A.chosen_choice, None),
}
FLAT = 1e-9  # a variance this small relative to its terms is rounding, not spread


def _where(rulesets: Iterable[str] | None, card_ids: Iterable[str] | None = None) -> ColumnElement[bool]:
    clauses: list[ColumnElement[bool]] = []
    if rulesets is not None:
        clauses.append(A.ruleset.in_(list(rulesets)))
    if card_ids is not None:
        clauses.append(A.card_id.in_(list(card_ids)))
    return and_(true(), *clauses)


def _count_where(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def item_statistics(
    store: Store, rulesets: Iterable[str] | None = None, card_ids: Iterable[str] | None = None
) -> pd.DataFrame:
    """One row per card with answers (``ITEM_COLUMNS``), by card id.

    ``rulesets`` limits the answers (and so each trainee's rest score) to those games;
    ``card_ids`` limits the rows, not the rest scores.
    """
    games = None if rulesets is None else list(rulesets)
    base = _basics(store, games, card_ids)
    moments = _moments(store, games, card_ids)
    frame = base.merge(moments, on="card_id", how="left")
    frame["discrimination"] = [
        point_biserial(*row) for row in frame[["k", "sx", "sy", "sxy", "syy"]].itertuples(index=False, name=None)
    ]
    reports = open_report_counts(store)
    frame["open_reports"] = frame["card_id"].map(reports).fillna(0).astype("int64")
    frame["difficulty"] = frame["correct"] / frame["answers"]
    return frame[ITEM_COLUMNS].sort_values("card_id", ignore_index=True)


def _basics(store: Store, rulesets: list[str] | None, card_ids: Iterable[str] | None) -> pd.DataFrame:
    """``card_id, ruleset, answers, correct, median_seconds`` per card."""
    where = _where(rulesets, card_ids)
    counts = (
        select(A.card_id, func.max(A.ruleset), func.count(), _count_where(A.correct))
        .where(where).group_by(A.card_id)
    )
    rank = func.row_number().over(partition_by=A.card_id, order_by=(A.seconds, A.id)).label("rank")
    size = func.count().over(partition_by=A.card_id).label("size")
    ranked = select(A.card_id, A.seconds, rank, size).where(where).subquery()
    middle = and_(ranked.c.rank * 2 >= ranked.c.size, ranked.c.rank * 2 <= ranked.c.size + 2)  # one or two rows
    medians = select(ranked.c.card_id, func.avg(ranked.c.seconds)).where(middle).group_by(ranked.c.card_id)
    with store.engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(counts)]
        median = {card: float(value) for card, value in conn.execute(medians)}
    frame = pd.DataFrame(rows, columns=["card_id", "ruleset", "answers", "correct"])
    frame = frame.astype({"answers": "int64", "correct": "int64"})
    frame["median_seconds"] = frame["card_id"].map(median).astype("float64")
    return frame


def _moments(store: Store, rulesets: list[str] | None, card_ids: Iterable[str] | None) -> pd.DataFrame:
    """``card_id, k, sx, sy, sxy, syy``: over the answers with a rest score, their count and the
    sums of x (right: 1), y (the trainee's accuracy on the rest of the pool), x·y and y²."""
    scope = _where(rulesets)
    right = case((A.correct, 1), else_=0)
    per_trainee = (
        select(A.trainee_id, func.count().label("n"), func.sum(right).label("c"))
        .where(scope).group_by(A.trainee_id).subquery()
    )
    per_pair = (
        select(A.trainee_id, A.card_id, func.count().label("n"), func.sum(right).label("c"))
        .where(scope, _where(None, card_ids)).group_by(A.trainee_id, A.card_id).subquery()
    )
    rest_n = per_trainee.c.n - per_pair.c.n
    y = (cast(per_trainee.c.c - per_pair.c.c, Float) / cast(rest_n, Float)).label("y")
    rested = (
        select(per_pair.c.card_id, cast(per_pair.c.n, Float).label("n"), cast(per_pair.c.c, Float).label("c"), y)
        .join(per_trainee, per_trainee.c.trainee_id == per_pair.c.trainee_id)
        .where(rest_n > 0)
        .subquery()
    )
    r = rested.c
    query = select(
        r.card_id, func.sum(r.n), func.sum(r.c), func.sum(r.n * r.y), func.sum(r.c * r.y), func.sum(r.n * r.y * r.y),
    ).group_by(r.card_id)
    with store.engine.connect() as conn:
        rows = [tuple(row) for row in conn.execute(query)]
    frame = pd.DataFrame(rows, columns=["card_id", "k", "sx", "sy", "sxy", "syy"])
    return frame.astype({name: "float64" for name in ("k", "sx", "sy", "sxy", "syy")})


def point_biserial(k: float, sx: float, sy: float, sxy: float, syy: float) -> float:
    """Pearson's r from the count and sums of 0/1 scores x and rest scores y (x² = x); NaN when
    undefined (fewer than two answers, or no spread on either side)."""
    if not k or math.isnan(k) or k < 2:
        return math.nan
    spread_x = k * sx - sx * sx
    spread_y = k * syy - sy * sy
    if spread_x <= 0 or spread_y <= FLAT * max(k * syy, 1.0):
        return math.nan
    return (k * sxy - sx * sy) / math.sqrt(spread_x * spread_y)


def distractors(
    store: Store, rulesets: Iterable[str] | None = None, card_ids: Iterable[str] | None = None
) -> pd.DataFrame:
    """What was chosen for each part of each card (``DISTRACTOR_COLUMNS``): ``count`` answers
    chose it, ``wrong`` of them were marked wrong on that part. Unanswered parts are left out;
    ``fixes`` holds the chosen fix ids joined by commas (empty: no fix)."""
    where = _where(None if rulesets is None else list(rulesets), card_ids)
    frames = []
    with store.engine.connect() as conn:
        for part, (chosen, result) in DISTRACTOR_PARTS.items():
            wrong = A.correct.is_(False) if result is None else result == "wrong"
            asked = A.card_kind != "scenario" if result is None else A.card_kind == "scenario"
            query = (
                select(A.card_id, chosen, func.count(), _count_where(wrong))
                .where(where, asked, chosen.is_not(None))
                .group_by(A.card_id, chosen)
            )
            rows = [(card, part, value, count, wrong_count) for card, value, count, wrong_count in conn.execute(query)]
            frames.append(pd.DataFrame(rows, columns=DISTRACTOR_COLUMNS))
    frame = pd.concat(frames, ignore_index=True)
    frame = frame.astype({"count": "int64", "wrong": "int64"})
    order = {part: i for i, part in enumerate(DISTRACTOR_PARTS)}
    frame["order"] = frame["part"].map(order)
    frame = frame.sort_values(["card_id", "order", "count", "chosen"], ascending=[True, True, False, True])
    return frame.drop(columns="order").reset_index(drop=True)


def open_report_counts(store: Store) -> dict[str, int]:
    """Card id -> its open (unresolved) problem reports."""
    P = problem_reports.c
    query = select(P.card_id, func.count()).where(P.resolved.is_(False)).group_by(P.card_id)
    with store.engine.connect() as conn:
        return {card: int(count) for card, count in conn.execute(query)}
