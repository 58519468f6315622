"""Fact specifications and the checking of a scenario's facts against them."""

from __future__ import annotations

from typing import Any, Literal, Mapping

from pydantic import Field, model_validator

from quiz.model.errors import FactError, InvalidContentError
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording

FactValue = bool | int


AMOUNT = "{amount}"  # where a whole-number fact's phrase puts the amount, e.g. "5 or more minutes"


class FindingQuestion(StrictModel):
    """How a fact is asked when a card makes it a finding (CONTENT.md revision 3).

    ``telltales`` are the document's words for the fact and their English equivalents: a
    card that asks the fact may not use them in its situation outside a quotation, or it
    would hand the trainee the conclusion.
    """

    question: Text
    telltales: list[str] = Field(min_length=1)


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
