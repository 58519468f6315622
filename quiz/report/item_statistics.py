"""Item statistics: how each card performs as a question, aggregated in SQL on both databases.

Per card: the answers, the difficulty (share right), the discrimination, the median seconds
to answer and the open problem reports; per card and part, the answers chosen (the
distractors). ``tests/stats_oracle.py`` computes the same with pandas from the raw attempts.

Discrimination is the point-biserial correlation (Pearson's r of a 0/1 item score) between
each answer's being right and the answering trainee's accuracy on the rest of the pool (every
other card that trainee answered). An answer whose trainee answered nothing else has no rest
score and is left out. SQL counts, in one pass, each trainee's answers and right answers
per card (``answer_pairs``: at most trainees × cards rows leave the database, however long
the history); the rest scores, the moments and r are finished here from those counts. It is
NaN with fewer than two such answers, or when either side does not vary (everyone right, or
everyone equally strong).
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import pandas as pd
from sqlalchemy import (
    ColumnElement,
    Integer,
    String,
    Text,
    and_,
    case,
    cast,
    func,
    literal_column,
    select,
    true,
    tuple_,
    type_coerce,
)

from quiz.db.scoped import sees_trainee
from quiz.db.store import Store
from quiz.db.tables import attempts, problem_reports
from quiz.model.attempt import PartResult
from quiz.model.scope import Scope

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


def answer_scope(
    scope: Scope, rulesets: Iterable[str] | None, card_ids: Iterable[str] | None = None,
) -> ColumnElement[bool]:
    """The answers of ``scope``'s trainees (``quiz.db.scoped``), in ``rulesets`` and to
    ``card_ids`` when given."""
    clauses: list[ColumnElement[bool]] = [sees_trainee(A.trainee_id, scope)]
    if rulesets is not None:
        clauses.append(A.ruleset.in_(list(rulesets)))
    if card_ids is not None:
        clauses.append(A.card_id.in_(list(card_ids)))
    return and_(true(), *clauses)


def _count_where(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def scanned(store: Store, column: ColumnElement, card_ids: Iterable[str] | None = None) -> ColumnElement:
    """``column`` as SQLite should read it for a pass over every answer.

    On SQLite a ``GROUP BY`` (or ``IN``) on an indexed column walks that index and reads each
    answer's row from it, in random order: several seconds on a million answers. The same
    column as an expression (``+ 0``, ``|| ''``) no index covers makes it scan the table once,
    four to five times faster. PostgreSQL plans a sequential scan by itself; a query limited to
    a few cards (``card_ids``) is better off with the card index.
    """
    if store.engine.dialect.name != "sqlite" or card_ids is not None:
        return column
    return column.concat(literal_column("''")) if isinstance(column.type, String) else column + literal_column("0")


def answer_pairs(store: Store, scope: Scope, rulesets: Iterable[str] | None = None) -> pd.DataFrame:
    """``card_id, trainee_id, ruleset, n, c``: per card and ``scope``'s trainee, the answers and
    the right ones, in one pass over the answers. Every per-card figure but the median and the chosen
    answers follows from these (at most trainees × cards rows, whatever the history's length)."""
    card, trainee = scanned(store, A.card_id), scanned(store, A.trainee_id)
    query = (
        select(card, trainee, func.max(A.ruleset), func.count(), _count_where(A.correct))
        .where(answer_scope(scope, None if rulesets is None else list(rulesets)))
        .group_by(card, trainee)
    )
    with store.engine.connect() as conn:
        rows = [tuple(row) for row in conn.execute(query)]
    frame = pd.DataFrame(rows, columns=["card_id", "trainee_id", "ruleset", "n", "c"])
    return frame.astype({"trainee_id": "int64", "n": "int64", "c": "int64"})


def item_statistics(
    store: Store, scope: Scope, rulesets: Iterable[str] | None = None, card_ids: Iterable[str] | None = None,
    pairs: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per card with answers of ``scope``'s trainees (``ITEM_COLUMNS``), by card id.

    ``rulesets`` limits the answers (and so each trainee's rest score) to those games;
    ``card_ids`` limits the rows, not the rest scores. ``pairs`` is ``answer_pairs`` of the
    same scope and ``rulesets`` when the caller has it already.
    """
    games = None if rulesets is None else list(rulesets)
    cards = None if card_ids is None else list(card_ids)
    pairs = answer_pairs(store, scope, games) if pairs is None else pairs
    frame = pairs.groupby("card_id", sort=True).agg(ruleset=("ruleset", "max"), answers=("n", "sum"),
                                                    correct=("c", "sum")).reset_index()
    moments = _moments(pairs)
    if cards is not None:
        frame = frame[frame["card_id"].isin(cards)]
    frame = frame.merge(moments, on="card_id", how="left")
    frame["discrimination"] = [
        point_biserial(*row) for row in frame[["k", "sx", "sy", "sxy", "syy"]].itertuples(index=False, name=None)
    ]
    frame["median_seconds"] = frame["card_id"].map(median_seconds(store, scope, games, cards)).astype("float64")
    reports = open_report_counts(store, scope)
    frame["open_reports"] = frame["card_id"].map(reports).fillna(0).astype("int64")
    frame["answers"] = frame["answers"].astype("int64")
    frame["correct"] = frame["correct"].astype("int64")
    frame["difficulty"] = frame["correct"] / frame["answers"]
    return frame[ITEM_COLUMNS].sort_values("card_id", ignore_index=True)


def _moments(pairs: pd.DataFrame) -> pd.DataFrame:
    """``card_id, k, sx, sy, sxy, syy``: over the answers with a rest score, their count and the
    sums of x (right: 1), y (the trainee's accuracy on the rest of the pool), x·y and y².

    Every answer of one trainee to one card has the same y, so each (card, trainee) pair adds
    n, c, n·y, c·y and n·y²."""
    totals = pairs.groupby("trainee_id")[["n", "c"]].transform("sum")
    rest_n = (totals["n"] - pairs["n"]).astype("float64")
    rested = rest_n > 0
    n = pairs["n"].astype("float64")[rested]
    c = pairs["c"].astype("float64")[rested]
    y = (totals["c"] - pairs["c"]).astype("float64")[rested] / rest_n[rested]
    sums = pd.DataFrame({"card_id": pairs["card_id"][rested], "k": n, "sx": c, "sy": n * y, "sxy": c * y,
                         "syy": n * y * y})
    return sums.groupby("card_id", sort=False).sum().reset_index()


def median_seconds(
    store: Store, scope: Scope, rulesets: list[str] | None, card_ids: list[str] | None = None,
) -> dict[str, float]:
    """Card id -> the median seconds of its answers (the mean of the middle two of an even count).

    PostgreSQL has ``percentile_cont``. Elsewhere (SQLite) a window function would sort every
    answer; instead one pass counts each card's answers per whole second (``CAST`` is
    monotonic, so the buckets are ordered ranges), and a second pass reads only the answers in
    the one or two buckets that hold each card's middle.
    """
    where = answer_scope(scope, rulesets, card_ids)
    if store.engine.dialect.name == "postgresql":
        query = (select(A.card_id, func.percentile_cont(0.5).within_group(A.seconds))
                 .where(where).group_by(A.card_id))
        with store.engine.connect() as conn:
            return {card: float(value) for card, value in conn.execute(query)}
    card = scanned(store, A.card_id, card_ids)
    bucket = cast(A.seconds, Integer)
    with store.engine.connect() as conn:
        counts: dict[str, list[tuple[int, int]]] = {}
        for card_id, second, count in conn.execute(select(card, bucket, func.count()).where(where)
                                                    .group_by(card, bucket)):
            counts.setdefault(card_id, []).append((int(second), int(count)))
        wanted: dict[tuple[str, int], list[tuple[int, int]]] = {}  # (card, bucket) -> [(slot, index in it)]
        for card_id, buckets in counts.items():
            size = sum(count for _, count in buckets)
            middle = [(0, (size - 1) // 2), (1, size // 2)]
            below = 0
            for second, count in sorted(buckets):
                for slot, rank in middle:
                    if below <= rank < below + count:
                        wanted.setdefault((card_id, second), []).append((slot, rank - below))
                below += count
        values: dict[tuple[str, int], list[float]] = {key: [] for key in wanted}
        if wanted:
            query = select(card, bucket, A.seconds).where(where, tuple_(card, bucket).in_(list(wanted)))
            row: Any  # (card id, bucket, seconds)
            for row in conn.execute(query):
                values[(row[0], int(row[1]))].append(float(row[2]))
    middles: dict[str, list[float]] = {}
    for key, slots in wanted.items():
        ordered = sorted(values[key])
        for slot, index in slots:
            middles.setdefault(key[0], [0.0, 0.0])[slot] = ordered[index]
    return {card_id: (low + high) / 2 for card_id, (low, high) in middles.items()}


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
    store: Store, scope: Scope, rulesets: Iterable[str] | None = None, card_ids: Iterable[str] | None = None
) -> pd.DataFrame:
    """What ``scope``'s trainees chose for each part of each card (``DISTRACTOR_COLUMNS``): ``count`` answers
    chose it, ``wrong`` of them were marked wrong on that part. Unanswered parts are left out;
    ``fixes`` holds the chosen fix ids joined by commas (empty: no fix)."""
    where = answer_scope(scope, None if rulesets is None else list(rulesets), card_ids)
    frames = []
    with store.engine.connect() as conn:
        for part, (chosen, result) in DISTRACTOR_PARTS.items():
            wrong = A.correct.is_(False) if result is None else result == PartResult.WRONG.value
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


def open_report_counts(store: Store, scope: Scope) -> dict[str, int]:
    """Card id -> its open (unresolved) problem reports filed by ``scope``'s trainees."""
    P = problem_reports.c
    query = (select(P.card_id, func.count()).where(P.resolved.is_(False), sees_trainee(P.trainee_id, scope))
             .group_by(P.card_id))
    with store.engine.connect() as conn:
        return {card: int(count) for card, count in conn.execute(query)}
