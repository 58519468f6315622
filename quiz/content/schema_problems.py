"""pydantic's validation errors as located, worded content problems: each at the line of its
field in the file (``path:line: field: message``), said in the reader's language where the
string tables word the error's type, in pydantic's English otherwise."""

from __future__ import annotations

from typing import Iterable

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from quiz.content.ruleset_checks import Finding
from quiz.content.yaml_source import locate
from quiz.model.cards import CARD_KINDS
from quiz.model.errors import Problem, QuizError
from quiz.model.words import Wording

UNION_MEMBERS = frozenset({"bool", "int", "str", "float", "list", "dict", "none"})
# pydantic's error types worded in the string tables (``problem.schema.<type>``, with the
# error's context as values); any other type is said in pydantic's English, untranslated.
SCHEMA_ERRORS = frozenset({
    "missing", "extra_forbidden", "value_error", "model_type", "model_attributes_type", "dataclass_type",
    "none_required", "string_type", "string_too_short", "string_too_long", "string_pattern_mismatch",
    "int_type", "int_parsing", "int_from_float", "float_type", "float_parsing", "bool_type", "bool_parsing",
    "list_type", "tuple_type", "dict_type", "set_type", "too_short", "too_long", "literal_error", "enum",
    "greater_than", "greater_than_equal", "less_than", "less_than_equal", "multiple_of",
    "union_tag_invalid", "union_tag_not_found",
})
COUNTED = {"min_length": "count", "max_length": "count"}  # context values an English plural hangs on
FIELD_TYPES = frozenset({"List", "Tuple", "Set", "Frozenset", "Dictionary", "Value"})  # too_short's and too_long's


def located_problems(shown: str, text: str, prefix: tuple, findings: Iterable[Finding]) -> list[Problem]:
    """(location, wording) findings as problems naming the line of each location in ``text``."""
    return [
        Problem(shown, locate(text, prefix + tuple(loc)), _field_name(prefix + tuple(loc)), wording)
        for loc, wording in findings
    ]


def _field_name(loc: tuple) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or "file"


def pydantic_findings(error: ValidationError) -> list[Finding]:
    """A validation error as (location, wording) findings, one per distinct field."""
    findings: list[Finding] = []
    seen: set[tuple] = set()
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        if loc and loc[0] in CARD_KINDS:
            loc = loc[1:]  # the tag pydantic adds for the card kind
        loc = tuple(part for part in loc if part not in UNION_MEMBERS)  # union members tried
        if loc in seen:
            continue
        seen.add(loc)
        findings.append((loc, schema_wording(item)))
    return findings


def schema_wording(item: ErrorDetails) -> Wording:
    """One of pydantic's errors as a wording: ``problem.schema.<type>`` for a type in
    ``SCHEMA_ERRORS``, its context as the values; a validator's own error (``value_error``)
    with that error's wording; any other type in pydantic's English, untranslated."""
    kind, context = item["type"], item.get("ctx", {})
    if kind not in SCHEMA_ERRORS:
        return Wording.untranslated(item["msg"])
    if kind == "value_error":
        cause = context.get("error")
        return Wording("problem.schema.value_error", error=cause.wording if isinstance(cause, QuizError)
                       else Wording.untranslated(str(cause)))
    if kind == "too_long" and context.get("actual_length") is None:  # a collection not counted to its end
        kind, context = "too_long_more", {k: v for k, v in context.items() if k != "actual_length"}
    values: dict[str, object] = {}
    for name, value in context.items():
        if name == "field_type" and value in FIELD_TYPES:
            value = Wording(f"problem.schema.field_type.{value}")
        elif name == "expected" and " or " in str(value):  # "'a', 'b' or 'c'"
            items, _, last = str(value).rpartition(" or ")
            value = Wording("problem.schema.either", items=items, last=last)
        values[COUNTED.get(name, name)] = value
    return Wording(f"problem.schema.{kind}", **values)
