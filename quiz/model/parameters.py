"""Models of card parameters: the values a variant card draws afresh for each showing.

A parameter is an inclusive range of whole numbers (``between: [1, 20]``), a choice of
numbers (``choice: [0, 2, 3]``) or a choice of bilingual texts (``choice: [{ja: 佐藤, en:
Sato}, ...]``); a text option may also set facts (``facts: {identifiable: false}``). A fact
takes a number parameter's value with ``{param: name}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Discriminator, Field, StrictInt, Tag, model_validator

from quiz.model.errors import InvalidContentError
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording

# Tags of the YAML shapes the unions below tell apart. The loader leaves these names out of
# error locations (they are pydantic's union members), so a problem reads ``facts.minutes_late``.
NUMBER_TAG = "int"
MAPPING_TAG = "dict"
PARAMETER_NAME = r"^[a-z][a-z0-9_]*$"
MAX_RANGE = 1000


def _yaml_shape(value: Any) -> str:
    return MAPPING_TAG if isinstance(value, (dict, BaseModel)) else NUMBER_TAG


class TextOption(Text):
    """One option of a choice of texts; choosing it may also set facts."""

    facts: dict[str, bool | int] = Field(
        default_factory=dict, description="Facts this option sets, e.g. {identifiable: false}"
    )


ChoiceItem = Annotated[
    Annotated[StrictInt, Tag(NUMBER_TAG)] | Annotated[TextOption, Tag(MAPPING_TAG)],
    Discriminator(_yaml_shape),
]


class Parameter(StrictModel):
    """A value drawn for each showing: ``between: [low, high]`` or ``choice: [...]``."""

    model_config = StrictModel.model_config | {
        "json_schema_extra": {"oneOf": [{"required": ["between"]}, {"required": ["choice"]}]}
    }

    between: tuple[StrictInt, StrictInt] | None = Field(
        default=None, description="Whole numbers from low to high, both included, e.g. [1, 20]"
    )
    choice: list[ChoiceItem] | None = Field(
        default=None, min_length=2,
        description="Numbers, or texts {ja, en} (each may set facts); one is drawn per showing",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Parameter:
        if (self.between is None) == (self.choice is None):
            raise InvalidContentError(Wording("problem.parameter.one_kind"))
        if self.between is not None:
            low, high = self.between
            if low >= high:
                raise InvalidContentError(Wording("problem.parameter.bounds", low=low, high=high))
            if high - low > MAX_RANGE:
                raise InvalidContentError(Wording("problem.parameter.range_too_wide", most=MAX_RANGE))
        elif len({isinstance(item, int) for item in self.choice or ()}) > 1:
            raise InvalidContentError(Wording("problem.parameter.mixed_choice"))
        return self

    @property
    def is_number(self) -> bool:
        """Whether the values are numbers (so they may be fact values)."""
        return self.between is not None or all(isinstance(item, int) for item in self.choice or ())

    def values(self) -> range | list[int | TextOption]:
        """Every value the parameter can take, in order."""
        if self.between is not None:
            return range(self.between[0], self.between[1] + 1)
        return list(self.choice or ())


class FromParameter(StrictModel):
    """A fact whose value is drawn: ``{param: minutes}`` takes the number parameter's value."""

    param: str = Field(pattern=PARAMETER_NAME, description="A number parameter of this card")


FactEntry = Annotated[
    Annotated[bool | int, Tag(NUMBER_TAG)] | Annotated[FromParameter, Tag(MAPPING_TAG)],
    Discriminator(_yaml_shape),
]
ParameterName = Annotated[str, Field(pattern=PARAMETER_NAME)]
