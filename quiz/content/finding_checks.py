"""Checks of a floor-style card's findings: each is a fact its ruleset lets a card ask, an
arguable one is a yes/no fact, and the situation never says the conclusion in the document's
words outside a quotation (CONTENT.md, "Scenario cards: evidence and findings")."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from quiz.content.ruleset_checks import Finding
from quiz.model.cards import RulingCard
from quiz.model.errors import unknown_id
from quiz.model.facts import FactSpec
from quiz.model.rulesets import Ruleset
from quiz.model.text import LANGUAGES
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
    for language in LANGUAGES:
        word = telltale_in(card.situation.get(language), (specs[fact] for fact in card.findings))
        if word is not None:
            found.append(((card.OPENING, language), Wording("problem.finding.telltale", word=word[1],
                                                           fact=word[0])))
    return found


def unquoted(text: str) -> str:
    """``text`` without its quotations (what someone in the scene says, in their words)."""
    return QUOTATION.sub("", text)


def telltale_in(situation: str, specs: Iterable[FactSpec]) -> tuple[str, str] | None:
    """(fact, word) for the first telltale word of ``specs`` that ``situation`` uses outside
    a quotation, compared after NFKC normalisation and case folding; None when none does."""
    told = _folded(unquoted(situation))
    for spec in specs:
        for word in spec.finding.telltales if spec.finding is not None else ():
            if _folded(word) in told:
                return spec.id, word
    return None


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
