"""The review queue: cards ranked by how suspicious their answers make them, for authors.

Four signals, each from the database (``quiz.report.item_statistics``, problem reports and
re-grades), each adding to a card's suspicion:

- open problem reports (``REPORT_WEIGHT`` each);
- a negative or near-zero discrimination on enough answers: strong trainees do no better on
  the card than weak ones, as with a wrong key;
- strong trainees agreeing on one wrong answer (a part's most chosen wrong value among the
  answers of trainees whose accuracy is high): they may know better than the key;
- answers of the card changed by re-grading (``quiz.db.regrade``): its content changed.

Only cards with some signal are queued, most suspicious first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import pandas as pd
from sqlalchemy import func, or_, select

from quiz.content.card_sources import card_source
from quiz.content.loader import Content
from quiz.db.scoped import sees_trainee
from quiz.db.store import Store
from quiz.db.tables import attempt_regrades, attempts
from quiz.model.attempt import PartResult
from quiz.model.scope import Scope
from quiz.report.item_statistics import DISTRACTOR_PARTS, answer_pairs, answer_scope, item_statistics, scanned

A = attempts.c
REASONS = ("reports", "discrimination", "agreement", "regraded")
QUEUE_COLUMNS = [
    "card_id", "suspicion", "reasons", "open_reports", "answers", "difficulty", "discrimination", "median_seconds",
    "strong_answers", "strong_wrong_part", "strong_wrong", "strong_agreement", "regraded", "retired", "file", "line",
    "document_lines",
]
REPORT_WEIGHT = 3.0
DISCRIMINATION_WEIGHT = 5.0
AGREEMENT_WEIGHT = 10.0
REGRADE_WEIGHT = 2.0


@dataclass(frozen=True, slots=True)
class QueueRules:
    """When a signal counts.

    Attributes:
        min_answers: answers a card needs before its discrimination counts.
        near_zero: a discrimination below this counts (negative ones count most).
        strong_accuracy: the accuracy (over every answer in scope) that makes a trainee strong.
        strong_min_answers: answers a trainee needs to be judged strong at all.
        min_strong_answers: strong trainees' answers a card needs before their agreement counts.
        agreement: the share of those answers on one wrong value that counts.
    """

    min_answers: int = 20
    near_zero: float = 0.1
    strong_accuracy: float = 0.75
    strong_min_answers: int = 10
    min_strong_answers: int = 5
    agreement: float = 0.5


def strong_trainees(pairs: pd.DataFrame, rules: QueueRules = QueueRules()) -> list[int]:
    """The trainees (ids) whose accuracy over ``pairs`` (``answer_pairs``) makes them strong."""
    per = pairs.groupby("trainee_id")[["n", "c"]].sum()
    strong = (per["n"] >= rules.strong_min_answers) & (per["c"] >= rules.strong_accuracy * per["n"])
    return [int(trainee) for trainee in per.index[strong]]


def strong_wrong_answers(store: Store, scope: Scope, rulesets: Iterable[str] | None = None,
                         rules: QueueRules = QueueRules(),
                         pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per card: ``strong_answers`` (answers by strong trainees) and the part and value most
    of them chose wrongly (``strong_wrong_part``, ``strong_wrong``, ``strong_wrong_count``).

    One pass over the answers: strong trainees' wrong answers, counted per card and distinct
    answer (a handful of rows per card); ``pairs`` is ``answer_pairs`` of the same scope and
    games."""
    games = None if rulesets is None else list(rulesets)
    pairs = answer_pairs(store, scope, games) if pairs is None else pairs
    strong = strong_trainees(pairs, rules)
    by_strong = pairs[pairs["trainee_id"].isin(strong)]
    totals = by_strong.groupby("card_id", sort=False)["n"].sum()
    rows = []
    if strong:
        chosen = {part: chosen for part, (chosen, _) in DISTRACTOR_PARTS.items()}
        results = {part: result for part, (_, result) in DISTRACTOR_PARTS.items() if result is not None}
        card = scanned(store, A.card_id)
        keys = [card, A.card_kind, A.correct, *chosen.values(), *results.values()]
        any_wrong = or_(A.correct.is_(False), *(result == PartResult.WRONG.value for result in results.values()))
        query = (select(*keys, func.count())
                 .where(answer_scope(scope, games), scanned(store, A.trainee_id).in_(strong), any_wrong)
                 .group_by(*keys))
        with store.engine.connect() as conn:
            answers = [tuple(row) for row in conn.execute(query)]
        names = ["card_id", "card_kind", "correct", *(f"chosen_{p}" for p in chosen),
                 *(f"result_{p}" for p in results), "count"]
        found = pd.DataFrame(answers, columns=names)
        for part in chosen:
            scenario = found["card_kind"] == "scenario"
            if part in results:
                picked = found[scenario & (found[f"result_{part}"] == PartResult.WRONG.value)]
            else:
                picked = found[~scenario & ~found["correct"].astype(bool)]
            picked = picked[picked[f"chosen_{part}"].notna()]
            counted = picked.groupby(["card_id", f"chosen_{part}"], sort=False)["count"].sum()
            rows += [(card_id, part, value, int(count)) for (card_id, value), count in counted.items()]
    wrong_frame = pd.DataFrame(rows, columns=["card_id", "strong_wrong_part", "strong_wrong", "strong_wrong_count"])
    top = (wrong_frame.sort_values(["card_id", "strong_wrong_count", "strong_wrong_part", "strong_wrong"],
                                   ascending=[True, False, True, True])
           .drop_duplicates("card_id"))
    frame = pd.DataFrame({"card_id": list(totals.index), "strong_answers": [int(n) for n in totals]}, dtype=object)
    frame["strong_answers"] = frame["strong_answers"].astype("int64")
    frame = frame.merge(top, on="card_id", how="left")
    frame["strong_wrong_count"] = frame["strong_wrong_count"].fillna(0).astype("int64")
    return frame


