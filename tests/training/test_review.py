"""The review schedule: fsrs moves cards as it says, and what follows from the schedules."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

import pytest
from fsrs import Card, Rating, State
from hypothesis import given
from hypothesis import strategies as st

from quiz.training.scheduling import (
    SCHEDULER,
    due_first,
    new_cards,
    next_card,
    next_due_at,
    next_schedule,
    readiness,
    retrievability,
    wait,
)

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
JST = timezone(timedelta(hours=9))


def history(*answers: tuple[bool, timedelta]) -> Card:
    """The schedule after answering right/wrong at T0 plus each offset, in order."""
    schedule = None
    for correct, offset in answers:
        schedule = next_schedule(schedule, correct, T0 + offset)
    assert schedule is not None
    return schedule


def due_at(due: datetime) -> Card:
    """A reviewed schedule that falls due at ``due``."""
    return Card(card_id=0, state=State.Review, stability=3.0, difficulty=5.0, due=due, last_review=due - timedelta(days=3))


# --- next_schedule ------------------------------------------------------------------------


@pytest.mark.parametrize(("correct", "rating"), [(True, Rating.Good), (False, Rating.Again)])
def test_a_first_answer_is_reviewed_as_fsrs_does_with_good_or_again(correct, rating):
    expected, _ = SCHEDULER.review_card(Card(card_id=0, due=T0), rating, review_datetime=T0)
    assert next_schedule(None, correct, T0) == expected
    assert next_schedule(None, correct, T0).last_review == T0


@pytest.mark.parametrize(("correct", "rating"), [(True, Rating.Good), (False, Rating.Again)])
def test_a_later_answer_continues_from_the_given_schedule(correct, rating):
    before = history((True, timedelta(0)))
    when = T0 + timedelta(days=4)
    expected, _ = SCHEDULER.review_card(before, rating, review_datetime=when)
    assert next_schedule(before, correct, when) == expected


def test_the_given_schedule_is_left_unchanged():
    before = history((True, timedelta(0)))
    snapshot = before.to_dict()
    next_schedule(before, False, T0 + timedelta(days=3))
    assert before.to_dict() == snapshot


def test_a_right_first_answer_waits_days_and_a_wrong_one_ten_minutes():
    # One learning step of ten minutes: Good moves a new card straight to review (days),
    # Again keeps it learning and brings it back after the step.
    right, wrong = next_schedule(None, True, T0), next_schedule(None, False, T0)
    assert right.state == State.Review and right.due - T0 >= timedelta(days=1)
    assert wrong.state == State.Learning and wrong.due - T0 == timedelta(minutes=10)


def test_another_time_zone_gives_the_same_schedule_as_utc():
    assert next_schedule(None, True, T0.astimezone(JST)) == next_schedule(None, True, T0)


def test_a_naive_time_is_refused():
    with pytest.raises(ValueError, match="naive"):
        next_schedule(None, True, T0.replace(tzinfo=None))


answers = st.lists(
    st.tuples(st.booleans(), st.integers(min_value=1, max_value=60 * 24 * 60)), min_size=0, max_size=8
)


@given(answers, st.integers(min_value=0, max_value=60 * 24 * 90))
def test_a_wrong_answer_is_always_due_sooner_than_a_right_one(past, gap_minutes):
    schedule, when = None, T0
    for correct, minutes in past:
        when += timedelta(minutes=minutes)
        schedule = next_schedule(schedule, correct, when)
    when += timedelta(minutes=gap_minutes)
    assert next_schedule(schedule, False, when).due < next_schedule(schedule, True, when).due


def test_repeated_right_answers_spread_out():
    schedule, when, gaps = None, T0, []
    for _ in range(5):
        schedule = next_schedule(schedule, True, when)
        gaps.append(schedule.due - when)
        when = schedule.due
    assert gaps == sorted(gaps) and gaps[-1] > gaps[0]


# --- retrievability -----------------------------------------------------------------------


def test_retrievability_is_fsrs_figure_and_falls_day_by_day():
    schedule = history((True, timedelta(0)), (True, timedelta(days=2)))
    reviewed = T0 + timedelta(days=2)
    figures = [retrievability(schedule, reviewed + timedelta(days=d)) for d in (0, 1, 3, 10, 60)]
    assert figures[0] == 1.0
    assert figures == sorted(figures, reverse=True) and len(set(figures)) == len(figures)
    assert figures[2] == SCHEDULER.get_card_retrievability(schedule, reviewed + timedelta(days=3))


def test_a_card_answered_wrong_is_less_retrievable_later_than_one_answered_right():
    later = T0 + timedelta(days=2)
    assert retrievability(history((False, timedelta(0))), later) < retrievability(history((True, timedelta(0))), later)


# --- readiness ----------------------------------------------------------------------------


def test_readiness_averages_each_categorys_answered_cards_and_skips_the_rest():
    schedules = {
        "a1": history((True, timedelta(0))),
        "a2": history((False, timedelta(0))),
        "a3": history((True, timedelta(0)), (True, timedelta(days=2))),
        "b1": history((False, timedelta(0)), (True, timedelta(hours=1))),
        "other-game": history((False, timedelta(0))),
    }
    categories = {"a1": "g/a", "a2": "g/a", "a3": "g/a", "b1": "g/b", "never-answered": "g/c"}
    now = T0 + timedelta(days=5)
    chance = {card: SCHEDULER.get_card_retrievability(s, now) for card, s in schedules.items()}
    chance["a2"] = 0.0  # its last answer was wrong: not counted as remembered

    table = readiness(schedules, categories, now)

    expected = {
        "g/a": (3, (chance["a1"] + chance["a2"] + chance["a3"]) / 3),
        "g/b": (1, chance["b1"]),
    }
    got = {row.category_key: (row.cards, row.readiness) for row in table.itertuples()}
    assert got.keys() == expected.keys()  # g/c has no answered card; other-game is not asked for
    for key, (cards, mean) in expected.items():
        assert got[key][0] == cards and got[key][1] == pytest.approx(mean)
    assert list(table["readiness"]) == sorted(table["readiness"])  # weakest first


def test_readiness_of_nothing_is_an_empty_table_with_the_columns():
    table = readiness({}, {"a1": "g/a"}, T0)
    assert table.empty and list(table.columns) == ["category_key", "cards", "readiness"]


# --- which card comes next ----------------------------------------------------------------


def test_due_cards_come_most_overdue_first_and_only_from_the_pool():
    now = T0
    schedules = {
        "late-1h": due_at(now - timedelta(hours=1)),
        "late-3d": due_at(now - timedelta(days=3)),
        "due-now": due_at(now),
        "tomorrow": due_at(now + timedelta(days=1)),
        "filtered-out": due_at(now - timedelta(days=9)),
    }
    pool = ["late-1h", "tomorrow", "due-now", "late-3d", "never-seen"]
    assert due_first(schedules, pool, now) == ["late-3d", "late-1h", "due-now"]


def test_cards_due_at_the_same_moment_come_in_id_order():
    schedules = {card: due_at(T0 - timedelta(hours=2)) for card in ("c", "a", "b")}
    assert due_first(schedules, ["c", "b", "a"], T0) == ["a", "b", "c"]


def test_next_card_serves_due_cards_before_new_ones():
    schedules = {"seen": due_at(T0 - timedelta(minutes=5)), "later": due_at(T0 + timedelta(days=2))}
    pool = ["new-1", "seen", "later", "new-2"]
    assert next_card(schedules, pool, T0, random.Random(1)) == "seen"
    after = T0 + timedelta(minutes=-10)  # "seen" not yet due
    assert next_card(schedules, pool, after) is None  # new cards only when asked for
    assert next_card(schedules, pool, after, random.Random(1)) in {"new-1", "new-2"}
    assert next_card(schedules, ["seen", "later"], after, random.Random(1)) is None


def test_new_cards_are_the_unanswered_ones_in_pool_order():
    schedules = {"b": due_at(T0)}
    assert new_cards(schedules, ["c", "b", "a", "c"]) == ["c", "a"]


def test_next_due_at_is_the_earliest_due_in_the_pool():
    schedules = {"a": due_at(T0 + timedelta(days=2)), "b": due_at(T0 + timedelta(hours=5)), "x": due_at(T0)}
    assert next_due_at(schedules, ["a", "b", "new"]) == T0 + timedelta(hours=5)
    assert next_due_at(schedules, ["new"]) is None


@pytest.mark.parametrize(
    ("left", "expected"),
    [
        (timedelta(seconds=0), (1, "minutes")),
        (timedelta(seconds=20), (1, "minutes")),
        (timedelta(minutes=9, seconds=40), (10, "minutes")),
        (timedelta(minutes=59), (59, "minutes")),
        (timedelta(hours=1), (1, "hours")),
        (timedelta(hours=5, minutes=29), (5, "hours")),
        (timedelta(days=1, hours=11), (1, "days")),
        (timedelta(days=1, hours=13), (2, "days")),
        (timedelta(days=-1), (1, "minutes")),  # already due
    ],
)
def test_wait_is_given_in_the_largest_whole_unit(left, expected):
    assert wait(T0 + left, T0) == expected
