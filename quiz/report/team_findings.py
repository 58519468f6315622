"""The supervisor's figures of findings: per trainee, per card, and per fact across the team.

Read from ``quiz.report.statistics`` (the one statistics path), over the answers of the
trainees a supervisor's scope sees in the chosen games; shown by the Team page beside its tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import pandas as pd

from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.model.scope import Scope
from quiz.report import finding_statistics as finding_sql
from quiz.report import statistics as stats_sql
from quiz.report.progress_charts import chart_labels
from quiz.report.progress_findings import Spec, fact_accuracy_chart, fact_name, split_by_chart


@dataclass(frozen=True)
class TeamFindings:
    """``finding_statistics.findings_by`` per trainee and per card, and ``finding_accuracy`` per fact
    of each game (the whole team) and per card and fact."""

    by_trainee: pd.DataFrame
    by_card: pd.DataFrame
    facts: pd.DataFrame
    card_facts: pd.DataFrame


def team_findings(store: Store, scope: Scope, rulesets: Iterable[str] | None = None) -> TeamFindings:
    """The findings of ``scope``'s trainees in ``rulesets`` (every game when None)."""
    answers = stats_sql.AnswerScope(rulesets=None if rulesets is None else tuple(rulesets), seen_by=scope)
    return TeamFindings(
        by_trainee=finding_sql.findings_by(store, answers, "trainee_id"),
        by_card=finding_sql.findings_by(store, answers, "card_id"),
        facts=finding_sql.finding_accuracy(store, answers),
        card_facts=finding_sql.finding_accuracy(store, answers, ("card_id", "ruleset")),
    )


def weakest_findings(card_facts: pd.DataFrame, content: Content, language: str) -> dict[str, str]:
    """Card id -> its fact found wrong most often, as ``Fact (33%)`` (the share right); cards
    whose every finding was right have none. Ties go to the fact with more findings, then
    to its id."""
    wrong = card_facts[card_facts["correct"] < card_facts["answered"]]
    ranked = wrong.sort_values(["card_id", "accuracy", "answered", "fact"], ascending=[True, True, False, True])
    return {
        row.card_id: f"{fact_name(content, row.ruleset, row.fact, language)} ({row.accuracy:.0%})"
        for row in ranked.drop_duplicates("card_id").itertuples(index=False)
    }


def team_findings_charts(
    findings: TeamFindings, trainee_names: Mapping[int, str], content: Content, language: str,
) -> dict[str, Spec | None]:
    """``by_trainee``: each trainee's wrong penalties on cards with findings by cause;
    ``by_fact``: the team's findings right per fact. None where there is nothing to draw."""
    labels = chart_labels(language)
    return {
        "by_trainee": split_by_chart(findings.by_trainee, "trainee_id", trainee_names, labels),
        "by_fact": fact_accuracy_chart(findings.facts, content, language, labels),
    }