def regraded_counts(store: Store, scope: Scope) -> dict[str, int]:
    """Card id -> how many of the answers of ``scope``'s trainees to it re-grading changed."""
    query = (
        select(A.card_id, func.count(func.distinct(attempt_regrades.c.attempt_id)))
        .join(attempts, attempts.c.id == attempt_regrades.c.attempt_id)
        .where(sees_trainee(A.trainee_id, scope))
        .group_by(A.card_id)
    )
    with store.engine.connect() as conn:
        return {card: int(count) for card, count in conn.execute(query)}


def review_queue(
    store: Store, content: Content, scope: Scope, rulesets: Iterable[str] | None = None,
    rules: QueueRules = QueueRules(),
    stats: pd.DataFrame | None = None, pairs: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The cards queued by the answers and reports of ``scope``'s trainees (``QUEUE_COLUMNS``),
    most suspicious first (ties by card id).

    ``reasons`` lists the signals (``REASONS``) that put each card in the queue. ``stats``
    (``item_statistics``) and ``pairs`` (``answer_pairs``) of the same scope and games, when the
    caller has them, are not computed again.
    """
    games = None if rulesets is None else list(rulesets)
    pairs = answer_pairs(store, scope, games) if pairs is None else pairs
    stats = item_statistics(store, scope, games, pairs=pairs) if stats is None else stats
    frame = stats.merge(strong_wrong_answers(store, scope, games, rules, pairs), on="card_id", how="left")
    frame["strong_answers"] = frame["strong_answers"].fillna(0).astype("int64")
    frame["strong_wrong_count"] = frame["strong_wrong_count"].fillna(0).astype("int64")
    frame["strong_agreement"] = (frame["strong_wrong_count"] / frame["strong_answers"]).where(
        frame["strong_answers"] > 0, 0.0)
    regraded = regraded_counts(store, scope)
    frame["regraded"] = frame["card_id"].map(regraded).fillna(0).astype("int64")
    scored = [_suspicion(row, rules) for row in frame.itertuples(index=False)]
    frame["suspicion"] = [score for score, _ in scored]
    frame["reasons"] = [reasons for _, reasons in scored]
    frame = frame[frame["suspicion"] > 0]
    frame = _with_sources(frame, content)
    frame = frame.sort_values(["suspicion", "card_id"], ascending=[False, True], ignore_index=True)
    return frame[QUEUE_COLUMNS]


def _suspicion(row: Any, rules: QueueRules) -> tuple[float, tuple[str, ...]]:
    """The card's suspicion and the signals behind it."""
    score, reasons = 0.0, []
    if row.open_reports > 0:
        score += REPORT_WEIGHT * row.open_reports
        reasons.append("reports")
    discrimination = row.discrimination
    if row.answers >= rules.min_answers and pd.notna(discrimination) and discrimination < rules.near_zero:
        score += DISCRIMINATION_WEIGHT * (rules.near_zero - discrimination)
        reasons.append("discrimination")
    agreement = row.strong_agreement
    if row.strong_answers >= rules.min_strong_answers and agreement >= rules.agreement:
        score += AGREEMENT_WEIGHT * agreement
        reasons.append("agreement")
    if row.regraded > 0:
        score += REGRADE_WEIGHT
        reasons.append("regraded")
    return round(score, 6), tuple(reasons)


def _with_sources(frame: pd.DataFrame, content: Content) -> pd.DataFrame:
    """Each card's file, line and document lines (empty for a card no longer in the content)."""
    frame = frame.copy()
    sources = {card_id: card_source(content, content.cards[card_id])
               for card_id in frame["card_id"] if card_id in content.cards}
    frame["file"] = [sources[c].path if c in sources else "" for c in frame["card_id"]]
    frame["line"] = [sources[c].line if c in sources else 0 for c in frame["card_id"]]
    frame["document_lines"] = [sources[c].document_lines if c in sources else () for c in frame["card_id"]]
    frame["retired"] = [bool(content.cards[c].retired) if c in content.cards else False for c in frame["card_id"]]
    return frame


def queue_table(queue: pd.DataFrame, reason_names: dict[str, str]) -> pd.DataFrame:
    """The queue as text and numbers to show or export: reasons named, the place as
    ``file:line``, document lines as a list, figures rounded."""
    return pd.DataFrame({
        "card_id": queue["card_id"],
        "suspicion": queue["suspicion"].round(2),
        "reasons": [", ".join(reason_names.get(r, r) for r in reasons) for reasons in queue["reasons"]],
        "open_reports": queue["open_reports"],
        "answers": queue["answers"],
        "difficulty": queue["difficulty"].round(3),
        "discrimination": queue["discrimination"].round(3),
        "median_seconds": queue["median_seconds"].round(1),
        "strong_wrong": [f"{part}: {value}" if isinstance(part, str) else ""
                         for part, value in zip(queue["strong_wrong_part"], queue["strong_wrong"])],
        "strong_agreement": queue["strong_agreement"].round(3),
        "regraded": queue["regraded"],
        "place": [f"{f}:{line}" if line else f for f, line in zip(queue["file"], queue["line"])],
        "document_lines": [", ".join(map(str, lines)) for lines in queue["document_lines"]],
    })
