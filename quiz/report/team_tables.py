"""The supervisor's tables as shown and exported: names instead of ids, percentages, CSV."""

from __future__ import annotations

import math

import pandas as pd

from quiz.content.loader import Content
from quiz.model.cards import NO_LISTED_INFRACTION, JudgementCallCard, KnowledgeCard
from quiz.model.local_time import local_texts
from quiz.report.i18n import t
from quiz.rules.variants import list_title

OVERVIEW_TABLE = ["trainee", "answered", "accuracy_recent", "answered_recent", "accuracy",
                  "exams_passed", "weakest", "last_active"]
CARD_TABLE = ["card", "card_id", "game", "answered", "accuracy", "wrong_infraction", "wrong_penalty", "wrong_choice"]


def percent(ratio: float | None) -> float | None:
    """A ratio as a percentage with one decimal; None stays None (and NaN becomes None)."""
    if ratio is None or (isinstance(ratio, float) and math.isnan(ratio)):
        return None
    return round(float(ratio) * 100, 1)


def overview_table(overview: pd.DataFrame, categories: dict[str, str], zone: str) -> pd.DataFrame:
    """``team.team_overview`` as shown: percentages, weakest categories by name, the last
    answer's time read in ``zone`` (the supervisor's)."""
    table = pd.DataFrame({
        "trainee": overview["trainee"].astype(object),
        "answered": overview["answered"],
        "accuracy_recent": [percent(r) for r in overview["accuracy_recent"]],
        "answered_recent": overview["answered_recent"],
        "accuracy": [percent(r) for r in overview["accuracy"]],
        "exams_passed": overview["exams_passed"],
        "weakest": [", ".join(categories.get(key, key) for key in keys) for keys in overview["weakest"]],
        "last_active": local_texts(overview["last_active"], zone),
    })
    return table[OVERVIEW_TABLE]


def card_table(stats: pd.DataFrame, content: Content, language: str) -> pd.DataFrame:
    """``team.card_statistics`` as shown: titles, game names, and "name (count)" for wrong answers."""
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
        })
    return pd.DataFrame.from_records(rows, columns=CARD_TABLE)


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
    card = content.cards.get(card_id)
    if isinstance(card, KnowledgeCard):
        for choice in card.choices:
            if choice.id == choice_id:
                return choice.text.get(language)
    if isinstance(card, JudgementCallCard):  # the infraction chosen as the nearest line
        if choice_id == NO_LISTED_INFRACTION:
            return t("answer.no_listed_infraction", language)
        return _infraction_name(content, card.ruleset, choice_id, language)
    return str(choice_id)
