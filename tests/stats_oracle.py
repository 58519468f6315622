"""The test oracle of ``quiz.report.statistics``: the same figures computed with pandas (the
findings' tallies with plain dicts) from the raw attempts (``Store.attempts``), an
independent path the tests hold the SQL equal to.

Each function never raises on an empty frame: it returns empty results instead. Days are
calendar days in the time zone ``tz``.
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from datetime import date
from typing import Any

import numpy as np
import pandas as pd

from quiz.model.attempt import RIGHT_RESULTS
from quiz.model.investigation import InvestigationRecord
from quiz.report.finding_statistics import FINDINGS_COLUMNS, FindingsSplit
from quiz.report.floor_call_statistics import FLOOR_CALL_COLUMNS, FLOOR_CALL_COUNTS, FloorCallSplit
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


# Findings (``AttemptRecord.findings`` and ``penalty_follows_findings``)


def _findings_of(value: Any) -> list[dict[str, Any]]:
    """An attempt's findings as dicts, whatever the frame holds: None, a JSON list, a tuple of
    ``FindingRecord`` or of their dicts."""
    if not isinstance(value, (list, tuple)):
        return []
    return [asdict(item) if is_dataclass(item) and not isinstance(item, type) else dict(item) for item in value]


def finding_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
    """One dict per finding: the attempt's ``id`` (its position when the frame has none),
    ``trainee_id, card_id, ruleset, follows, fact, right``. Counted in plain Python below, not
    with pandas group-bys: the generated-histories test asks for two dozen tallies of each
    history, and a pandas group-by costs milliseconds where a dict costs microseconds."""
    ids = df["id"].tolist() if "id" in df.columns else range(len(df))
    columns = (df[name].tolist() for name in ("trainee_id", "card_id", "ruleset", "penalty_follows_findings", "findings"))
    return [
        {"id": id_, "trainee_id": trainee_id, "card_id": card_id, "ruleset": ruleset, "follows": follows,
         "fact": finding["fact"], "right": bool(finding["right"])}
        for id_, trainee_id, card_id, ruleset, follows, findings in zip(ids, *columns)
        for finding in _findings_of(findings)
    ]


def finding_accuracy(df: pd.DataFrame, by: tuple[str, ...] = ("ruleset",)) -> pd.DataFrame:
    """``*by, fact, answered, correct, accuracy``: the findings of each fact, weakest first."""
    keys = [*by, "fact"]
    tally: dict[tuple[Any, ...], list[int]] = {}
    for row in finding_rows(df):
        counts = tally.setdefault(tuple(row[key] for key in keys), [0, 0])
        counts[0] += 1
        counts[1] += row["right"]
    frame = pd.DataFrame([(*group, answered, correct, correct / answered) for group, (answered, correct) in tally.items()],
                         columns=[*keys, *TALLY_COLUMNS])
    return frame.sort_values(["accuracy", *keys], kind="stable", ignore_index=True)


def findings_by(df: pd.DataFrame, key: str | None) -> pd.DataFrame:
    """``key, answered, findings, right, accuracy, misjudged, misapplied`` per value of ``key``
    with answers to cards with findings (one row of totals when ``key`` is None): the
    answers, their findings and those right, and the wrong penalties that follow from the
    trainee's findings (misjudged) or not (misapplied)."""
    answers: dict[Any, dict[str, Any]] = {}
    for row in finding_rows(df):
        answer = answers.setdefault(row["id"], {**row, "findings": 0, "right": 0})
        answer["findings"] += 1
        answer["right"] += row["right"]
    counts = ["answered", "findings", "right", "misjudged", "misapplied"]
    groups: dict[Any, list[int]] = {0: [0] * len(counts)} if key is None else {}
    for answer in answers.values():
        group = 0 if key is None else answer[key]
        if pd.isna(group):
            continue  # as a pandas group-by: no group for a missing key
        totals = groups.setdefault(group, [0] * len(counts))
        for n, value in enumerate((1, answer["findings"], answer["right"],
                                   _is(answer["follows"], True), _is(answer["follows"], False))):
            totals[n] += value
    frame = pd.DataFrame([(group, *totals) for group, totals in sorted(groups.items())], columns=["key", *counts])
    frame[counts] = frame[counts].astype("int64")
    frame["accuracy"] = (frame["right"] / frame["findings"]).where(frame["findings"] > 0)
    return frame.rename(columns={"key": key})[[*([] if key is None else [key]), *FINDINGS_COLUMNS]]


