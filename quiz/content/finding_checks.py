"""Checks of a floor-style card's findings: each is a fact its ruleset lets a card ask, an
arguable one is a yes/no fact, and what the card tells never says the conclusion outside a
quotation, neither in the document's words nor by narrating a slip, a plan or a result
(CONTENT.md, "Scenario cards: evidence and findings" and "Changes in revision 4")."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from quiz.content.ruleset_checks import Finding
from quiz.model.cards import RulingCard
from quiz.model.errors import unknown_id
from quiz.model.facts import FactSpec
from quiz.model.rulesets import Ruleset
from quiz.model.text import LANGUAGES, Text
from quiz.model.words import Wording

# 「…」 『…』 “…” "…": what a player, a spectator or the document says, quoted as said
QUOTATION = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|\"[^\"]*\"")


def finding_problems(card: RulingCard, ruleset: Ruleset) -> list[Finding]:
    """Every problem of the card's findings, located at the field that has it."""
    specs = {spec.id: spec for spec in ruleset.facts}
    found: list[Finding] = []
    for fact, finding in card.findings.items():
        spec = specs.get(fact)
        if spec is None:
            found.append((("findings", fact), unknown_id("fact", fact, specs)))
        elif spec.finding is None:
            found.append((("findings", fact), Wording("problem.finding.not_askable", fact=fact,
                                                      ruleset=ruleset.id)))
        elif finding.arguable is not None and spec.type != "bool":
            found.append((("findings", fact, "arguable"), Wording("problem.finding.arguable_not_bool", fact=fact)))
    if found:
        return found
    asked = [specs[fact] for fact in card.findings]
    for language in LANGUAGES:
        for field, text in _told_texts(card, language):
            told = telltale_in(text, asked, language)
            if told is not None:
                found.append((field, telltale_wording(told, asked, language)))
    return found


def _told_texts(card: RulingCard, language: str) -> list[tuple[tuple[str | int, ...], str]]:
    """The texts a card tells the trainee in ``language``, each with its field: the situation
    and every text a parameter may put into it."""
    texts: list[tuple[tuple[str | int, ...], str]] = [((card.OPENING, language), card.situation.get(language))]
    for name, parameter in card.parameters.items():
        for index, option in enumerate(parameter.choice or ()):
            if isinstance(option, Text):
                texts.append((("parameters", name, "choice", index, language), option.get(language)))
    return texts


def telltale_wording(told: tuple[str, str], specs: Iterable[FactSpec], language: str) -> Wording:
    """What is wrong with a text in which ``telltale_in`` found ``told`` (fact, word): a word
    the document uses for the finding, or the narrator telling a slip, a plan or a result."""
    fact, word = told
    documents = any(spec.id == fact and spec.finding is not None
                    and _first_match(word, spec.finding.telltales.get(language)) is not None for spec in specs)
    return Wording("problem.finding.telltale" if documents else "problem.finding.narration", word=word, fact=fact,
                   language=language)


def unquoted(text: str) -> str:
    """``text`` without its quotations (what someone in the scene says, in their words)."""
    return QUOTATION.sub("", text)


def telltale_in(text: str, specs: Iterable[FactSpec], language: str) -> tuple[str, str] | None:
    """(fact, word) for the first word of ``specs``' findings, in ``language``'s list, that
    ``text`` uses outside a quotation: the document's words for a finding, then the words that
    narrate it (a slip, a plan, a result); None when it uses none. ``text`` is in
    ``language``: the Japanese list checks Japanese text and the English list English text.
    Each listed word is a regular expression, compared after NFKC normalisation and case
    folding on both sides; the word returned is the text as it stands there."""
    told = _folded(unquoted(text))
    for spec in specs:
        word = _first_match(told, spec.finding.words(language)) if spec.finding is not None else None
        if word is not None:
            return spec.id, word
    return None


def _first_match(told: str, words: Iterable[str]) -> str | None:
    """The text of the first of ``words`` (regular expressions, written in lower case: they
    are folded as the text is) found in ``told``."""
    for word in words:
        match = re.search(_folded(word), told)
        if match is not None:
            end = match.end()
            while match.group(0).isascii() and end < len(told) and told[end].isascii() and told[end].isalpha():
                end += 1  # the whole English word, "noticed" rather than "notic"
            return told[match.start():end]
    return None


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
