"""The test oracle of ``quiz.report.statistics``: the same figures computed with pandas from
the raw attempts (``Store.attempts``), an independent path the tests hold the SQL equal to.

Each function never raises on an empty frame: it returns empty results instead. Days are
calendar days in the time zone ``tz``.
"""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from quiz.model.attempt import RIGHT_RESULTS
from quiz.report.statistics import (  # noqa: E402 - the shapes the app's statistics return
    MISTAKE_COLUMNS,
    PARTS,
    TALLY_COLUMNS,
    Leniency,
    Streak,
    Summary,
    with_rolling_7d,
)


def daily_accuracy(df: pd.DataFrame, tz: str = "UTC") -> pd.DataFrame:
    """Per day with answers: ``date, answered, correct, accuracy, rolling_7d``.

    ``date`` is the local day at midnight (naive datetime64); ``rolling_7d`` is the
    correct/answered ratio of the sums over the seven calendar days ending that day.
    """
    return with_rolling_7d(_tally(df["correct"], _days(df, tz).rename("date")))


def accuracy_by_part(df: pd.DataFrame) -> pd.DataFrame:
    """``part, answered, correct, accuracy`` for infraction, penalty and fix, in that order.

    Parts without any graded answer are left out; "accepted" counts as correct.
    """
    results = df[list(PARTS.values())].rename(columns={c: p for p, c in PARTS.items()})
    long = results.melt(var_name="part", value_name="result").dropna(subset=["result"])
    tally = _tally(long["result"].isin(RIGHT_RESULTS), long["part"])
    return tally.reindex([p for p in PARTS if p in tally.index]).reset_index()


def accuracy_by(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """``column, answered, correct, accuracy`` of whole answers, weakest first."""
    rows = df[df[column].notna()]
    tally = _tally(rows["correct"], rows[column]).reset_index()
    return tally.sort_values(["accuracy", column], kind="stable", ignore_index=True)


def penalty_confusion(df: pd.DataFrame) -> pd.DataFrame:
    """``standard_penalty, chosen_penalty, count`` over scenario attempts."""
    keys = ["standard_penalty", "chosen_penalty"]
    rows = df[(df["card_kind"] == "scenario") & df[keys].notna().all(axis=1)]
    return rows.groupby(keys).size().rename("count").reset_index()


def leniency(df: pd.DataFrame) -> Leniency:
    """Among attempts with a wrong penalty: the sign and size of the error in ladder steps.

    ``errors`` counts every wrong penalty; the rest only those with ``penalty_steps``.
    """
    wrong = df[df["penalty_result"] == "wrong"]
    steps = pd.to_numeric(wrong["penalty_steps"], errors="coerce").dropna().astype("int64")
    by_steps = steps.value_counts().sort_index().rename_axis("steps").reset_index(name="count")
    return Leniency(
        errors=len(wrong),
        too_lenient=int((steps < 0).sum()),
        too_harsh=int((steps > 0).sum()),
        mean_steps=float(steps.mean()) if len(steps) else 0.0,
        by_steps=by_steps,
    )


def practice_streak(df: pd.DataFrame, today: date, tz: str = "UTC") -> Streak:
    """The current run of practice days (to today, or to yesterday if none yet today), and the longest."""
    days = np.unique(_days(df, tz).to_numpy().astype("datetime64[D]").astype("int64"))
    if len(days) == 0:
        return Streak(current=0, longest=0)
    runs = np.cumsum(np.diff(days, prepend=days[0] - 2) != 1)
    longest = int(np.bincount(runs).max())
    today_number = int(np.datetime64(today, "D").astype("int64"))
    ends = [d for d in (today_number, today_number - 1) if d in days]
    if not ends:
        return Streak(current=0, longest=longest)
    end = ends[0]
    first = days[runs == runs[days == end][0]][0]
    return Streak(current=int(end - first + 1), longest=longest)


def recent_mistakes(df: pd.DataFrame, limit: int = 20) -> pd.DataFrame:
    """Cards whose latest attempt was wrong, one row each, most recent first."""
    latest = df.sort_values("answered_at", kind="stable").drop_duplicates("card_id", keep="last")
    wrong = latest[~latest["correct"].astype(bool)]
    newest_first = wrong.sort_values("answered_at", ascending=False, kind="stable")
    return newest_first.head(limit)[MISTAKE_COLUMNS].reset_index(drop=True)


def summary(df: pd.DataFrame, tz: str = "UTC") -> Summary:
    """How many answers, how many right, the ratio (0.0 with none) and the days active."""
    answered = len(df)
    correct = int(df["correct"].astype(bool).sum())
    return Summary(
        answered=answered,
        correct=correct,
        accuracy=correct / answered if answered else 0.0,
        days_active=int(_days(df, tz).nunique()),
    )


def _days(df: pd.DataFrame, tz: str) -> pd.Series:
    """The calendar day in ``tz`` of each answer, as a naive midnight timestamp."""
    local = pd.to_datetime(df["answered_at"], utc=True).dt.tz_convert(tz)
    return local.dt.tz_localize(None).dt.normalize()


def _tally(right: pd.Series, keys: pd.Series) -> pd.DataFrame:
    """``answered, correct, accuracy`` of ``right`` (booleans) per group of ``keys``."""
    grouped = right.astype(bool).groupby(keys)
    tally = pd.DataFrame({"answered": grouped.size(), "correct": grouped.sum().astype("int64")})
    tally["accuracy"] = tally["correct"] / tally["answered"]
    return tally[TALLY_COLUMNS]
