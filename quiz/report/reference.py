"""Tables of the Reference page: the ladder, the infractions, and the two games compared."""

from __future__ import annotations

import pandas as pd

from quiz.content.loader import Content
from quiz.model.rulesets import Ruleset
from quiz.rules.explain import describe_rule

RECORDED = {True: {"ja": "はい", "en": "yes"}, False: {"ja": "いいえ", "en": "no"},
            None: {"ja": "文書に記載なし", "en": "not stated"}}
UNDECIDED = {"ja": "規定なし（大会審判の判断）", "en": "not decided by the document (the head judge's call)"}


def ladder_table(ruleset: Ruleset, language: str, scope_names: dict[str, str]) -> pd.DataFrame:
    """One row per penalty, lightest first."""
    return pd.DataFrame(
        [
            {
                "penalty": p.name.get(language),
                "original": p.name.ja,
                "meaning": p.meaning.get(language),
                "recorded": RECORDED[p.recorded][language],
                "scope": " / ".join(dict.fromkeys(
                    scope_names.get(scope, scope) for scope in (p.applies_to, *(s.applies_to for s in p.scopes))
                )),
            }
            for p in ruleset.ladder
        ]
    )


def infraction_table(ruleset: Ruleset, language: str, query: str = "") -> pd.DataFrame:
    """One row per rule branch: infraction, condition, penalty, fixes, the quoted lines.

    ``query`` keeps the rows whose any text (in either language) contains it.
    """
    rows = []
    for infraction in ruleset.infractions:
        category = ruleset.category(infraction.category)
        for index, rule in enumerate(infraction.rules):
            if rule.becomes:
                target = ruleset.infraction(rule.becomes)
                outcome = f"→ {target.name.get(language)}" if target else rule.becomes
            elif rule.penalty is not None:
                outcome = ruleset.name_of("penalty", rule.penalty, language)
            else:  # an undecided rule
                outcome = UNDECIDED[language]
            rows.append(
                {
                    "category": category.name.get(language) if category else infraction.category,
                    "infraction": infraction.name.get(language),
                    "condition": describe_rule(ruleset, infraction, index, language),
                    "penalty": outcome,
                    "fixes": ", ".join(ruleset.name_of("fix", f, language) for f in rule.fixes),
                    "original": rule.citation.ja,
                    "translation": rule.citation.en,
                    "_search": " ".join(
                        [infraction.name.ja, infraction.name.en, infraction.description.ja, infraction.description.en,
                         rule.citation.ja, rule.citation.en, infraction.id]
                    ).lower(),
                }
            )
    table = pd.DataFrame(rows)
    if query.strip():
        table = table[table["_search"].str.contains(query.strip().lower(), regex=False)]
    table = table.drop(columns="_search")
    return table if language == "en" else table.drop(columns="translation")


def comparison_table(content: Content, language: str) -> pd.DataFrame:
    """One row per theme, one column per game: its infractions and their standard penalties."""
    rows = []
    for theme in content.themes:
        row = {"theme": theme.name.get(language)}
        for ruleset in content.rulesets.values():
            entries = []
            for infraction_id in theme.infractions.get(ruleset.id, []):
                infraction = ruleset.infraction(infraction_id)
                if infraction is None:
                    continue
                outcomes = []
                for rule in infraction.rules:
                    if rule.penalty:
                        outcomes.append(ruleset.name_of("penalty", rule.penalty, language))
                penalties = " / ".join(dict.fromkeys(outcomes))
                entries.append(f"{infraction.name.get(language)}: {penalties}")
            row[ruleset.document.title.get(language)] = "; ".join(entries) or "—"
        rows.append(row)
    return pd.DataFrame(rows)
