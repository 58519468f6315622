"""What the Reference page shows: the ladder, the infractions (searchable across games), and the
games compared, each rule said in words (``quiz.rules.explain``)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Iterable, Literal

import pandas as pd

from quiz.content.loader import Content
from quiz.model.rulesets import Infraction, Ruleset
from quiz.rules.explain import describe_rule, rule_clause

RECORDED = {True: {"ja": "はい", "en": "yes"}, False: {"ja": "いいえ", "en": "no"},
            None: {"ja": "文書に記載なし", "en": "not stated"}}
UNDECIDED = {"ja": "規定なし（大会審判の判断）", "en": "Not decided by the document (the head judge's call)"}
OutcomeKind = Literal["penalty", "becomes", "undecided"]


def ladder_table(ruleset: Ruleset, language: str, scope_names: dict[str, str]) -> pd.DataFrame:
    """One row per penalty, lightest first (the document's own name beside it only in English:
    in Japanese it is the name)."""
    table = pd.DataFrame(
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
    return table if language == "en" else table.drop(columns="original")


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule of an infraction in words.

    Attributes:
        when: when it applies, as a sentence (rules are tried in order: what earlier rules
            cover is ruled out).
        clause: the same as a clause for inside a sentence; None when it applies in every case.
        kind: ``penalty``, ``becomes`` (judged as another infraction) or ``undecided``.
        outcome: the penalty's name, the other infraction's name, or that the document leaves it open.
        fixes: the names of the fixes it requires.
        original: the quoted line of the document (Japanese); ``translation`` its English rendering.
    """

    when: str
    clause: str | None
    kind: OutcomeKind
    outcome: str
    fixes: tuple[str, ...]
    original: str
    translation: str


@dataclass(frozen=True, slots=True)
class InfractionEntry:
    """An infraction of a game's document with its rules, as the Reference page lists it."""

    ruleset: str
    game: str
    category: str
    name: str
    description: str
    rules: tuple[RuleEntry, ...]


def normalized(text: str) -> str:
    """Text as search compares it: NFKC (full-width digits and letters as ASCII), lower case."""
    return unicodedata.normalize("NFKC", text).lower()


def infraction_entries(ruleset: Ruleset, language: str, query: str = "") -> list[InfractionEntry]:
    """The infractions of ``ruleset`` in document order, each with its rules in words.

    ``query`` keeps the infractions any of whose text contains it, in either language: names,
    descriptions, quoted lines, the rules in words, penalties, fixes and the category.
    """
    matches = _matcher(query)
    found = [_entry(ruleset, infraction, language) for infraction in ruleset.infractions]
    found = [entry for infraction, entry in zip(ruleset.infractions, found)
             if matches(_search_text(ruleset, infraction, entry))]
    order = {category: n for n, category in reversed(list(enumerate(e.category for e in found)))}
    return sorted(found, key=lambda entry: order[entry.category])  # grouped by category, in document order


def _matcher(query: str) -> Callable[[str], bool]:
    """Whether a normalized text matches ``query``: Latin words from the start of a word ("late"
    is not in "manipulated"), any other text (Japanese) anywhere."""
    wanted = normalized(query.strip())
    if not wanted:
        return lambda text: True
    if wanted.isascii():
        pattern = re.compile(r"(?<![a-z0-9])" + re.escape(wanted))
        return lambda text: pattern.search(text) is not None
    return lambda text: wanted in text


def search_entries(rulesets: Iterable[Ruleset], language: str, query: str) -> list[InfractionEntry]:
    """``infraction_entries`` of every game in ``rulesets`` matching ``query`` (none for an empty query)."""
    if not query.strip():
        return []
    return [entry for ruleset in rulesets for entry in infraction_entries(ruleset, language, query)]


def _entry(ruleset: Ruleset, infraction: Infraction, language: str) -> InfractionEntry:
    category = ruleset.category(infraction.category)
    rules = []
    for index, rule in enumerate(infraction.rules):
        kind: OutcomeKind
        if rule.becomes:
            target = ruleset.infraction(rule.becomes)
            kind, outcome = "becomes", target.name.get(language) if target else rule.becomes
        elif rule.penalty is not None:
            kind, outcome = "penalty", ruleset.name_of("penalty", rule.penalty, language)
        else:
            kind, outcome = "undecided", UNDECIDED[language]
        rules.append(RuleEntry(
            when=describe_rule(ruleset, infraction, index, language),
            clause=rule_clause(ruleset, infraction, index, language),
            kind=kind,
            outcome=outcome,
            fixes=tuple(ruleset.name_of("fix", f, language) for f in rule.fixes),
            original=rule.citation.ja,
            translation=rule.citation.en,
        ))
    return InfractionEntry(
        ruleset=ruleset.id,
        game=ruleset.document.short_name.get(language),
        category=category.name.get(language) if category else infraction.category,
        name=infraction.name.get(language),
        description=infraction.description.get(language),
        rules=tuple(rules),
    )


def _search_text(ruleset: Ruleset, infraction: Infraction, entry: InfractionEntry) -> str:
    category = ruleset.category(infraction.category)
    texts = [
        infraction.id, infraction.name.ja, infraction.name.en, infraction.description.ja, infraction.description.en,
        entry.category, *((category.name.ja, category.name.en) if category else ()),
    ]
    for rule, said in zip(infraction.rules, entry.rules):
        texts += [rule.citation.ja, rule.citation.en, said.when, said.outcome, *said.fixes]
        if rule.penalty is not None:
            penalty = ruleset.penalty(rule.penalty)
            texts += [penalty.name.ja, penalty.name.en] if penalty is not None else []
    return normalized("\n".join(texts))


@dataclass(frozen=True, slots=True)
class ThemeRow:
    """A theme of the comparison: for each game (by its short name, in order), its infractions."""

    theme: str
    games: dict[str, list[InfractionEntry]]


def comparison_rows(content: Content, language: str) -> list[ThemeRow]:
    """One row per theme; for each game, the infractions of its document on that theme, each
    with its rules in words (when each penalty applies)."""
    rows = []
    for theme in content.themes:
        games: dict[str, list[InfractionEntry]] = {}
        for ruleset in content.rulesets.values():
            entries = [
                _entry(ruleset, infraction, language)
                for infraction_id in theme.infractions.get(ruleset.id, [])
                if (infraction := ruleset.infraction(infraction_id)) is not None
            ]
            games[ruleset.document.short_name.get(language)] = entries
        rows.append(ThemeRow(theme.name.get(language), games))
    return rows