def _is(value: Any, wanted: bool) -> bool:
    """A stored true/false (None, NaN or NA: neither)."""
    return value is not None and not pd.isna(value) and bool(value) is wanted


def findings_split(df: pd.DataFrame) -> FindingsSplit:
    """``findings_by`` without a key, as the app's ``FindingsSplit``."""
    row = findings_by(df, None).iloc[0]
    return FindingsSplit(*(int(row[name]) for name in ("answered", "findings", "right", "misjudged", "misapplied")))


# Item statistics (``quiz.report.item_statistics``)


def item_statistics(df: pd.DataFrame, open_reports: dict[str, int] | None = None) -> pd.DataFrame:
    """Per card: answers, correct, difficulty, the point-biserial r of each answer's being right
    against its trainee's accuracy on every other card (answers without one left out), the
    median seconds and the open reports."""
    right = df["correct"].astype(bool).astype(int)
    per_trainee = right.groupby(df["trainee_id"]).agg(["size", "sum"])
    per_pair = right.groupby([df["trainee_id"], df["card_id"]]).agg(["size", "sum"])
    rest_n = df["trainee_id"].map(per_trainee["size"]).to_numpy() - [
        per_pair.loc[(t, c), "size"] for t, c in zip(df["trainee_id"], df["card_id"])]
    rest_c = df["trainee_id"].map(per_trainee["sum"]).to_numpy() - [
        per_pair.loc[(t, c), "sum"] for t, c in zip(df["trainee_id"], df["card_id"])]
    answers = pd.DataFrame({"card_id": df["card_id"].to_numpy(), "x": right.to_numpy(),
                            "rest_n": rest_n, "rest_c": rest_c})
    answers = answers[answers["rest_n"] > 0]
    answers["y"] = answers["rest_c"] / answers["rest_n"]

    def r(group: pd.DataFrame) -> float:
        if len(group) < 2 or group["x"].nunique() < 2 or group["y"].nunique() < 2:
            return float("nan")
        return float(np.corrcoef(group["x"], group["y"])[0, 1])

    grouped = df.groupby("card_id")
    frame = pd.DataFrame({
        "ruleset": grouped["ruleset"].first(),
        "answers": grouped.size(),
        "correct": right.groupby(df["card_id"]).sum(),
        "median_seconds": grouped["seconds"].median(),
    })
    frame["difficulty"] = frame["correct"] / frame["answers"]
    frame["discrimination"] = pd.Series({card: r(group) for card, group in answers.groupby("card_id")})
    frame["open_reports"] = pd.Series(open_reports or {}, dtype="int64").reindex(frame.index).fillna(0).astype("int64")
    frame = frame.rename_axis("card_id").reset_index()
    columns = ["card_id", "ruleset", "answers", "correct", "difficulty", "discrimination", "median_seconds",
               "open_reports"]
    return frame[columns].sort_values("card_id", ignore_index=True)


def distractors(df: pd.DataFrame) -> pd.DataFrame:
    """Per card and part (infraction, penalty, fixes on scenario cards; choice on the others):
    each chosen value, how many chose it and how many of those were wrong on that part."""
    parts = []
    scenario = df[df["card_kind"] == "scenario"]
    for part, chosen, result in (("infraction", "chosen_infraction", "infraction_result"),
                                 ("penalty", "chosen_penalty", "penalty_result"),
                                 ("fixes", "chosen_fixes", "fixes_result")):
        rows = scenario[scenario[chosen].notna()]
        values = rows[chosen].map(lambda v: ",".join(v) if isinstance(v, tuple) else v)
        parts.append(pd.DataFrame({"card_id": rows["card_id"], "part": part, "chosen": values,
                                   "wrong": (rows[result] == "wrong").astype(int)}))
    others = df[(df["card_kind"] != "scenario") & df["chosen_choice"].notna()]
    parts.append(pd.DataFrame({"card_id": others["card_id"], "part": "choice", "chosen": others["chosen_choice"],
                               "wrong": (~others["correct"].astype(bool)).astype(int)}))
    long = pd.concat(parts, ignore_index=True)
    table = long.groupby(["card_id", "part", "chosen"]).agg(count=("wrong", "size"), wrong=("wrong", "sum"))
    return table.reset_index()[["card_id", "part", "chosen", "count", "wrong"]]


# Floor calls (``AttemptRecord.investigation``)


