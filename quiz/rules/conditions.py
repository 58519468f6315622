"""Structured conditions over facts, parsed once into a small typed tree; never evaluated as code.

A condition is a mapping. Each key is a fact name, tested against a literal value
(equality) or a comparison mapping (``{gte: 5, lt: 10}``); all keys must hold. The keys
``all`` and ``any`` take lists of conditions, ``not`` takes one condition.

The tree both evaluates (``holds``) and describes itself as a sentence in either language
(``describe``, from the wording each fact declares, never a formula), and says which
facts it reads and at which values its answer can change (``cut_points``), which is what
lets the engine answer "under which facts" questions exactly.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from quiz.model.errors import ConditionError, unknown_id
from quiz.model.facts import FactSpec, FactValue
from quiz.model.words import Wording, template

Facts = Mapping[str, Any]

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}
COMPLEMENTS = {"eq": "ne", "ne": "eq", "gt": "lte", "lte": "gt", "gte": "lt", "lt": "gte"}
# How a whole-number fact's amount is said, and the words that join clauses: templates of the
# string tables (``condition.amount.<kind>``, ``condition.<word>``), filled by ``replace``
# (``{unit}`` is the fact's unit, or nothing), since a clause may itself hold braces.
AMOUNT_KINDS = ("exactly", "or_more", "fewer_than", "range", "other_than")


def condition_word(key: str, language: str) -> str:
    """The template ``condition.<key>`` of the string table of ``language``, as written."""
    return template(f"condition.{key}", language)


Specs = Mapping[str, FactSpec]


class Condition:
    """A node of a parsed condition."""

    def holds(self, facts: Facts) -> bool:
        raise NotImplementedError

    def describe(self, specs: Specs, language: str) -> str:
        """The condition as a sentence, from the facts' declared wording, e.g. ``The player was
        5 or more minutes late after the call`` / ``集合時間から5分以上遅れていた``."""
        return sentence(self.words(specs, language), language)

    def words(self, specs: Specs, language: str, nested: bool = False) -> str:
        """The condition as a clause (``nested``: inside another ``all``/``any``, so grouped)."""
        raise NotImplementedError

    def facts(self) -> frozenset[str]:
        """The fact names the condition reads."""
        raise NotImplementedError

    def cut_points(self) -> dict[str, set[int]]:
        """For each whole-number fact, the values at which the condition's answer can change."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Test(Condition):
    """One fact against one comparison: ``minutes_late >= 5``, ``intentional == true``."""

    fact: str
    op: str
    operand: bool | int

    def holds(self, facts: Facts) -> bool:
        actual = facts.get(self.fact)
        return actual is not None and COMPARISONS[self.op](actual, self.operand)

    def words(self, specs: Specs, language: str, nested: bool = False) -> str:
        spec = specs.get(self.fact)
        if isinstance(self.operand, bool):
            return fact_clause(spec, self.fact, self.operand if self.op == "eq" else not self.operand, language)
        if self.op == "ne":
            return _amount_clause(spec, self.fact, _amount("other_than", self.operand, spec, language), language)
        low, high = self.span()
        return span_clause(spec, self.fact, low, high, language)

    def span(self) -> tuple[int | None, int | None]:
        """The whole numbers the test holds for, (low, high), either end None for open."""
        n = int(self.operand)
        return {"eq": (n, n), "gte": (n, None), "gt": (n + 1, None), "lte": (None, n), "lt": (None, n - 1)}[self.op]

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

    def words(self, specs: Specs, language: str, nested: bool = False) -> str:
        clauses = _clauses(_flat(self.parts, All), specs, language)
        return _joined(clauses, "and", language, nested)

    def facts(self) -> frozenset[str]:
        return frozenset().union(*(part.facts() for part in self.parts))

    def cut_points(self) -> dict[str, set[int]]:
        return _merge_cuts(self.parts)


