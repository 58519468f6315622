"""Findings as charts: the accuracy of each fact, and wrong penalties told apart (misjudged
the facts, or misapplied the document), for one trainee or the team.

The figures come from ``quiz.report.statistics``; a fact is named by its ruleset's ``name``
in the reader's language (its id when the content no longer has it).
"""

from __future__ import annotations

from typing import Any, Mapping

import pandas as pd

from quiz.content.loader import Content
from quiz.report import charts
from quiz.report.finding_statistics import FindingsSplit

CAUSES = ("misjudged", "misapplied")  # the columns of ``finding_statistics.findings_by``, and their chart labels
Spec = dict[str, Any]


def fact_name(content: Content, ruleset_id: str, fact_id: str, language: str) -> str:
    """The fact's name in its ruleset, in ``language``; the id for a fact (or game) not known."""
    ruleset = content.rulesets.get(ruleset_id)
    spec = next((fact for fact in ruleset.facts if fact.id == fact_id), None) if ruleset is not None else None
    return spec.name.get(language) if spec is not None else fact_id


def fact_labels(facts: pd.DataFrame, content: Content, language: str) -> list[str]:
    """Each row's fact (``ruleset``, ``fact``) named; ``Game › Fact`` when the rows hold more
    than one game (the same id names another fact in another game)."""
    several = facts["ruleset"].nunique() > 1
    labels = []
    for ruleset_id, fact_id in zip(facts["ruleset"], facts["fact"]):
        name = fact_name(content, ruleset_id, fact_id, language)
        ruleset = content.rulesets.get(ruleset_id)
        game = ruleset.document.short_name.get(language) if ruleset is not None else ruleset_id
        labels.append(f"{game} › {name}" if several else name)
    return labels


def fact_accuracy_chart(facts: pd.DataFrame, content: Content, language: str, labels: dict[str, str]) -> Spec | None:
    """``finding_statistics.finding_accuracy`` as accuracy bars, one per fact; None without findings."""
    if facts.empty:
        return None
    named = facts.assign(fact=fact_labels(facts, content, language))
    return charts.accuracy_bars(named, "fact", "", labels).to_dict()


def split_chart(split: FindingsSplit, labels: dict[str, str]) -> Spec | None:
    """One bar per cause of the wrong penalties on cards with findings; None without any."""
    if not split.wrong_penalties:
        return None
    causes = [labels[cause] for cause in CAUSES]
    data = pd.DataFrame({"cause": causes, "count": [split.misjudged, split.misapplied]})
    return charts.cause_bars(data, "cause", causes, labels).to_dict()


def split_by_chart(by: pd.DataFrame, column: str, names: Mapping[Any, str], labels: dict[str, str]) -> Spec | None:
    """``finding_statistics.findings_by`` (by ``column``) as one bar per row with wrong penalties, each
    named by ``names`` (its key when missing) and stacked by cause; None without any."""
    wrong = by[(by["misjudged"] + by["misapplied"]) > 0]
    if wrong.empty:
        return None
    causes = {cause: labels[cause] for cause in CAUSES}
    data = wrong.melt(id_vars=[column], value_vars=list(CAUSES), var_name="cause", value_name="count")
    data = data.assign(**{column: [names.get(key, str(key)) for key in data[column]]},
                       cause=data["cause"].map(causes))
    return charts.cause_bars(data, column, list(causes.values()), labels).to_dict()
