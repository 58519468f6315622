"""Card variants: drawing a scenario card's parameters and resolving one showing of it.

A showing is reproducible from its seed: ``show_card(card, seed)`` always draws the same
values, so a page keeps only the seed. A card without parameters has one showing, the
same for every seed. Validation and coverage use ``fact_combinations``: every combination
of the values that can change a verdict (parameters that only change names or rounds in
the story are left out).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Iterator, Mapping

from quiz.model.cards import AnyCard, RulingCard
from quiz.model.facts import FactValue
from quiz.model.parameters import FromParameter, Parameter, TextOption
from quiz.model.text import LANGUAGES, Text
from quiz.rules.placeholders import fill

DEFAULT_SEED = 0
SEED_LIMIT = 2**32
Value = int | TextOption


@dataclass(frozen=True, slots=True)
class CardShowing:
    """One showing of a scenario card: the drawn values and the texts and facts they give."""

    card_id: str
    seed: int
    values: Mapping[str, Value]
    title: Text
    situation: Text
    facts: Mapping[str, FactValue]


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a new showing."""
    return (rng or random).randrange(SEED_LIMIT)


def draw_values(card: RulingCard, rng: random.Random) -> dict[str, Value]:
    """One value for each parameter, drawn uniformly, in the order the card declares them."""
    return {name: rng.choice(parameter.values()) for name, parameter in card.parameters.items()}


def card_facts(card: RulingCard, values: Mapping[str, Value]) -> dict[str, FactValue]:
    """The facts of the card under ``values``: literal facts, drawn numbers, option facts."""
    facts: dict[str, FactValue] = {}
    for name, entry in card.facts.items():
        value = values[entry.param] if isinstance(entry, FromParameter) else entry
        if isinstance(value, TextOption):  # checked at validation: a fact takes a number parameter
            raise ValueError(f"fact {name} of card {card.id} takes a text parameter")
        facts[name] = value
    for value in values.values():
        if isinstance(value, TextOption):
            facts.update(value.facts)
    return facts


def seed_facts(card: RulingCard, seed: int = DEFAULT_SEED) -> dict[str, FactValue]:
    """The facts of the showing ``seed`` draws (``show_card(card, seed).facts``), texts left unfilled."""
    return card_facts(card, draw_values(card, random.Random(seed)) if card.parameters else {})


def value_text(value: Value, language: str) -> str:
    """How a drawn value reads in a text: a number as digits, a text option in the language."""
    return value.get(language) if isinstance(value, TextOption) else str(value)


def fill_text(text: Text, values: Mapping[str, Value]) -> Text:
    """``text`` with its placeholders filled, in both languages."""
    filled = {lang: fill(text.get(lang), {k: value_text(v, lang) for k, v in values.items()}) for lang in LANGUAGES}
    return Text(**filled)


def show_card(card: RulingCard, seed: int = DEFAULT_SEED) -> CardShowing:
    """The showing of ``card`` that ``seed`` draws: its values, texts and facts."""
    values = draw_values(card, random.Random(seed))
    return CardShowing(
        card_id=card.id,
        seed=seed,
        values=values,
        title=fill_text(card.title, values),
        situation=fill_text(card.situation, values),
        facts=card_facts(card, values),
    )


StoredValue = int | dict[str, int]


def stored_values(card: RulingCard, showing: CardShowing) -> dict[str, StoredValue]:
    """A showing's drawn values as plain JSON: a number as itself, a text option as
    ``{"option": position}`` in its parameter's choice list."""
    return {
        name: value if isinstance(value, int) else {"option": list(card.parameters[name].values()).index(value)}
        for name, value in showing.values.items()
    }


def values_from_stored(card: RulingCard, stored: Mapping[str, StoredValue]) -> dict[str, Value] | None:
    """The values ``stored_values`` kept, as this card draws them today; None when the card
    no longer has those parameters or values (its answer cannot be re-judged as shown)."""
    if set(stored) != set(card.parameters):
        return None
    values: dict[str, Value] = {}
    for name, kept in stored.items():
        options = card.parameters[name].values()
        if isinstance(kept, dict):
            position = kept.get("option", -1)
            if not 0 <= position < len(options) or isinstance(options[position], int):
                return None
            values[name] = options[position]
        elif kept in options:
            values[name] = kept
        else:
            return None
    return values


def verdict_parameters(card: RulingCard) -> list[str]:
    """Parameters that can change the verdict: numbers used as facts, texts whose options set facts."""
    used = {entry.param for entry in card.facts.values() if isinstance(entry, FromParameter)}
    return [
        name
        for name, parameter in card.parameters.items()
        if name in used or any(isinstance(v, TextOption) and v.facts for v in parameter.choice or ())
    ]


def combination_count(card: RulingCard) -> int:
    """How many value combinations ``fact_combinations`` yields."""
    return math.prod(len(card.parameters[name].values()) for name in verdict_parameters(card))


def fact_combinations(card: RulingCard) -> Iterator[dict[str, Value]]:
    """Every combination of the values of the verdict parameters (one empty one if none)."""
    names = verdict_parameters(card)
    for combination in itertools.product(*(card.parameters[name].values() for name in names)):
        yield dict(zip(names, combination))


def possible_facts(card: RulingCard) -> Iterator[dict[str, FactValue]]:
    """The card's facts under every combination of ``fact_combinations``."""
    for values in fact_combinations(card):
        yield card_facts(card, values)


def drawn_facts(card: RulingCard, showing: CardShowing) -> dict[str, FactValue]:
    """The facts of a showing that came from its drawn values (empty for a plain card)."""
    names = [name for name, entry in card.facts.items() if isinstance(entry, FromParameter)]
    for value in showing.values.values():
        if isinstance(value, TextOption):
            names += list(value.facts)
    return {name: showing.facts[name] for name in dict.fromkeys(names)}


def describe_values(values: Mapping[str, Value], language: str = "en") -> str:
    """Drawn values for messages, e.g. ``minutes=7, player=Sato``."""
    return ", ".join(f"{name}={value_text(value, language)}" for name, value in values.items())


def range_text(parameter: Parameter, language: str) -> str:
    """Every value a parameter can take, in short: ``1–20`` or ``Sato/Suzuki``."""
    if parameter.between is not None:
        return f"{parameter.between[0]}–{parameter.between[1]}"
    return "/".join(value_text(value, language) for value in parameter.values())


def list_title(card: AnyCard) -> Text:
    """A card's title where no showing is at hand (lists of cards): placeholders show their ranges."""
    parameters: dict[str, Parameter] = getattr(card, "parameters", {})  # only scenario cards draw values
    if not parameters:
        return card.title
    ranges = {lang: {name: range_text(p, lang) for name, p in parameters.items()} for lang in LANGUAGES}
    return Text(**{lang: fill(card.title.get(lang), ranges[lang]) for lang in LANGUAGES})
