"""Structured conditions over facts, parsed once into predicates; never evaluated as code.

A condition is a mapping. Each key is a fact name, tested against a literal value
(equality) or a comparison mapping (``{gte: 5, lt: 10}``); all keys must hold. The keys
``all`` and ``any`` take lists of conditions, ``not`` takes one condition.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Mapping

from quiz.facts import FactSpec

Facts = Mapping[str, Any]
Predicate = Callable[[Facts], bool]

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}
LOGIC_KEYS = ("all", "any", "not")


class ConditionError(ValueError):
    """A condition that cannot be parsed; ``path`` locates it inside the condition."""

    def __init__(self, message: str, path: tuple[str | int, ...] = ()):
        self.path = path
        super().__init__(message)


def parse_condition(raw: Any, facts: Mapping[str, FactSpec]) -> Predicate:
    """Parse ``raw`` into a predicate over resolved facts, checking names and types."""
    return _parse(raw, facts, ())


def _parse(raw: Any, facts: Mapping[str, FactSpec], path: tuple[str | int, ...]) -> Predicate:
    if not isinstance(raw, Mapping) or not raw:
        raise ConditionError("a condition must be a non-empty mapping", path)
    parts = [_parse_key(str(key), value, facts, path + (str(key),)) for key, value in raw.items()]
    if len(parts) == 1:
        return parts[0]
    return lambda f: all(part(f) for part in parts)


def _parse_key(key: str, value: Any, facts: Mapping[str, FactSpec], path: tuple) -> Predicate:
    if key in ("all", "any"):
        if not isinstance(value, list) or not value:
            raise ConditionError(f"{key} takes a non-empty list of conditions", path)
        parts = [_parse(item, facts, path + (i,)) for i, item in enumerate(value)]
        combine = all if key == "all" else any
        return lambda f: combine(part(f) for part in parts)
    if key == "not":
        inner = _parse(value, facts, path)
        return lambda f: not inner(f)
    spec = facts.get(key)
    if spec is None:
        raise ConditionError(f"unknown fact {key!r}", path)
    if isinstance(value, Mapping):
        return _parse_comparison(spec, value, path)
    _check_literal(spec, value, path)
    return lambda f: f.get(key) == value


def _parse_comparison(spec: FactSpec, value: Mapping, path: tuple) -> Predicate:
    tests: list[tuple[Callable[[Any, Any], bool], Any]] = []
    for op_name, operand in value.items():
        compare = COMPARISONS.get(str(op_name))
        if compare is None:
            raise ConditionError(
                f"unknown comparison {op_name!r}; use one of {', '.join(COMPARISONS)}", path
            )
        if spec.type == "bool" and op_name not in ("eq", "ne"):
            raise ConditionError(f"{spec.id} is true/false; only eq and ne apply", path)
        _check_literal(spec, operand, path + (str(op_name),))
        tests.append((compare, operand))
    if not tests:
        raise ConditionError("a comparison needs at least one operator", path)
    name = spec.id

    def predicate(f: Facts) -> bool:
        actual = f.get(name)
        return actual is not None and all(compare(actual, operand) for compare, operand in tests)

    return predicate


def _check_literal(spec: FactSpec, value: Any, path: tuple) -> None:
    if spec.type == "bool" and not isinstance(value, bool):
        raise ConditionError(f"{spec.id} is true/false, not {value!r}", path)
    if spec.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConditionError(f"{spec.id} is a whole number, not {value!r}", path)


def condition_facts(raw: Any) -> set[str]:
    """The fact names a (valid) condition mentions."""
    if not isinstance(raw, Mapping):
        return set()
    names: set[str] = set()
    for key, value in raw.items():
        if key in ("all", "any") and isinstance(value, list):
            for item in value:
                names |= condition_facts(item)
        elif key == "not":
            names |= condition_facts(value)
        else:
            names.add(str(key))
    return names
