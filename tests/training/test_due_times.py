"""The sidebar's due count between two reads: exact at any moment before the horizon."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from quiz.training.due_times import DueTimes

JST = timezone(timedelta(hours=9))
T0 = datetime(2025, 3, 1, 19, 0, tzinfo=JST)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_cards_are_counted_from_the_moment_each_falls_due_until_the_horizon() -> None:
    times = DueTimes(at(5), {"a": at(-60), "b": at(2), "c": at(2), "d": at(4.5)})
    assert [times.count_at(at(m)) for m in (0, 1.99, 2, 4.49, 4.5)] == [1, 1, 3, 3, 4]
    assert times.holds_at(at(4.99)) and not times.holds_at(at(5))


def test_moments_in_other_zones_compare_as_the_same_instants() -> None:
    times = DueTimes(at(5).astimezone(UTC), {"a": at(1).astimezone(UTC)})
    assert times.count_at(at(1)) == 1 and times.count_at(at(0.5)) == 0
    assert times.until == at(5) and times.until.tzinfo == UTC


def test_an_answer_moves_its_card_out_or_to_its_next_moment_within_the_horizon() -> None:
    times = DueTimes(at(5), {"a": at(-60), "b": at(2)})
    reviewed = times.answered("a", at(60 * 24))  # answered right: due tomorrow, past the horizon
    assert reviewed.count_at(at(0)) == 0 and reviewed.count_at(at(3)) == 1
    failed = reviewed.answered("new", at(3))  # a first answer, wrong: due again in three minutes
    assert failed.count_at(at(2.5)) == 1 and failed.count_at(at(3)) == 2
    assert times.count_at(at(3)) == 2  # the moments answered from are left as they were