@dataclass(frozen=True, slots=True)
class Any_(Condition):
    parts: tuple[Condition, ...]

    def holds(self, facts: Facts) -> bool:
        return any(part.holds(facts) for part in self.parts)

    def words(self, specs: Specs, language: str, nested: bool = False) -> str:
        clauses = list(dict.fromkeys(p.words(specs, language, nested=True) for p in _flat(self.parts, Any_)))
        return _joined(clauses, "or", language, nested)

    def facts(self) -> frozenset[str]:
        return frozenset().union(*(part.facts() for part in self.parts))

    def cut_points(self) -> dict[str, set[int]]:
        return _merge_cuts(self.parts)


@dataclass(frozen=True, slots=True)
class Not(Condition):
    part: Condition

    def holds(self, facts: Facts) -> bool:
        return not self.part.holds(facts)

    def words(self, specs: Specs, language: str, nested: bool = False) -> str:
        return negate(self.part).words(specs, language, nested)

    def facts(self) -> frozenset[str]:
        return self.part.facts()

    def cut_points(self) -> dict[str, set[int]]:
        return self.part.cut_points()


def negate(condition: Condition) -> Condition:
    """The condition that holds exactly when ``condition`` does not, without a ``Not`` at the
    top (De Morgan's laws; a test takes its complementary comparison)."""
    if isinstance(condition, Test):
        return Test(condition.fact, COMPLEMENTS[condition.op], condition.operand)
    if isinstance(condition, All):
        return Any_(tuple(negate(part) for part in condition.parts))
    if isinstance(condition, Any_):
        return All(tuple(negate(part) for part in condition.parts))
    if isinstance(condition, Not):
        return condition.part
    raise TypeError(f"not a condition: {condition!r}")


def sentence(clause: str, language: str) -> str:
    """A clause as a sentence: in English, its first letter a capital."""
    return clause[:1].upper() + clause[1:] if language == "en" else clause


def fact_clause(spec: FactSpec | None, fact: str, value: FactValue, language: str) -> str:
    """A fact with a value in words: a true/false fact by its phrase or negation, a number as
    exactly that many."""
    if isinstance(value, bool):
        wording = (spec.phrase if value else spec.negation) if spec is not None else None
        if wording is not None:
            return wording.get(language)
        answer = condition_word("yes" if value else "no", language)
        return _named(spec, fact, answer, language)
    return span_clause(spec, fact, value, value, language)


def span_clause(spec: FactSpec | None, fact: str, low: int | None, high: int | None, language: str) -> str:
    """A whole-number fact between ``low`` and ``high`` (inclusive; None for no end) in words."""
    floor = spec.min if spec is not None else None
    open_below = low is None or (floor is not None and low <= floor)
    if high is not None and (low == high or (open_below and floor is not None and high <= floor)):
        if high == 0 and spec is not None and spec.phrase_none is not None:
            return spec.phrase_none.get(language)
        amount = _amount("exactly", high, spec, language)
    elif high is None:
        amount = _amount("or_more", low if low is not None else (floor or 0), spec, language)
    elif open_below or low is None:
        amount = _amount("fewer_than", high + 1, spec, language)
    else:
        amount = _amount("range", (low, high), spec, language)
    return _amount_clause(spec, fact, amount, language)


def _amount(kind: str, n: int | tuple[int, int], spec: FactSpec | None, language: str) -> str:
    one = n == 1 and kind == "exactly"
    unit = ""
    if spec is not None and spec.unit is not None:
        unit = spec.unit_one if one and language == "en" and spec.unit_one else spec.unit.get(language)
    pattern = condition_word(f"amount.{kind}", language)
    if isinstance(n, tuple):
        text = pattern.replace("{low}", str(n[0])).replace("{high}", str(n[1]))
    else:
        text = pattern.replace("{n}", str(n))
    return text.replace("{unit}", unit).strip()


def _amount_clause(spec: FactSpec | None, fact: str, amount: str, language: str) -> str:
    if spec is not None and spec.phrase is not None:
        return spec.phrase.get(language).replace("{amount}", amount)
    return _named(spec, fact, amount, language)


def _named(spec: FactSpec | None, fact: str, value: str, language: str) -> str:
    name = spec.name.get(language) if spec is not None else fact
    return condition_word("named", language).replace("{name}", name).replace("{value}", value)


