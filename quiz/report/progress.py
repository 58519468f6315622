"""Shaping a trainee's attempts for the progress page: filtering and display labels."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Iterable

import pandas as pd

from quiz.content.categories import category_key
from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.report import statistics as stats_sql


def attempts_in(attempts: pd.DataFrame, rulesets: Iterable[str]) -> pd.DataFrame:
    """The attempts of the chosen games."""
    return attempts[attempts["ruleset"].isin(list(rulesets))]


def progress_frame(attempts: pd.DataFrame, rulesets: Iterable[str]) -> pd.DataFrame:
    """The attempts of the chosen games, with a ``category_key`` of ``ruleset/category``."""
    frame = attempts_in(attempts, rulesets).copy()
    frame["category_key"] = [category_key(r, c if isinstance(c, str) else None)
                             for r, c in zip(frame["ruleset"], frame["category"])]
    return frame


def penalty_labels(content: Content, language: str) -> dict[str, str]:
    """Penalty id -> name, in ladder order (the first ruleset naming an id wins)."""
    labels: dict[str, str] = {}
    for ruleset in content.rulesets.values():
        for penalty in ruleset.ladder:
            labels.setdefault(penalty.id, penalty.name.get(language))
    return labels


@dataclass(frozen=True)
class ProgressFigures:
    """Everything the progress page shows, aggregated in the database."""

    summary: stats_sql.Summary
    streak: stats_sql.Streak
    daily: pd.DataFrame
    parts: pd.DataFrame
    games: pd.DataFrame
    categories: pd.DataFrame
    confusion: pd.DataFrame
    leniency: stats_sql.Leniency
    mistakes: pd.DataFrame


def progress_figures(
    store: Store, trainee_id: int, rulesets: Iterable[str], today: date, time_zone: str = stats_sql.UTC,
) -> ProgressFigures:
    """A trainee's figures in the chosen games, days counted in ``time_zone`` (``today`` is a
    day of that zone); only aggregated rows leave the database."""
    scope = stats_sql.Scope(trainee_id, tuple(rulesets), time_zone)
    return ProgressFigures(
        summary=stats_sql.summary(store, scope),
        streak=stats_sql.practice_streak(store, scope, today),
        daily=stats_sql.daily_accuracy(store, scope),
        parts=stats_sql.accuracy_by_part(store, scope),
        games=stats_sql.accuracy_by(store, scope, "ruleset"),
        categories=stats_sql.accuracy_by_category(store, scope),
        confusion=stats_sql.penalty_confusion(store, scope),
        leniency=stats_sql.leniency(store, scope),
        mistakes=stats_sql.recent_mistakes(store, scope),
    )


def safe_file_name(text: str, fallback: str) -> str:
    """``text`` reduced to letters, digits, ``-`` and ``_`` for a download's file name."""
    cleaned = re.sub(r"[^\w-]+", "_", text, flags=re.UNICODE).strip("_")
    return cleaned[:60] or fallback
