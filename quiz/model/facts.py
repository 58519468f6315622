"""Fact specifications and the checking of a scenario's facts against them."""

from __future__ import annotations

import re
from typing import Any, Literal, Mapping

from pydantic import Field, model_validator

from quiz.model.errors import FactError, InvalidContentError
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording

FactValue = bool | int


AMOUNT = "{amount}"  # where a whole-number fact's phrase puts the amount, e.g. "5 or more minutes"


class Telltales(StrictModel):
    """Words a situation may not use outside a quotation, one list per language: the
    Japanese list is checked against the Japanese text, the English list against the
    English text, each on its own.

    Each entry is a regular expression (most are plain words), matched after NFKC
    normalisation and case folding, e.g. ``\\bknock(?!\\w* out)`` for "knocked" but not
    "knocked out".
    """

    ja: list[str] = Field(min_length=1)
    en: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _patterns_compile(self) -> Telltales:
        for word in self.ja + self.en:
            try:
                re.compile(word)
            except re.error as error:
                raise InvalidContentError(Wording("problem.fact.telltale_pattern", word=word,
                                                  reason=str(error))) from None
        return self

    def get(self, language: str) -> list[str]:
        """The list that checks text in ``language``."""
        return self.ja if language == "ja" else self.en


class FindingQuestion(StrictModel):
    """How a fact is asked when a card makes it a finding (CONTENT.md revisions 3 and 4).

    ``telltales`` are the document's words for the fact (``ja``) and their English
    equivalents (``en``); ``narration`` the words that narrate the finding instead of
    showing it: a slip or a plan (てしまった, 拍子に, slipped, in order to), or the finding
    stated as a result (「どれか分からない」, "nobody can tell which card"). A card that asks
    the fact may use neither in its situation outside a quotation, or it would hand the
    trainee the conclusion.
    """

    question: Text
    telltales: Telltales
    narration: Telltales | None = Field(
        default=None, description="Words that narrate a slip, a plan or a result, per language"
    )

    def words(self, language: str) -> list[str]:
        """Every word that gives the finding away in ``language``: the document's, then the
        narrator's."""
        return self.telltales.get(language) + (self.narration.get(language) if self.narration else [])


class FactSpec(StrictModel):
    """A fact a scenario may state: its type, default and meaning, and how to say it.

    The wording fields let explanations read as sentences instead of formulas (each is
    optional; without them a fact is shown as ``name: value``):

    - ``phrase``: the fact holding, as a clause (``done on purpose``); for a whole-number
      fact it holds ``{amount}`` (``the player was {amount} late after the call``).
    - ``negation``: a true/false fact not holding (``not done on purpose``).
    - ``unit``: a whole-number fact's unit (``{ja: 分, en: minutes}``), with ``unit_one``
      the English singular (``minute``).
    - ``phrase_none``: a whole-number fact at zero (``the player was not late``).
    """

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    type: Literal["bool", "int"]
    default: FactValue | None = None
    min: int | None = None
    name: Text
    phrase: Text | None = None
    negation: Text | None = None
    unit: Text | None = None
    unit_one: str | None = Field(default=None, min_length=1)
    phrase_none: Text | None = None
    finding: FindingQuestion | None = Field(
        default=None, description="Set on every fact a scenario card may ask the trainee to establish"
    )

    @model_validator(mode="after")
    def _default_matches_type(self) -> FactSpec:
        if self.default is not None and coerce_value(self, self.default) != self.default:
            raise InvalidContentError(Wording("problem.fact.default_type", default=repr(self.default), type=self.type))
        return self

    @model_validator(mode="after")
    def _wording_matches_type(self) -> FactSpec:
        problems = []
        if self.type == "bool":
            problems += [Wording("problem.fact.only_for_numbers", field=name)
                         for name in ("unit", "unit_one", "phrase_none") if getattr(self, name) is not None]
            if self.phrase is not None and AMOUNT in self.phrase.ja + self.phrase.en:
                problems.append(Wording("problem.fact.bool_phrase_amount", amount=AMOUNT))
        else:
            if self.negation is not None:
                problems.append(Wording("problem.fact.negation_only_bool"))
            if self.phrase is not None and not (AMOUNT in self.phrase.ja and AMOUNT in self.phrase.en):
                problems.append(Wording("problem.fact.number_phrase_amount", amount=AMOUNT))
        if problems:
            raise InvalidContentError(Wording.joined(problems))
        return self


def coerce_value(spec: FactSpec, value: Any) -> FactValue:
    """Turn ``value`` into the fact's type, accepting the spellings a command line uses."""
    kind = type(value)
    if kind is bool and spec.type == "bool":
        return value
    if kind is int and spec.type == "int" and (spec.min is None or value >= spec.min):
        return value
    if spec.type == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "1"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "no", "0"):
            return False
        raise FactError(Wording("problem.fact.not_bool", fact=spec.id, value=repr(value)), spec.id)
    if isinstance(value, bool):
        raise FactError(Wording("problem.fact.not_number", fact=spec.id, value=repr(value)), spec.id)
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        number = int(value)
    else:
        raise FactError(Wording("problem.fact.not_number", fact=spec.id, value=repr(value)), spec.id)
    if spec.min is not None and number < spec.min:
        raise FactError(Wording("problem.fact.below_min", fact=spec.id, min=spec.min, value=number), spec.id)
    return number


def unknown_fact(name: str, specs: Mapping[str, FactSpec]) -> Wording:
    """``unknown fact 'x'; known facts: a, b``."""
    return Wording("problem.fact.unknown", fact=repr(name), known=", ".join(sorted(specs)))


def resolve_facts(
    specs: Mapping[str, FactSpec],
    given: Mapping[str, Any],
    required: tuple[str, ...] | list[str] = (),
    defaults: Mapping[str, FactValue] | None = None,
) -> dict[str, FactValue]:
    """Check ``given`` facts and fill in defaults (``defaults`` over the specs' own); raise
    FactError on the first problem."""
    unknown = sorted(name for name in given if name not in specs)
    if unknown:
        raise FactError(unknown_fact(unknown[0], specs), unknown[0])
    missing = [name for name in required if name not in given]
    if missing:
        raise FactError(Wording("problem.fact.required", fact=missing[0]), missing[0])
    resolved: dict[str, FactValue] = {
        name: spec.default for name, spec in specs.items() if spec.default is not None
    }
    resolved.update(defaults or {})
    for name, value in given.items():
        resolved[name] = coerce_value(specs[name], value)
    return resolved
