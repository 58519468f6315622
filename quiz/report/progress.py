"""Shaping a trainee's attempts for the progress page: filtering and display labels."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Callable, Iterable, Literal

import pandas as pd

from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.model.attempt import FIX_FIELDS
from quiz.model.errors import QuizError
from quiz.model.rulesets import Ruleset
from quiz.report import finding_statistics as finding_sql
from quiz.report import statistics as stats_sql
from quiz.report.card_words import choice_words
from quiz.report.floor_calls import FloorCallFigures, floor_call_figures
from quiz.rules.variants import list_title


def attempts_in(attempts: pd.DataFrame, rulesets: Iterable[str]) -> pd.DataFrame:
    """The attempts of the chosen games."""
    return attempts[attempts["ruleset"].isin(list(rulesets))]


FIX_JOINER = ", "
NAMED_COLUMNS: tuple[tuple[str, str, str], ...] = (  # id column, its name column, what it names
    ("card_id", "card_title", "card"),
    ("ruleset", "game", "game"),
    ("category", "category_name", "category"),
    ("chosen_infraction", "chosen_infraction_name", "infraction"),
    ("standard_infraction", "standard_infraction_name", "infraction"),
    ("chosen_penalty", "chosen_penalty_name", "penalty"),
    ("standard_penalty", "standard_penalty_name", "penalty"),
    ("chosen_fixes", "chosen_fixes_names", "fixes"),
    ("standard_fixes", "standard_fixes_names", "fixes"),
    ("chosen_choice", "chosen_choice_text", "choice"),
    ("correct_choice", "correct_choice_text", "choice"),
)


def answers_table(attempts: pd.DataFrame, rulesets: Iterable[str], content: Content, language: str) -> pd.DataFrame:
    """The attempts of the chosen games as a table to download: every stored column, fixes
    joined with commas (not Python tuples), drawn values and findings as JSON, and beside each id its
    name in ``language`` (the card's title, the game, category, infraction, penalty, fixes,
    a knowledge card's choice or a judgement call's line). Ids no longer in the content
    get an empty name."""
    frame = attempts_in(attempts, rulesets).copy()
    namers = {kind: _namer(kind, content, language) for _, _, kind in NAMED_COLUMNS}
    rows = list(frame.to_dict("records"))
    named = {
        name: [namers[kind](row, row[column]) for row in rows] for column, name, kind in NAMED_COLUMNS
        if column in frame.columns
    }
    for name in FIX_FIELDS:
        if name in frame.columns:
            frame[name] = [FIX_JOINER.join(fixes) if isinstance(fixes, (tuple, list)) else "" for fixes in frame[name]]
    if "variant_values" in frame.columns:
        frame["variant_values"] = [
            json.dumps(values, ensure_ascii=False, sort_keys=True) if isinstance(values, dict) else ""
            for values in frame["variant_values"]
        ]
    if "findings" in frame.columns:  # JSON as stored; "" for a card without findings
        frame["findings"] = [
            json.dumps([dict(f) for f in found], ensure_ascii=False) if isinstance(found, (list, tuple)) and found
            else "" for found in frame["findings"]
        ]
    columns: list[str] = []
    for column in frame.columns:
        columns.append(column)
        for id_column, name, _ in NAMED_COLUMNS:
            if id_column == column:
                frame[name] = named[name]
                columns.append(name)
    return frame[columns].reset_index(drop=True)


def _namer(kind: str, content: Content, language: str) -> Callable[[dict[str, Any], Any], str]:
    """``(row, value) -> name`` for one kind of id; "" for a missing or unknown one."""

    def ruleset_of(row: dict[str, Any]) -> Ruleset | None:
        return content.rulesets.get(str(row.get("ruleset")))

    def known(ruleset: Ruleset | None, what: Literal["infraction", "penalty", "fix", "category"], item: Any) -> str:
        if ruleset is None or not isinstance(item, str) or not item:
            return ""
        try:
            return ruleset.name_of(what, item, language)
        except (KeyError, QuizError, ValueError):
            return ""

    def card(row: dict[str, Any], value: Any) -> str:
        found = content.cards.get(str(value))
        return list_title(found).get(language) if found is not None else ""

    def game(row: dict[str, Any], value: Any) -> str:
        ruleset = ruleset_of(row)
        return ruleset.document.short_name.get(language) if ruleset is not None else ""

    def choice(row: dict[str, Any], value: Any) -> str:
        return choice_words(content, str(row.get("card_id")), value, language) or ""

    namers: dict[str, Callable[[dict[str, Any], Any], str]] = {
        "card": card,
        "game": game,
        "category": lambda row, value: known(ruleset_of(row), "category", value),
        "infraction": lambda row, value: known(ruleset_of(row), "infraction", value),
        "penalty": lambda row, value: known(ruleset_of(row), "penalty", value),
        "fixes": lambda row, value: FIX_JOINER.join(
            known(ruleset_of(row), "fix", f) for f in (value if isinstance(value, (tuple, list)) else ())),
        "choice": choice,
    }
    return namers[kind]


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
    goal: int  # cards a day for it to count in the streak
    answered_today: int
    daily: pd.DataFrame
    parts: pd.DataFrame
    games: pd.DataFrame
    categories: pd.DataFrame
    confusion: pd.DataFrame
    leniency: stats_sql.Leniency
    mistakes: pd.DataFrame
    findings: finding_sql.FindingsSplit  # answers to cards with findings, and their wrong penalties told apart
    finding_facts: pd.DataFrame  # ``finding_statistics.finding_accuracy``: each fact of each game, weakest first
    floor_calls: FloorCallFigures  # the investigation of floor calls, and floor calls against scenario cards


WEAKEST = 3  # areas named first on Progress
WEAK_LEAST = 3  # answers in an area before it can be named weak


def weakest_categories(categories: pd.DataFrame, n: int = WEAKEST, least: int = WEAK_LEAST) -> pd.DataFrame:
    """The ``n`` categories (``accuracy_by_category``, weakest first) answered at least
    ``least`` times and not all right: what to practise first."""
    if categories.empty:
        return categories
    weak = categories[(categories["answered"] >= least) & (categories["accuracy"] < 1)]
    return weak.head(n).reset_index(drop=True)


def progress_figures(
    store: Store, trainee_id: int, rulesets: Iterable[str], today: date, time_zone: str = stats_sql.UTC,
    goal: int = 1, source: str = "all",
) -> ProgressFigures:
    """A trainee's figures in the chosen games, days counted in ``time_zone`` (``today`` is a
    day of that zone), a day in the streak when ``goal`` cards were answered on it, of the
    answers from ``source`` (``statistics.ANSWER_SOURCES``: all, practice or exam); only
    aggregated rows leave the database."""
    scope = stats_sql.AnswerScope(trainee_id, tuple(rulesets), time_zone, modes=stats_sql.ANSWER_SOURCES[source])
    counts = stats_sql.daily_counts(store, scope)
    return ProgressFigures(
        summary=stats_sql.summary(store, scope),
        streak=stats_sql.goal_streak(counts, today, goal),
        goal=goal,
        answered_today=stats_sql.answered_on(counts, today),
        daily=stats_sql.daily_accuracy(store, scope),
        parts=stats_sql.accuracy_by_part(store, scope),
        games=stats_sql.accuracy_by(store, scope, "ruleset"),
        categories=stats_sql.accuracy_by_category(store, scope),
        confusion=penalty_confusion_by_game(store, scope),
        leniency=stats_sql.leniency(store, scope),
        mistakes=stats_sql.recent_mistakes(store, scope),
        findings=finding_sql.findings_split(store, scope),
        finding_facts=finding_sql.finding_accuracy(store, scope),
        floor_calls=floor_call_figures(store, scope),
    )


def penalty_confusion_by_game(store: Store, scope: stats_sql.AnswerScope) -> pd.DataFrame:
    """``ruleset, standard_penalty, chosen_penalty, count``: the penalty confusion of each game of
    the scope on its own (each game has its own ladder)."""
    frames = [
        stats_sql.penalty_confusion(store, replace(scope, rulesets=(ruleset,)))
        .assign(ruleset=ruleset)
        for ruleset in scope.rulesets or ()
    ]
    columns = ["ruleset", "standard_penalty", "chosen_penalty", "count"]
    found = [frame for frame in frames if not frame.empty]
    return pd.concat(found, ignore_index=True)[columns] if found else pd.DataFrame(columns=columns)


def safe_file_name(text: str, fallback: str) -> str:
    """``text`` reduced to letters, digits, ``-`` and ``_`` for a download's file name."""
    cleaned = re.sub(r"[^\w-]+", "_", text, flags=re.UNICODE).strip("_")
    return cleaned[:60] or fallback
