"""Structured conditions over facts, parsed once into a small typed tree; never evaluated as code.

A condition is a mapping. Each key is a fact name, tested against a literal value
(equality) or a comparison mapping (``{gte: 5, lt: 10}``); all keys must hold. The keys
``all`` and ``any`` take lists of conditions, ``not`` takes one condition.

The tree both evaluates (``holds``) and describes itself (``describe``), and says which
facts it reads and at which values its answer can change (``cut_points``), which is what
lets the engine answer "under which facts" questions exactly.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from quiz.model.errors import ConditionError
from quiz.model.facts import FactSpec
from quiz.model.text import Text

Facts = Mapping[str, Any]

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}
SYMBOLS = {"eq": "=", "ne": "≠", "gt": ">", "gte": "≥", "lt": "<", "lte": "≤"}
WORDS = {
    "yes": Text(ja="はい", en="yes"),
    "no": Text(ja="いいえ", en="no"),
    "and": Text(ja="かつ", en="and"),
    "or": Text(ja="または", en="or"),
    "not": Text(ja="次ではない", en="not"),
}


class Condition:
    """A node of a parsed condition."""

    def holds(self, facts: Facts) -> bool:
        raise NotImplementedError

    def describe(self, names: Mapping[str, str], language: str) -> str:
        """The condition in words, e.g. ``Minutes late after the call ≥ 5``."""
        raise NotImplementedError

    def facts(self) -> frozenset[str]:
        """The fact names the condition reads."""
        raise NotImplementedError

    def cut_points(self) -> dict[str, set[int]]:
        """For each whole-number fact, the values at which the condition's answer can change."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Test(Condition):
    """One fact against one comparison: ``minutes_late ≥ 5``, ``intentional = true``."""

    fact: str
    op: str
    operand: bool | int

    def holds(self, facts: Facts) -> bool:
        actual = facts.get(self.fact)
        return actual is not None and COMPARISONS[self.op](actual, self.operand)

    def describe(self, names: Mapping[str, str], language: str) -> str:
        name = names.get(self.fact, self.fact)
        if isinstance(self.operand, bool):
            value = self.operand if self.op == "eq" else not self.operand
            return f"{name}: {WORDS['yes' if value else 'no'].get(language)}"
        return f"{name} {SYMBOLS[self.op]} {self.operand}"

    def facts(self) -> frozenset[str]:
        return frozenset((self.fact,))

    def cut_points(self) -> dict[str, set[int]]:
        if isinstance(self.operand, bool):
            return {}
        # the first value of each interval on which the answer is constant
        starts = {"gte": {self.operand}, "lt": {self.operand}, "gt": {self.operand + 1}, "lte": {self.operand + 1}}
        return {self.fact: starts.get(self.op, {self.operand, self.operand + 1})}


@dataclass(frozen=True, slots=True)
class All(Condition):
    parts: tuple[Condition, ...]

    def holds(self, facts: Facts) -> bool:
        return all(part.holds(facts) for part in self.parts)

    def describe(self, names: Mapping[str, str], language: str) -> str:
        return _join(self.parts, "and", names, language)

    def facts(self) -> frozenset[str]:
        return frozenset().union(*(part.facts() for part in self.parts))

    def cut_points(self) -> dict[str, set[int]]:
        return _merge_cuts(self.parts)


@dataclass(frozen=True, slots=True)
class Any_(Condition):
    parts: tuple[Condition, ...]

    def holds(self, facts: Facts) -> bool:
        return any(part.holds(facts) for part in self.parts)

    def describe(self, names: Mapping[str, str], language: str) -> str:
        text = _join(self.parts, "or", names, language)
        return f"({text})" if len(self.parts) > 1 else text

    def facts(self) -> frozenset[str]:
        return frozenset().union(*(part.facts() for part in self.parts))

    def cut_points(self) -> dict[str, set[int]]:
        return _merge_cuts(self.parts)


@dataclass(frozen=True, slots=True)
class Not(Condition):
    part: Condition

    def holds(self, facts: Facts) -> bool:
        return not self.part.holds(facts)

    def describe(self, names: Mapping[str, str], language: str) -> str:
        return f"{WORDS['not'].get(language)}: ({self.part.describe(names, language)})"

    def facts(self) -> frozenset[str]:
        return self.part.facts()

    def cut_points(self) -> dict[str, set[int]]:
        return self.part.cut_points()


def _join(parts: tuple[Condition, ...], word: str, names: Mapping[str, str], language: str) -> str:
    return f" {WORDS[word].get(language)} ".join(part.describe(names, language) for part in parts)


def _merge_cuts(parts: tuple[Condition, ...]) -> dict[str, set[int]]:
    merged: dict[str, set[int]] = {}
    for part in parts:
        for fact, points in part.cut_points().items():
            merged.setdefault(fact, set()).update(points)
    return merged


def parse_condition(raw: Any, facts: Mapping[str, FactSpec]) -> Condition:
    """Parse ``raw`` into a condition tree, checking fact names and types."""
    return _parse(raw, facts, ())


def _parse(raw: Any, facts: Mapping[str, FactSpec], path: tuple[str | int, ...]) -> Condition:
    if not isinstance(raw, Mapping) or not raw:
        raise ConditionError("a condition must be a non-empty mapping", path)
    parts = tuple(_parse_key(str(key), value, facts, path + (str(key),)) for key, value in raw.items())
    return parts[0] if len(parts) == 1 else All(parts)


def _parse_key(key: str, value: Any, facts: Mapping[str, FactSpec], path: tuple[str | int, ...]) -> Condition:
    if key in ("all", "any"):
        if not isinstance(value, list) or not value:
            raise ConditionError(f"{key} takes a non-empty list of conditions", path)
        parts = tuple(_parse(item, facts, path + (i,)) for i, item in enumerate(value))
        return All(parts) if key == "all" else Any_(parts)
    if key == "not":
        return Not(_parse(value, facts, path))
    spec = facts.get(key)
    if spec is None:
        raise ConditionError(f"unknown fact {key!r}", path)
    if not isinstance(value, Mapping):
        _check_literal(spec, value, path)
        return Test(key, "eq", value)
    if not value:
        raise ConditionError("a comparison needs at least one operator", path)
    tests: list[Condition] = []
    for op_name, operand in value.items():
        op = str(op_name)
        if op not in COMPARISONS:
            raise ConditionError(f"unknown comparison {op!r}; use one of {', '.join(COMPARISONS)}", path)
        if spec.type == "bool" and op not in ("eq", "ne"):
            raise ConditionError(f"{spec.id} is true/false; only eq and ne apply", path)
        _check_literal(spec, operand, path + (op,))
        tests.append(Test(key, op, operand))
    return tests[0] if len(tests) == 1 else All(tuple(tests))


def _check_literal(spec: FactSpec, value: Any, path: tuple[str | int, ...]) -> None:
    if spec.type == "bool" and not isinstance(value, bool):
        raise ConditionError(f"{spec.id} is true/false, not {value!r}", path)
    if spec.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConditionError(f"{spec.id} is a whole number, not {value!r}", path)
