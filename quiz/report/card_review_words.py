"""Card review's tables in a reader's words: a card by its title (its id kept last, for
authors), an answer chosen on it by its name in the card's game, a figure a card does not
have as a dash (not ``None``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import pandas as pd

from quiz.content.loader import Content
from quiz.model.errors import UnknownIdError
from quiz.model.rulesets import Ruleset
from quiz.model.words import t
from quiz.report.card_words import choice_words
from quiz.rules.variants import list_title

NOTHING = "—"
NAMED_PARTS: dict[str, Literal["infraction", "penalty", "fix"]] = {  # a part -> its kind of id
    "infraction": "infraction", "penalty": "penalty", "fixes": "fix"}


def card_title(content: Content, card_id: str, language: str) -> str:
    """The card's title in ``language`` (its id when the content no longer has it)."""
    card = content.cards.get(card_id)
    return list_title(card).get(language) if card is not None else card_id


def titled(table: pd.DataFrame, content: Content, language: str) -> pd.DataFrame:
    """``table`` with its ``card_id`` column holding the cards' titles and the ids moved to a
    last column, ``card_ref``; figures missing shown as a dash."""
    shown = table.copy()
    if "card_id" in shown.columns:
        shown["card_ref"] = shown["card_id"]
        shown["card_id"] = [card_title(content, card_id, language) for card_id in shown["card_id"]]
    return dashed(shown)


def dashed(table: pd.DataFrame) -> pd.DataFrame:
    """Missing values as a dash: a table shows ``None`` for them."""
    return table.astype(object).where(table.notna(), NOTHING)


def chosen_words(content: Content, card_id: str, part: str, chosen: str, language: str, no_fix: str) -> str:
    """What was chosen for ``part`` of the card, by name in its game (ids joined by commas for
    fixes; ``no_fix`` for none); an id the game no longer knows as it is."""
    if part == "choice":  # a knowledge card's choice, a judgement call's nearest line
        return choice_words(content, card_id, chosen, language) or chosen
    kind = NAMED_PARTS.get(part)
    card = content.cards.get(card_id)
    ruleset = content.rulesets.get(card.ruleset) if card is not None else None
    if kind is None or ruleset is None:
        return chosen
    if part == "fixes":
        ids = [fix for fix in chosen.split(",") if fix]
        return ", ".join(_name(ruleset, "fix", fix, language) for fix in ids) or no_fix
    return _name(ruleset, kind, chosen, language)


def _name(ruleset: Ruleset, kind: Literal["infraction", "penalty", "fix"], item_id: str, language: str) -> str:
    try:
        return ruleset.name_of(kind, item_id, language)
    except UnknownIdError:
        return item_id


def answer_words(content: Content, card_id: str, answer: Mapping[str, Any] | None, language: str, no_fix: str) -> str:
    """A stored answer (a problem report's) as one line of its parts by name: "Penalty:
    Warning; Fixes: none", not ``penalty: warning``."""
    parts = []
    for part, value in (answer or {}).items():
        chosen = ",".join(map(str, value)) if isinstance(value, list) else value
        if chosen in (None, "") and part != "fixes":
            continue
        name = t(f"items.part_{part}", language) if part in (*NAMED_PARTS, "choice") else part
        parts.append(f"{name}: {chosen_words(content, card_id, part, str(chosen or ''), language, no_fix)}")
    return "; ".join(parts)
