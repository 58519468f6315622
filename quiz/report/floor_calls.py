"""Floor calls' figures: the investigation beside the ruling, for one trainee (Progress) and
across a supervisor's trainees (Team), with their charts and tables.

Read from ``quiz.report.statistics`` (the one statistics path): of each answer to a floor
call, its findings' evidence gathered or missed (a finding right with its evidence missed is
a right guess), the leading questions asked, the round time used against the budget, and the
accuracy of floor calls against scenario cards. The words are ``floor_stats.*``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import pandas as pd

from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.report import charts
from quiz.report import floor_call_statistics as floor_sql
from quiz.report import statistics as stats_sql
from quiz.report.progress_findings import Spec
from quiz.rules.variants import list_title

EVIDENCE = ("gathered", "right_guess", "missed")  # a finding's evidence: gathered; missed, right or wrong
TRAINEE_TABLE = ["trainee", "answered", "accuracy", "scenario_accuracy", "gathered_share", "right_guesses",
                 "leading_per_call", "mean_seconds", "mean_budget", "over_budget_share"]
MISSED_TABLE = ["card", "card_id", "answered", "findings", "missed", "missed_share"]


@dataclass(frozen=True)
class FloorCallFigures:
    """One trainee's floor calls: every answer together, and the accuracy of floor calls and of
    scenario cards (``floor_call_statistics.accuracy_by_kind``)."""

    split: floor_sql.FloorCallSplit
    kinds: pd.DataFrame


def floor_call_figures(store: Store, scope: stats_sql.AnswerScope) -> FloorCallFigures:
    return FloorCallFigures(floor_sql.floor_call_split(store, scope), floor_sql.accuracy_by_kind(store, scope))


def floor_call_labels(language: str) -> dict[str, str]:
    """The words of the floor calls' charts in ``language``."""
    names = ("accuracy", "answered", "findings", *EVIDENCE, "floor_call", "scenario")
    return {name: t(f"floor_stats.chart_{name}", language) for name in names}


def evidence_data(rows: pd.DataFrame, column: str, names: Mapping[Any, str]) -> pd.DataFrame:
    """``column, evidence, count`` of each row of ``floor_call_statistics.floor_calls_by`` (or a one-row
    frame of a ``FloorCallSplit``'s counts) with findings: gathered, missed but right (a right
    guess), missed and wrong; each row named by ``names`` (its key when missing)."""
    data = []
    for row in rows.to_dict("records"):
        if not row["findings"]:
            continue
        name = names.get(row[column], str(row[column]))
        missed_wrong = row["findings"] - row["gathered"] - row["right_guesses"]
        data += [(name, "gathered", int(row["gathered"])), (name, "right_guess", int(row["right_guesses"])),
                 (name, "missed", int(missed_wrong))]
    return pd.DataFrame(data, columns=[column, "evidence", "count"])


def evidence_chart(data: pd.DataFrame, column: str, labels: dict[str, str]) -> Spec | None:
    """``evidence_data`` as one bar per row stacked by evidence; None without findings."""
    if data.empty:
        return None
    named = data.assign(evidence=data["evidence"].map(lambda e: labels[e]))
    return charts.evidence_bars(named, column, [labels[e] for e in EVIDENCE], labels).to_dict()


def kinds_chart(kinds: pd.DataFrame, labels: dict[str, str]) -> Spec | None:
    """Floor calls' accuracy against scenario cards' (``floor_call_statistics.accuracy_by_kind``); None
    without answers."""
    if kinds.empty:
        return None
    named = kinds.assign(card_kind=kinds["card_kind"].map(lambda kind: labels.get(kind, kind)))
    return charts.accuracy_bars(named, "card_kind", "", labels).to_dict()


def progress_floor_charts(figures: FloorCallFigures, language: str) -> dict[str, Spec | None]:
    """``evidence``: the findings of the trainee's floor calls by evidence; ``kinds``: floor
    calls against scenario cards. None where there is nothing to draw."""
    labels = floor_call_labels(language)
    split = figures.split
    counts = pd.DataFrame([{"who": labels["findings"], "findings": split.findings, "gathered": split.gathered,
                            "right_guesses": split.right_guesses}])
    return {"evidence": evidence_chart(evidence_data(counts, "who", {}), "who", labels),
            "kinds": kinds_chart(figures.kinds, labels)}


# Team