def _investigation_of(value: Any) -> dict[str, Any] | None:
    """An attempt's investigation as its stored JSON, whatever the frame holds: None, the JSON
    object, or an ``InvestigationRecord``."""
    if isinstance(value, InvestigationRecord):
        return value.stored()
    return value if isinstance(value, dict) else None


def floor_call_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
    """One dict per answer to a floor call stored with its investigation: ``trainee_id, card_id,
    ruleset, correct, findings, gathered, right_guesses, leading, seconds, budget_seconds,
    over_budget``, read in plain Python from the JSON of the investigation and the findings."""
    ids = df["id"].tolist() if "id" in df.columns else range(len(df))
    columns = (df[name].tolist() for name in ("trainee_id", "card_id", "ruleset", "card_kind", "correct",
                                              "findings", "investigation"))
    rows = []
    for _id, trainee_id, card_id, ruleset, kind, correct, findings, stored in zip(ids, *columns):
        investigation = _investigation_of(stored)
        if kind != "floor_call" or investigation is None:
            continue
        right = {finding["fact"]: bool(finding["right"]) for finding in _findings_of(findings)}
        evidence = [(fact, found == "gathered") for fact, found in investigation.get("evidence") or ()]
        seconds, budget = int(investigation.get("seconds") or 0), int(investigation.get("budget_seconds") or 0)
        rows.append({
            "trainee_id": trainee_id, "card_id": card_id, "ruleset": ruleset, "correct": int(bool(correct)),
            "findings": len(evidence), "gathered": sum(gathered for _, gathered in evidence),
            "right_guesses": sum(not gathered and right.get(fact, False) for fact, gathered in evidence),
            "leading": len(investigation.get("leading") or ()), "seconds": seconds, "budget_seconds": budget,
            "over_budget": int(seconds > budget),
        })
    return rows


def floor_calls_by(df: pd.DataFrame, key: str | None) -> pd.DataFrame:
    """``key, *FLOOR_CALL_COLUMNS`` per value of ``key`` with answers to floor calls (one row of
    totals, zeros without any, when ``key`` is None)."""
    counts = [name for name in FLOOR_CALL_COUNTS if name != "answered"]
    groups: dict[Any, list[int]] = {0: [0] * len(FLOOR_CALL_COUNTS)} if key is None else {}
    for row in floor_call_rows(df):
        totals = groups.setdefault(0 if key is None else row[key], [0] * len(FLOOR_CALL_COUNTS))
        for n, value in enumerate((1, *(row[name] for name in counts))):
            totals[n] += value
    frame = pd.DataFrame([(group, *totals) for group, totals in sorted(groups.items())],
                         columns=["key", *FLOOR_CALL_COUNTS]).astype({name: "int64" for name in FLOOR_CALL_COUNTS})
    answered = frame["answered"].where(frame["answered"] > 0)
    frame["accuracy"] = frame["correct"] / answered
    frame["gathered_share"] = frame["gathered"] / frame["findings"].where(frame["findings"] > 0)
    frame["leading_per_call"] = frame["leading"] / answered
    frame["mean_seconds"] = frame["seconds"] / answered
    frame["mean_budget"] = frame["budget_seconds"] / answered
    frame["over_budget_share"] = frame["over_budget"] / answered
    return frame.rename(columns={"key": key})[[*([] if key is None else [key]), *FLOOR_CALL_COLUMNS]]


def floor_call_split(df: pd.DataFrame) -> FloorCallSplit:
    """Every answer to a floor call together, as the app's ``FloorCallSplit``."""
    rows = floor_call_rows(df)
    return FloorCallSplit(len(rows), *(sum(row[name] for row in rows) for name in FLOOR_CALL_COUNTS[1:]))


def accuracy_by_kind(df: pd.DataFrame, key: str | None = None) -> pd.DataFrame:
    """``key, card_kind, answered, correct, accuracy`` of floor calls and scenario cards."""
    rows = df[df["card_kind"].isin(["scenario", "floor_call"])]
    keys = [*([] if key is None else [key]), "card_kind"]
    tally = rows.groupby(keys)["correct"].agg(answered="size", correct=lambda c: int(c.astype(bool).sum()))
    tally = tally.reset_index().astype({"answered": "int64", "correct": "int64"})
    tally["accuracy"] = tally["correct"] / tally["answered"]
    return tally.sort_values(keys, ignore_index=True)[[*keys, *TALLY_COLUMNS]]
