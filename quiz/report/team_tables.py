"""The supervisor's tables as shown and exported: names instead of ids, percentages, CSV."""

from __future__ import annotations

import math
from typing import Any, Iterable

import pandas as pd

from quiz.content.loader import Content
from quiz.model.local_time import local_texts
from quiz.report.card_words import choice_words
from quiz.report.team_findings import TeamFindings, weakest_findings
from quiz.rules.variants import list_title

FINDINGS_TABLE = ["findings_accuracy", "misjudged", "misapplied"]  # blank without answers to cards with findings
OVERVIEW_TABLE = ["trainee", "answered", "accuracy_recent", "answered_recent", "accuracy",
                  "exams_passed", "weakest", "last_active", *FINDINGS_TABLE]
CARD_TABLE = ["card", "card_id", "game", "answered", "accuracy", "wrong_infraction", "wrong_penalty", "wrong_choice",
              "weakest_finding", *FINDINGS_TABLE]


def percent(ratio: float | None) -> float | None:
    """A ratio as a percentage with one decimal; None stays None (and NaN becomes None)."""
    if ratio is None or (isinstance(ratio, float) and math.isnan(ratio)):
        return None
    return round(float(ratio) * 100, 1)


def findings_columns(keys: Iterable[Any], by: pd.DataFrame | None, key: str) -> dict[str, Any]:
    """``FINDINGS_TABLE`` of each of ``keys`` from ``finding_statistics.findings_by`` (by ``key``): the
    share of findings right (%) and the wrong penalties by cause; blank (None) for a key
    without answers to cards with findings."""
    rows = {} if by is None else {row[key]: row for row in by.to_dict("records")}
    found = [rows.get(value) for value in keys]
    return {
        "findings_accuracy": [None if row is None else percent(row["accuracy"]) for row in found],
        **{cause: pd.array([None if row is None else int(row[cause]) for row in found], dtype="Int64")
           for cause in ("misjudged", "misapplied")},
    }


def overview_table(overview: pd.DataFrame, categories: dict[str, str], zone: str,
                   findings: TeamFindings | None = None) -> pd.DataFrame:
    """``team.team_overview`` as shown: percentages, weakest categories by name, the last
    answer's time read in ``zone`` (the supervisor's), and each trainee's ``findings``."""
    ids = overview["trainee_id"] if findings is not None else [None] * len(overview)
    table = pd.DataFrame({
        "trainee": overview["trainee"].astype(object),
        "answered": overview["answered"],
        "accuracy_recent": [percent(r) for r in overview["accuracy_recent"]],
        "answered_recent": overview["answered_recent"],
        "accuracy": [percent(r) for r in overview["accuracy"]],
        "exams_passed": overview["exams_passed"],
        "weakest": [", ".join(categories.get(key, key) for key in keys) for keys in overview["weakest"]],
        "last_active": local_texts(overview["last_active"], zone),
        **findings_columns(ids, None if findings is None else findings.by_trainee, "trainee_id"),
    })
    return table[OVERVIEW_TABLE]


def card_table(stats: pd.DataFrame, content: Content, language: str,
               findings: TeamFindings | None = None) -> pd.DataFrame:
    """``team.card_statistics`` as shown: titles, game names, "name (count)" for wrong answers,
    and each card's ``findings`` with the fact found wrong most often."""
    weakest = {} if findings is None else weakest_findings(findings.card_facts, content, language)
    rows = []
    for row in stats.itertuples(index=False):
        rows.append({
            "card": _title(content, row.card_id, language),
            "card_id": row.card_id,
            "game": _game(content, row.ruleset, language),
            "answered": row.answered,
            "accuracy": percent(row.accuracy),
            "wrong_infraction": _counted(_infraction_name(content, row.ruleset, row.wrong_infraction, language),
                                         row.wrong_infraction_count),
            "wrong_penalty": _counted(_penalty_name(content, row.ruleset, row.wrong_penalty, language),
                                      row.wrong_penalty_count),
            "wrong_choice": _counted(_choice_text(content, row.card_id, row.wrong_choice, language),
                                     row.wrong_choice_count),
            "weakest_finding": weakest.get(row.card_id, ""),
        })
    table = pd.DataFrame.from_records(rows, columns=CARD_TABLE[:-len(FINDINGS_TABLE)])
    by_card = None if findings is None else findings.by_card
    return table.assign(**findings_columns(table["card_id"], by_card, "card_id"))[CARD_TABLE]


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA


def _counted(name: str | None, count: int) -> str:
    return "" if name is None or not count else f"{name} ({count})"


def _title(content: Content, card_id: str, language: str) -> str:
    card = content.cards.get(card_id)
    return list_title(card).get(language) if card is not None else card_id


def _game(content: Content, ruleset_id: str, language: str) -> str:
    ruleset = content.rulesets.get(ruleset_id)
    return ruleset.document.short_name.get(language) if ruleset is not None else ruleset_id


def _infraction_name(content: Content, ruleset_id: str, infraction_id: object, language: str) -> str | None:
    return _named(content, ruleset_id, infraction_id, language, "infraction")


def _penalty_name(content: Content, ruleset_id: str, penalty_id: object, language: str) -> str | None:
    return _named(content, ruleset_id, penalty_id, language, "penalty")


def _named(content: Content, ruleset_id: str, item_id: object, language: str, kind: str) -> str | None:
    """The name of a ruleset's infraction or penalty (``kind``); the id when unknown, None when missing."""
    if _missing(item_id):
        return None
    ruleset = content.rulesets.get(ruleset_id)
    item = getattr(ruleset, kind)(str(item_id)) if ruleset is not None else None
    return item.name.get(language) if item is not None else str(item_id)


def _choice_text(content: Content, card_id: str, choice_id: object, language: str) -> str | None:
    if _missing(choice_id):
        return None
    return choice_words(content, card_id, choice_id, language) or str(choice_id)