def _flat(parts: tuple[Condition, ...], kind: type) -> list[Condition]:
    """``parts`` with the parts of nested nodes of the same ``kind`` lifted up."""
    found: list[Condition] = []
    for part in parts:
        found += _flat(part.parts, kind) if isinstance(part, kind) else [part]  # type: ignore[attr-defined]
    return found


def _clauses(parts: list[Condition], specs: Specs, language: str) -> list[str]:
    """The clauses of conjoined ``parts``: the tests of one whole-number fact said once, as the
    numbers all of them allow (``5 to 9 minutes``), each clause once."""
    spans: dict[str, tuple[int | None, int | None]] = {}
    for part in parts:
        if isinstance(part, Test) and not isinstance(part.operand, bool) and part.op != "ne":
            low, high = spans.get(part.fact, (None, None))
            new_low, new_high = part.span()
            spans[part.fact] = (
                new_low if low is None else (low if new_low is None else max(low, new_low)),
                new_high if high is None else (high if new_high is None else min(high, new_high)),
            )
    clauses: list[str] = []
    said: set[str] = set()
    for part in parts:
        if isinstance(part, Test) and part.fact in spans:
            if part.fact in said:
                continue
            said.add(part.fact)
            low, high = spans[part.fact]
            clauses.append(span_clause(specs.get(part.fact), part.fact, low, high, language))
        else:
            clauses.append(part.words(specs, language, nested=True))
    return list(dict.fromkeys(clauses))


def _joined(clauses: list[str], word: str, language: str, nested: bool) -> str:
    if len(clauses) == 1:
        return clauses[0]
    if nested:
        if len(clauses) == 2 and language == "en":
            pair = condition_word("both" if word == "and" else "either", language)
            return pair.replace("{first}", clauses[0]).replace("{second}", clauses[1])
        items = condition_word("item_separator", language).join(clauses)
        return condition_word("all_of" if word == "and" else "any_of", language).replace("{items}", items)
    head = condition_word(f"{word}_list", language).join(clauses[:-1])
    return head + condition_word(f"{word}_last", language) + clauses[-1]


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
        raise ConditionError(Wording("problem.condition.not_mapping"), path)
    parts = tuple(_parse_key(str(key), value, facts, path + (str(key),)) for key, value in raw.items())
    return parts[0] if len(parts) == 1 else All(parts)


def _parse_key(key: str, value: Any, facts: Mapping[str, FactSpec], path: tuple[str | int, ...]) -> Condition:
    if key in ("all", "any"):
        if not isinstance(value, list) or not value:
            raise ConditionError(Wording("problem.condition.needs_list", operator=key), path)
        parts = tuple(_parse(item, facts, path + (i,)) for i, item in enumerate(value))
        return All(parts) if key == "all" else Any_(parts)
    if key == "not":
        return Not(_parse(value, facts, path))
    spec = facts.get(key)
    if spec is None:
        raise ConditionError(unknown_id("fact", key), path)
    if not isinstance(value, Mapping):
        _check_literal(spec, value, path)
        return Test(key, "eq", value)
    if not value:
        raise ConditionError(Wording("problem.condition.no_operator"), path)
    tests: list[Condition] = []
    for op_name, operand in value.items():
        op = str(op_name)
        if op not in COMPARISONS:
            raise ConditionError(Wording("problem.condition.unknown_comparison", comparison=repr(op),
                                             known=", ".join(COMPARISONS)), path)
        if spec.type == "bool" and op not in ("eq", "ne"):
            raise ConditionError(Wording("problem.condition.bool_comparison", fact=spec.id), path)
        _check_literal(spec, operand, path + (op,))
        tests.append(Test(key, op, operand))
    return tests[0] if len(tests) == 1 else All(tuple(tests))


def _check_literal(spec: FactSpec, value: Any, path: tuple[str | int, ...]) -> None:
    if spec.type == "bool" and not isinstance(value, bool):
        raise ConditionError(Wording("problem.condition.not_bool", fact=spec.id, value=repr(value)), path)
    if spec.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConditionError(Wording("problem.condition.not_number", fact=spec.id, value=repr(value)), path)
