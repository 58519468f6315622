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
        FactSpec(id="late", type="int", min=0, name=Text(ja="遅れ（分）", en="Minutes late"),
                 unit=Text(ja="分", en="minutes"), unit_one="minute",
                 phrase=Text(ja="{amount}遅れていた", en="the player was {amount} late"),
                 phrase_none=Text(ja="遅れていなかった", en="the player was on time")),
        FactSpec(id="count", type="int", default=0, min=0, name=Text(ja="回数", en="Count")),
        FactSpec(id="wilful", type="bool", default=False, name=Text(ja="故意である", en="On purpose"),
                 phrase=Text(ja="故意だった", en="done on purpose"),
                 negation=Text(ja="故意ではなかった", en="not done on purpose")),
        FactSpec(id="seen", type="bool", default=True, name=Text(ja="見えた", en="Seen"),
                 phrase=Text(ja="カードが見えた", en="the card was seen"),
                 negation=Text(ja="カードは見えなかった", en="the card was not seen")),
    )
}


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
        ({"wilful": True}, "Done on purpose", "故意だった"),
        ({"wilful": False}, "Not done on purpose", "故意ではなかった"),
        ({"wilful": {"ne": True}}, "Not done on purpose", "故意ではなかった"),
        ({"late": {"gte": 5}}, "The player was 5 or more minutes late", "5分以上遅れていた"),
        ({"late": {"gt": 4}}, "The player was 5 or more minutes late", "5分以上遅れていた"),
        ({"late": {"lt": 10}}, "The player was fewer than 10 minutes late", "10分未満遅れていた"),
        ({"late": {"lte": 9}}, "The player was fewer than 10 minutes late", "10分未満遅れていた"),
        ({"late": 3}, "The player was 3 minutes late", "3分遅れていた"),
        ({"late": 1}, "The player was 1 minute late", "1分遅れていた"),
        ({"late": 0}, "The player was on time", "遅れていなかった"),
        ({"late": {"ne": 3}}, "The player was other than 3 minutes late", "3分以外遅れていた"),
        ({"late": {"gte": 5, "lt": 10}}, "The player was 5 to 9 minutes late", "5〜9分遅れていた"),
        ({"wilful": True, "late": {"gte": 5}}, "Done on purpose and the player was 5 or more minutes late",
         "故意だった、かつ5分以上遅れていた"),
        ({"all": [{"wilful": False}, {"seen": True}, {"late": 2}]},
         "Not done on purpose, the card was seen and the player was 2 minutes late",
         "故意ではなかった、カードが見えた、かつ2分遅れていた"),
        ({"any": [{"wilful": True}, {"seen": False}]}, "Done on purpose or the card was not seen",
         "故意だった、またはカードは見えなかった"),
        ({"any": [{"wilful": True}]}, "Done on purpose", "故意だった"),
        ({"not": {"seen": True}}, "The card was not seen", "カードは見えなかった"),
        ({"not": {"late": {"gte": 5}}}, "The player was fewer than 5 minutes late", "5分未満遅れていた"),
        ({"not": {"any": [{"wilful": True}, {"seen": False}]}}, "Not done on purpose and the card was seen",
         "故意ではなかった、かつカードが見えた"),
        ({"wilful": False, "any": [{"seen": False}, {"late": {"gte": 5}}]},
         "Not done on purpose and either the card was not seen or the player was 5 or more minutes late",
         "故意ではなかった、かつ次のいずれか（カードは見えなかった／5分以上遅れていた）"),
        ({"any": [{"seen": False}, {"wilful": True, "late": {"gte": 5}}]},
         "The card was not seen or both done on purpose and the player was 5 or more minutes late",
         "カードは見えなかった、または次のすべて（故意だった／5分以上遅れていた）"),
    ],
)
def test_describe(raw, en, ja):
    condition = parse(raw)
    assert condition.describe(FACTS, "en") == en
    assert condition.describe(FACTS, "ja") == ja


def test_a_fact_without_wording_is_named_with_its_value():
    assert parse({"count": {"gt": 1}}).describe(FACTS, "en") == "Count: 2 or more"
    assert parse({"count": {"lt": 3}}).describe(FACTS, "ja") == "回数：3未満"
    assert parse({"count": {"gt": 1}}).describe({}, "ja") == "count：2以上"  # no spec: the id
    bare = {"flag": FactSpec(id="flag", type="bool", name=Text(ja="旗", en="Flag"))}
    assert parse_condition({"flag": False}, bare).describe(bare, "en") == "Flag: no"
    assert parse_condition({"flag": True}, bare).describe(bare, "ja") == "旗：はい"


def test_wording_must_fit_the_type():
    with pytest.raises(ValueError, match="amount"):
        FactSpec(id="late", type="int", name=Text(ja="遅れ", en="Late"), phrase=Text(ja="遅れた", en="late"))
    with pytest.raises(ValueError, match="negation is only"):
        FactSpec(id="late", type="int", name=Text(ja="遅れ", en="Late"), negation=Text(ja="遅れない", en="on time"))
    with pytest.raises(ValueError, match="only for a whole-number"):
        FactSpec(id="wilful", type="bool", name=Text(ja="故意", en="Wilful"), unit=Text(ja="分", en="minutes"))


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
