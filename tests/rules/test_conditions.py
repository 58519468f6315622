"""The typed condition tree: parsing (errors located by path), evaluation, words, cut points."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.model.facts import FactSpec
from quiz.model.text import Text
from quiz.rules.conditions import All, Any_, ConditionError, Not, parse_condition
from quiz.rules.conditions import Test as Comparison  # not "Test*": pytest would try to collect it

FACTS = {
    spec.id: spec
    for spec in (
        FactSpec(id="late", type="int", min=0, name=Text(ja="遅れ（分）", en="Minutes late")),
        FactSpec(id="count", type="int", default=0, min=0, name=Text(ja="回数", en="Count")),
        FactSpec(id="wilful", type="bool", default=False, name=Text(ja="故意である", en="On purpose")),
        FactSpec(id="seen", type="bool", default=True, name=Text(ja="見えた", en="Seen")),
    )
}
NAMES_EN = {name: spec.name.en for name, spec in FACTS.items()}
NAMES_JA = {name: spec.name.ja for name, spec in FACTS.items()}


def parse(raw):
    return parse_condition(raw, FACTS)


# --- parsing ---------------------------------------------------------------------------------

def test_a_mapping_parses_into_the_tree():
    assert parse({"wilful": True}) == Comparison("wilful", "eq", True)
    assert parse({"late": {"gte": 5, "lt": 10}}) == All((Comparison("late", "gte", 5), Comparison("late", "lt", 10)))
    assert parse({"wilful": True, "late": 3}) == All((Comparison("wilful", "eq", True), Comparison("late", "eq", 3)))
    assert parse({"any": [{"wilful": True}, {"seen": False}]}) == Any_(
        (Comparison("wilful", "eq", True), Comparison("seen", "eq", False)))
    assert parse({"not": {"seen": True}}) == Not(Comparison("seen", "eq", True))


@pytest.mark.parametrize(
    ("raw", "path", "message"),
    [
        ({}, (), "non-empty mapping"),
        ([{"wilful": True}], (), "non-empty mapping"),
        ({"mood": True}, ("mood",), "unknown fact 'mood'"),
        ({"late": {"over": 3}}, ("late",), "unknown comparison 'over'"),
        ({"late": {}}, ("late",), "at least one operator"),
        ({"late": "soon"}, ("late",), "whole number"),
        ({"late": True}, ("late",), "whole number"),
        ({"late": {"gte": True}}, ("late", "gte"), "whole number"),
        ({"wilful": 1}, ("wilful",), "true/false"),
        ({"wilful": {"gte": 1}}, ("wilful",), "only eq and ne"),
        ({"wilful": {"ne": "no"}}, ("wilful", "ne"), "true/false"),
        ({"any": []}, ("any",), "non-empty list"),
        ({"all": {"wilful": True}}, ("all",), "non-empty list"),
        ({"all": [{"wilful": True}, {"late": {"over": 3}}]}, ("all", 1, "late"), "unknown comparison"),
        ({"any": [{"seen": True}, {"all": [{"count": 2}, {"pattern": True}]}]}, ("any", 1, "all", 1, "pattern"),
         "unknown fact 'pattern'"),
        ({"not": {"count": {"lt": "x"}}}, ("not", "count", "lt"), "whole number"),
        ({"not": {}}, ("not",), "non-empty mapping"),
    ],
)
def test_parse_errors_are_located(raw, path, message):
    with pytest.raises(ConditionError, match=message) as error:
        parse(raw)
    assert error.value.path == path


# --- evaluation --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("raw", "facts", "expected"),
    [
        ({"wilful": True}, {"wilful": True}, True),
        ({"wilful": True}, {"wilful": False}, False),
        ({"wilful": {"ne": True}}, {"wilful": False}, True),
        ({"late": {"gte": 5}}, {"late": 5}, True),
        ({"late": {"gte": 5}}, {"late": 4}, False),
        ({"late": {"gt": 5}}, {"late": 5}, False),
        ({"late": {"lt": 5}}, {"late": 4}, True),
        ({"late": {"lte": 5}}, {"late": 5}, True),
        ({"late": {"lte": 5}}, {"late": 6}, False),
        ({"late": 5}, {"late": 5}, True),
        ({"late": {"ne": 5}}, {"late": 5}, False),
        ({"late": {"gte": 5, "lt": 10}}, {"late": 9}, True),
        ({"late": {"gte": 5, "lt": 10}}, {"late": 10}, False),
        ({"any": [{"wilful": True}, {"seen": False}]}, {"wilful": False, "seen": False}, True),
        ({"any": [{"wilful": True}, {"seen": False}]}, {"wilful": False, "seen": True}, False),
        ({"all": [{"wilful": True}, {"seen": False}]}, {"wilful": True, "seen": True}, False),
        ({"not": {"seen": True}}, {"seen": True}, False),
        ({"wilful": True, "late": {"gte": 1}}, {"wilful": True, "late": 0}, False),
        # a fact that is not stated never satisfies a test, whatever the comparison
        ({"late": {"ne": 5}}, {}, False),
        ({"late": {"lt": 5}}, {}, False),
        ({"not": {"late": {"lt": 5}}}, {}, True),
    ],
)
def test_holds(raw, facts, expected):
    assert parse(raw).holds(facts) is expected


def test_facts_read():
    assert parse({"any": [{"wilful": True}, {"not": {"late": {"gte": 2}}}]}).facts() == frozenset({"wilful", "late"})
    assert parse({"count": 0}).facts() == frozenset({"count"})


# --- words ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("raw", "en", "ja"),
    [
        ({"wilful": True}, "On purpose: yes", "故意である: はい"),
        ({"wilful": False}, "On purpose: no", "故意である: いいえ"),
        ({"wilful": {"ne": True}}, "On purpose: no", "故意である: いいえ"),
        ({"late": {"gte": 5}}, "Minutes late ≥ 5", "遅れ（分） ≥ 5"),
        ({"late": {"lt": 10}}, "Minutes late < 10", "遅れ（分） < 10"),
        ({"late": 3}, "Minutes late = 3", "遅れ（分） = 3"),
        ({"late": {"gte": 5, "lt": 10}}, "Minutes late ≥ 5 and Minutes late < 10", "遅れ（分） ≥ 5 かつ 遅れ（分） < 10"),
        ({"any": [{"wilful": True}, {"seen": False}]}, "(On purpose: yes or Seen: no)", "(故意である: はい または 見えた: いいえ)"),
        ({"any": [{"wilful": True}]}, "On purpose: yes", "故意である: はい"),
        ({"not": {"seen": True}}, "not: (Seen: yes)", "次ではない: (見えた: はい)"),
    ],
)
def test_describe(raw, en, ja):
    condition = parse(raw)
    assert condition.describe(NAMES_EN, "en") == en
    assert condition.describe(NAMES_JA, "ja") == ja


def test_describe_without_a_name_uses_the_id():
    assert parse({"count": {"gt": 1}}).describe({}, "en") == "count > 1"


# --- cut points -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("op", "points"),
    [("gte", {5}), ("gt", {6}), ("lt", {5}), ("lte", {6}), ("eq", {5, 6}), ("ne", {5, 6})],
)
def test_cut_points_per_operator(op, points):
    assert parse({"late": {op: 5}}).cut_points() == {"late": points}


def test_cut_points_merge_and_skip_booleans():
    assert parse({"wilful": True}).cut_points() == {}
    condition = parse({"any": [{"late": {"gte": 10}}, {"all": [{"wilful": True}, {"late": {"lt": 5}}]},
                               {"not": {"count": {"gt": 1}}}]})
    assert condition.cut_points() == {"late": {5, 10}, "count": {2}}


OPS = st.sampled_from(["eq", "ne", "gt", "gte", "lt", "lte"])


@st.composite
def int_conditions(draw, depth=0):
    """A random condition over the whole-number fact ``late``."""
    kind = draw(st.sampled_from(["test", "test", "all", "any", "not"] if depth < 3 else ["test"]))
    if kind == "test":
        return {"late": {draw(OPS): draw(st.integers(0, 20))}}
    if kind == "not":
        return {"not": draw(int_conditions(depth + 1))}
    return {kind: draw(st.lists(int_conditions(depth + 1), min_size=1, max_size=3))}


@settings(max_examples=300, deadline=None)
@given(int_conditions(), st.integers(0, 40), st.integers(0, 40))
def test_the_answer_is_constant_between_cut_points(raw, first, second):
    """What the outcome queries rely on: two values with no cut point in (low, high] agree."""
    condition = parse(raw)
    low, high = sorted((first, second))
    points = condition.cut_points().get("late", set())
    if not any(low < p <= high for p in points):
        assert condition.holds({"late": low}) == condition.holds({"late": high})


@settings(max_examples=200, deadline=None)
@given(int_conditions())
def test_every_cut_point_can_change_the_answer_of_a_single_test(raw):
    """A single comparison changes its answer at each of its cut points (none is spurious)."""
    condition = parse(raw)
    if isinstance(condition, Comparison):
        for point in condition.cut_points()["late"]:
            if point > 0:
                assert condition.holds({"late": point}) != condition.holds({"late": point - 1})
