"""Per game: enough floor calls, most of them weighing replies that disagree on a finding, and
each a story of its own (CONTENT.md revision 4; the floor-call issue's content targets)."""

from __future__ import annotations

import copy

from quiz.content.finding_coverage import finding_coverage
from quiz.content.targets import MIN_FLOOR_CALLS, floor_call_targets
from tests.content.card_tree import load_with, make_tree
from tests.floor_calls import floor_call, floor_call_yaml


def test_the_shipped_floor_calls_meet_their_targets(content):
    targets = floor_call_targets(content)
    assert len(targets) == 3 * len(content.rulesets)
    assert all(target.met for target in targets), [t.line() for t in targets if not t.met]
    for ruleset in content.rulesets:
        assert sum(call.ruleset == ruleset for call in content.floor_calls) >= MIN_FLOOR_CALLS


def test_too_few_calls_no_conflicts_and_a_story_told_twice_are_reported(tmp_path):
    first = floor_call()
    twice = copy.deepcopy(first)
    twice["id"] = "t-floor-call-again"
    for person in twice["people"]:  # the same story, the names swapped
        person["name"] = {"ja": person["name"]["ja"] + "さん", "en": "Mr " + person["name"]["en"]}
    content = load_with(make_tree(tmp_path), "calls.yaml", floor_call_yaml(first, twice))
    assert content.problems == []
    ygo = [t for t in floor_call_targets(content) if "yugioh-ocg" in t.line()]
    count, conflicts, stories = ygo
    assert not count.met and "2 floor calls" in count.line()
    assert not conflicts.met and "0%" in conflicts.line()
    assert not stories.met and "1 distinct stories among 2" in stories.line()


def test_floor_calls_are_counted_per_infraction_in_the_finding_coverage(content):
    rows = {(row.ruleset, row.infraction): row for row in finding_coverage(content)}
    for call in content.floor_calls:
        assert rows[(call.ruleset, call.infraction)].floor_calls >= 1
    assert sum(row.floor_calls for row in rows.values()) == len(content.floor_calls)
