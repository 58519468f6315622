"""Shaping a trainee's attempts for the progress page: filtering and display labels."""

from __future__ import annotations

from typing import Iterable

import pandas as pd

from quiz.loader import Content
from quiz.practice import KNOWLEDGE_CATEGORY


def progress_frame(attempts: pd.DataFrame, rulesets: Iterable[str]) -> pd.DataFrame:
    """The attempts of the chosen games, with a ``category_key`` of ``ruleset/category``."""
    frame = attempts[attempts["ruleset"].isin(list(rulesets))].copy()
    frame["category_key"] = frame["ruleset"] + "/" + frame["category"].fillna(KNOWLEDGE_CATEGORY)
    return frame


def category_labels(content: Content, language: str, knowledge: str) -> dict[str, str]:
    """``ruleset/category`` -> "Game › Category" in ``language``."""
    labels: dict[str, str] = {}
    for ruleset in content.rulesets.values():
        game = ruleset.document.short_name.get(language)
        for category in ruleset.categories:
            labels[f"{ruleset.id}/{category.id}"] = f"{game} › {category.name.get(language)}"
        labels[f"{ruleset.id}/{KNOWLEDGE_CATEGORY}"] = f"{game} › {knowledge}"
    return labels


def penalty_labels(content: Content, language: str) -> dict[str, str]:
    """Penalty id -> name, in ladder order (the first ruleset naming an id wins)."""
    labels: dict[str, str] = {}
    for ruleset in content.rulesets.values():
        for penalty in ruleset.ladder:
            labels.setdefault(penalty.id, penalty.name.get(language))
    return labels
