"""An assignment's rules: the plan, mastery, the exam part, and a member's status at the due
time's boundaries (the clock given, never read)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from quiz.model.errors import AssignmentError
from quiz.training.assignments import (
    Evidence,
    Plan,
    due_at,
    plan_cards,
    practice_share,
    progress,
    standing,
)
from quiz.training.pools import card_pool

DUE = datetime(2026, 12, 4, 15, 0, tzinfo=UTC)  # Friday's midnight in Tokyo
CARDS = ("a", "b", "c", "d", "e")
PRACTICE = Plan(cards=CARDS, mastery=80)
EXAM = Plan(exam="ygo-20")
BOTH = Plan(cards=CARDS, mastery=80, exam="ygo-20")
PASSED = DUE - timedelta(days=1)


def test_due_friday_means_by_fridays_midnight_in_the_zone():
    assert due_at(date(2026, 12, 4), "Asia/Tokyo") == DUE
    assert due_at(date(2026, 12, 4), "UTC") == datetime(2026, 12, 5, tzinfo=UTC)


@pytest.mark.parametrize("before, status", [(timedelta(microseconds=1), "not_started"), (timedelta(0), "late"),
                                            (-timedelta(days=3), "late")])
def test_a_member_who_did_nothing_is_late_from_the_due_time_on(before, status):
    assert standing(PRACTICE, CARDS, Evidence(), DUE, DUE - before).status == status


def test_a_member_who_started_is_on_track_until_the_due_time_then_late():
    some = Evidence(answered=frozenset({"a", "b"}), mastered=frozenset({"a"}))
    before = standing(PRACTICE, CARDS, some, DUE, DUE - timedelta(seconds=1))
    assert (before.status, before.progress, before.done_at) == ("on_track", pytest.approx(0.25), None)
    assert standing(PRACTICE, CARDS, some, DUE, DUE).status == "late"


def test_an_exam_started_and_not_passed_is_on_track_and_a_card_outside_the_plan_is_not_a_start():
    assert standing(EXAM, (), Evidence(exam_started=True), DUE, DUE - timedelta(hours=1)).status == "on_track"
    outside = Evidence(answered=frozenset({"z"}), mastered=frozenset({"z"}))
    assert standing(PRACTICE, CARDS, outside, DUE, DUE - timedelta(hours=1)).status == "not_started"


def test_mastery_is_the_share_of_the_plans_cards_whose_latest_answer_is_right():
    assert practice_share(CARDS, frozenset({"a", "b", "z"})) == pytest.approx(0.4)
    three = Evidence(answered=frozenset(CARDS), mastered=frozenset({"a", "b", "c"}))
    four = Evidence(answered=frozenset(CARDS), mastered=frozenset({"a", "b", "c", "d"}))
    assert progress(PRACTICE, CARDS, three) == pytest.approx(0.6 / 0.8)
    assert standing(PRACTICE, CARDS, three, DUE, DUE - timedelta(hours=1)).status == "on_track"
    done = standing(PRACTICE, CARDS, four, DUE, DUE - timedelta(hours=1))
    assert (done.status, done.progress, done.done_at) == ("done", 1.0, DUE - timedelta(hours=1))


def test_an_exam_plan_is_done_when_the_exam_was_passed_and_then_at_the_pass():
    assert progress(EXAM, (), Evidence(exam_started=True)) == 0.0
    done = standing(EXAM, (), Evidence(exam_started=True, exam_passed_at=PASSED), DUE, DUE + timedelta(days=2))
    assert (done.status, done.done_at) == ("done", PASSED)


def test_a_plan_of_both_parts_needs_both():
    practised = Evidence(answered=frozenset(CARDS), mastered=frozenset(CARDS))
    assert progress(BOTH, CARDS, practised) == pytest.approx(0.5)
    assert standing(BOTH, CARDS, practised, DUE, DUE).status == "late"
    both = Evidence(answered=frozenset(CARDS), mastered=frozenset(CARDS), exam_passed_at=PASSED)
    assert standing(BOTH, CARDS, both, DUE, DUE).status == "done"


def test_a_recorded_completion_stays_done_whatever_came_after():
    recorded = standing(PRACTICE, CARDS, Evidence(), DUE, DUE + timedelta(days=9), completed_at=PASSED)
    assert (recorded.status, recorded.progress, recorded.done_at) == ("done", 1.0, PASSED)


def test_a_plan_needs_something_to_do_and_a_sensible_mastery():
    with pytest.raises(AssignmentError) as empty:
        Plan()
    assert empty.value.rule == "empty"
    for level in (0, 101):
        with pytest.raises(AssignmentError):
            Plan(cards=("a",), mastery=level)
    assert Plan.from_stored(BOTH.stored()) == BOTH


def test_the_plans_cards_are_its_categories_pool_and_its_named_cards_that_still_exist(content):
    key = "yugioh-ocg/tardiness"
    pool = card_pool(content, ["yugioh-ocg"], [key])
    named = next(card_id for card_id in content.cards if card_id not in pool)
    plan = Plan(categories=(key,), cards=(named, "no-such-card", pool[0]))
    assert pool and plan_cards(content, plan) == (*pool, named)
