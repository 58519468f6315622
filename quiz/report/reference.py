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
from quiz.model.words import t
from quiz.rules.engine import compile_ruleset
from quiz.rules.explain import describe_rule, rule_clause

RECORDED = {True: "reference.recorded_yes", False: "reference.recorded_no", None: "reference.recorded_unstated"}
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
                "recorded": t(RECORDED[p.recorded], language),
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


def folded(text: str) -> str:
    """Text as search compares it: NFKC (full-width letters and digits as ASCII, half-width
    kana as full-width), case-folded, katakana as hiragana (ドロー and どろー are one word)."""
    return unicodedata.normalize("NFKC", text).casefold().translate(_KATAKANA_TO_HIRAGANA)


_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_SEPARATORS = re.compile(r"[\s、,，・/]+")


def infraction_entries(ruleset: Ruleset, language: str) -> list[InfractionEntry]:
    """The infractions of ``ruleset`` grouped by category, in document order, each with its
    rules in words."""
    found = [_entry(ruleset, infraction, language) for infraction in ruleset.infractions]
    order = {category: n for n, category in reversed(list(enumerate(e.category for e in found)))}
    return sorted(found, key=lambda entry: order[entry.category])


@dataclass(frozen=True, slots=True)
class SearchHit:
    """An infraction found by a search: ``rank`` how well it matched (0 best: the phrase in
    its name, 1 in a line of the document, 2 every word in its name, 3 every word in one line,
    4 every word somewhere in its text), ``lines`` the document's lines that mention a word."""

    entry: InfractionEntry
    infraction: str
    rank: int
    lines: tuple[int, ...]


_JAPANESE = "\u3005\u4e00-\u9fff\u30a0-\u30ff"  # kanji (and 々), katakana (and ー)
# A particle between two Japanese words parts them: 時間に遅れた is 時間 and 遅れた.
_PARTICLE = re.compile(rf"(?<=[{_JAPANESE}])(?:から|まで|より|に|を|が|は|で|と|へ|も|の)(?=[{_JAPANESE}])")
# A word written with kanji and ending in kana (遅れた, 見えた): its stem is the kanji and the
# first kana (遅れ, 見え), which the document's other forms (遅れて, 見えて) share; a verb's
# kanji with the past's た and て (見えた: 見た, 見て) is how the document says it happened.
_INFLECTED = re.compile(rf"^([{_JAPANESE}]*[\u3005\u4e00-\u9fff][{_JAPANESE}]*)([\u3041-\u3096])[\u3041-\u3096]+$")
_PAST = ("た", "て")


def query_words(query: str) -> list[str]:
    """The words of a query, folded: spaces (full- or half-width) and list marks separate them,
    and a particle between two Japanese words."""
    return [forms[0] for forms in _query_forms(query)]


def _query_forms(query: str) -> list[tuple[str, ...]]:
    """Each word of a query, with its stem and past forms when it is inflected (遅れた: 遅れ,
    遅た, 遅て; 見えた: 見え, 見た, 見て), folded."""
    words = [word for part in _SEPARATORS.split(unicodedata.normalize("NFKC", query))
             for word in _PARTICLE.split(part) if word]
    found = []
    for word in words:
        stem = _INFLECTED.match(word)
        forms = (word, stem.group(1) + stem.group(2), *(stem.group(1) + past for past in _PAST)) if stem else (word,)
        found.append(tuple(dict.fromkeys(folded(form) for form in forms)))
    return found


def search_entries(rulesets: Iterable[Ruleset], language: str, query: str) -> list[SearchHit]:
    """The infractions of every game in ``rulesets`` whose text holds every word of ``query``
    (in any order; an inflected word also by its stem; a word also matches what the ruleset's
    ``search_synonyms`` say it means, in an infraction's name or the document's lines, not in
    the app's explanations, which name intent and the like throughout), best matches first,
    then in the games' and the documents' order. None for an empty query."""
    terms = _query_forms(query)
    if not terms:
        return []
    phrase = " ".join(forms[0] for forms in terms)
    hits = []
    for ruleset in rulesets:
        synonyms = {folded(key): [folded(v) for v in values] for key, values in ruleset.search_synonyms.items()}
        matchers = [_Word(_word_matcher(list(forms)),
                          _word_matcher([meant for form in forms for meant in synonyms.get(form, [])]))
                    for forms in terms]
        in_phrase = _word_matcher([phrase])
        for infraction in ruleset.infractions:
            entry = _entry(ruleset, infraction, language)
            hit = _hit(_Texts.of(ruleset, infraction, entry), matchers, in_phrase)
            if hit is not None:
                hits.append(SearchHit(entry, infraction.id, *hit))
    return sorted(hits, key=lambda hit: hit.rank)  # stable: games and documents keep their order