@dataclass(frozen=True)
class TeamFloorCalls:
    """``floor_call_statistics.floor_calls_by`` per trainee and per card, and ``accuracy_by_kind`` per
    trainee, over a supervisor's trainees."""

    by_trainee: pd.DataFrame
    by_card: pd.DataFrame
    kinds: pd.DataFrame

    @property
    def answered(self) -> bool:
        return not self.by_trainee.empty


def team_floor_calls(store: Store, scope: Scope, rulesets: Iterable[str] | None = None) -> TeamFloorCalls:
    """The floor calls of ``scope``'s trainees in ``rulesets`` (every game when None)."""
    answers = stats_sql.AnswerScope(rulesets=None if rulesets is None else tuple(rulesets), seen_by=scope)
    return TeamFloorCalls(
        by_trainee=floor_sql.floor_calls_by(store, answers, "trainee_id"),
        by_card=floor_sql.floor_calls_by(store, answers, "card_id"),
        kinds=floor_sql.accuracy_by_kind(store, answers, "trainee_id"),
    )


def trainee_floor_table(team: TeamFloorCalls, names: Mapping[int, str]) -> pd.DataFrame:
    """One row per trainee with answers to floor calls (``TRAINEE_TABLE``), by name: the calls
    answered and ruled right (%), their scenario cards right (%, blank without any), the
    findings with their evidence gathered (%), the right guesses, the leading questions per
    call, the mean seconds used and allowed, and the calls over their budget (%)."""
    scenario = team.kinds[team.kinds["card_kind"] == "scenario"].set_index("trainee_id")["accuracy"]
    rows = [{
        "trainee": names.get(row["trainee_id"], str(row["trainee_id"])),
        "answered": int(row["answered"]),
        "accuracy": percent(row["accuracy"]),
        "scenario_accuracy": percent(scenario.get(row["trainee_id"])),
        "gathered_share": percent(row["gathered_share"]),
        "right_guesses": int(row["right_guesses"]),
        "leading_per_call": round(float(row["leading_per_call"]), 2),
        "mean_seconds": round(float(row["mean_seconds"])),
        "mean_budget": round(float(row["mean_budget"])),
        "over_budget_share": percent(row["over_budget_share"]),
    } for row in team.by_trainee.to_dict("records")]
    table = pd.DataFrame.from_records(rows, columns=TRAINEE_TABLE)
    return table.sort_values("trainee", kind="stable", ignore_index=True)


def most_missed(by_card: pd.DataFrame, content: Content, language: str) -> pd.DataFrame:
    """The calls whose evidence is most often missed (``MISSED_TABLE``): each card with findings
    answered, by its title, its answers, findings and those whose evidence was missed, and
    their share (%); the largest share first, then more findings, then the card id."""
    rows = by_card[by_card["findings"] > 0]
    missed = rows["findings"] - rows["gathered"]
    table = pd.DataFrame({
        "card": [_title(content, card_id, language) for card_id in rows["card_id"]],
        "card_id": rows["card_id"].astype(object),
        "answered": rows["answered"].astype("int64"),
        "findings": rows["findings"].astype("int64"),
        "missed": missed.astype("int64"),
        "share": missed / rows["findings"],
    }, columns=[*MISSED_TABLE[:-1], "share"])
    table = table.sort_values(["share", "findings", "card_id"], ascending=[False, False, True], kind="stable")
    table["missed_share"] = [percent(share) for share in table.pop("share")]
    return table[MISSED_TABLE].reset_index(drop=True)


def team_floor_charts(team: TeamFloorCalls, names: Mapping[int, str], language: str) -> dict[str, Spec | None]:
    """``evidence``: each trainee's findings on floor calls by evidence; None without any."""
    labels = floor_call_labels(language)
    named = {key: names.get(key, str(key)) for key in team.by_trainee["trainee_id"]}
    return {"evidence": evidence_chart(evidence_data(team.by_trainee, "trainee_id", named), "trainee_id", labels)}


def percent(ratio: float | None) -> float | None:
    """A ratio as a percentage with one decimal, as the Team page's other tables show one
    (``team_tables.percent``, not imported: it reads the progress charts, which read this);
    None and NaN are None."""
    if ratio is None or (isinstance(ratio, float) and math.isnan(ratio)):
        return None
    return round(float(ratio) * 100, 1)


def _title(content: Content, card_id: str, language: str) -> str:
    card = content.cards.get(card_id)
    return list_title(card).get(language) if card is not None else card_id
