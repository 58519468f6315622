"""Readiness after a wrong answer: a card answered wrong is not counted as fresh in memory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from quiz.training.scheduling import SCHEDULER, next_schedule, readiness

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def test_a_card_answered_wrong_just_now_is_not_ready():
    schedules = {"a1": next_schedule(None, False, T0)}
    table = readiness(schedules, {"a1": "g/a"}, T0 + timedelta(minutes=1))
    assert table.iloc[0]["readiness"] == 0.0


def test_a_card_answered_wrong_then_right_counts_its_predicted_chance_again():
    wrong = next_schedule(None, False, T0)
    right = next_schedule(wrong, True, T0 + timedelta(minutes=20))
    now = T0 + timedelta(days=3)
    table = readiness({"a1": right}, {"a1": "g/a"}, now)
    assert table.iloc[0]["readiness"] == pytest.approx(SCHEDULER.get_card_retrievability(right, now))


def test_a_review_card_forgotten_today_is_not_ready():
    schedule = next_schedule(next_schedule(None, True, T0), True, T0 + timedelta(days=3))
    lapsed = next_schedule(schedule, False, T0 + timedelta(days=10))
    table = readiness({"a1": schedule, "a2": lapsed}, {"a1": "g/a", "a2": "g/a"}, T0 + timedelta(days=10, hours=1))
    assert table.iloc[0]["readiness"] == pytest.approx(
        SCHEDULER.get_card_retrievability(schedule, T0 + timedelta(days=10, hours=1)) / 2
    )