def _word_matcher(alternatives: list[str]) -> Callable[[str], bool]:
    """Whether a folded text holds any of ``alternatives``: a Latin one from the start of a word
    ("late" is not in "manipulated"), any other (Japanese) anywhere."""
    patterns = [re.compile(r"(?<![a-z0-9])" + re.escape(a) if a.isascii() else re.escape(a)) for a in alternatives]
    return lambda text: any(p.search(text) is not None for p in patterns)


@dataclass(frozen=True, slots=True)
class _Texts:
    """An infraction's searchable text, folded: its names, its document lines (with their
    numbers, and their English), and the rest (descriptions, rules in words, explanations,
    penalties, fixes, category)."""

    names: tuple[str, ...]
    lines: tuple[tuple[int, str], ...]
    rest: tuple[str, ...]

    @classmethod
    def of(cls, ruleset: Ruleset, infraction: Infraction, entry: InfractionEntry) -> _Texts:
        category = ruleset.category(infraction.category)
        rest = [infraction.id, infraction.description.ja, infraction.description.en, entry.category,
                *((category.name.ja, category.name.en) if category else ())]
        lines: list[tuple[int, str]] = []
        compiled = compile_ruleset(ruleset).infractions[infraction.id][1]
        for rule, said, cited in zip(infraction.rules, entry.rules, compiled):
            numbers = cited.cited.lines
            for said_in in (rule.citation.ja, rule.citation.en):  # the English line by its original's number
                parts = [part for part in said_in.split("\n") if part]
                lines += list(zip(numbers, parts)) if len(numbers) == len(parts) else [(0, part) for part in parts]
            rest += [said.when, said.outcome, *said.fixes, rule.explain.ja, rule.explain.en]
            fixes = [fix for f in rule.fixes if (fix := ruleset.fix(f)) is not None]
            rest += [name for fix in fixes for name in (fix.name.ja, fix.name.en)]
            if rule.penalty is not None and (penalty := ruleset.penalty(rule.penalty)) is not None:
                rest += [penalty.name.ja, penalty.name.en]
        return cls(tuple(folded(n) for n in (infraction.name.ja, infraction.name.en)),
                   tuple((n, folded(text)) for n, text in lines), tuple(folded(text) for text in rest))


Match = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class _Word:
    """A query word: ``said`` as typed (or its stem), anywhere; ``meant`` its synonyms, in a
    name or a line of the document."""

    said: Match
    meant: Match

    def in_name_or_line(self, text: str) -> bool:
        return self.said(text) or self.meant(text)


def _hit(texts: _Texts, words: list[_Word], phrase: Match) -> tuple[int, tuple[int, ...]] | None:
    """The rank and the mentioning lines of a match, or None when some word is found nowhere."""
    line_texts = [text for _, text in texts.lines]
    named = [*texts.names, *line_texts]
    if not all(any(word.in_name_or_line(text) for text in named) or any(word.said(text) for text in texts.rest)
               for word in words):
        return None
    mentioning = tuple(sorted({n for n, text in texts.lines
                               if n and any(word.in_name_or_line(text) for word in words)}))
    ranks = [
        any(phrase(name) for name in texts.names),
        any(phrase(text) for text in line_texts),
        any(all(word.in_name_or_line(name) for word in words) for name in texts.names),
        any(all(word.in_name_or_line(text) for word in words) for text in line_texts),
    ]
    return next((rank for rank, held in enumerate(ranks) if held), len(ranks)), mentioning


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
            kind, outcome = "undecided", t("reference.undecided", language)
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
