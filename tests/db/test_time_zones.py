"""Days are the trainee's own: statistics count calendar days in the trainee's time zone, in
SQL, on both databases, equal to the pandas oracle."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from quiz.db.time_zones import TimeZoneError, set_time_zone, time_zone_for, time_zone_of
from quiz.model.attempt import AttemptRecord
from quiz.report import statistics
from tests import stats_oracle
from tests.recording import record

TOKYO = "Asia/Tokyo"
# 08:30 on 1 December in Tokyo is 23:30 on 30 November in UTC; 20:00 in Tokyo is 11:00 UTC.
MORNING_IN_TOKYO = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)
EVENING_IN_TOKYO = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)


def answer(trainee_id: int, at: datetime, correct: bool = True) -> AttemptRecord:
    return AttemptRecord(trainee_id=trainee_id, card_id="ygo-k-caution-purpose", ruleset="yugioh-ocg", category=None,
                         card_kind="knowledge", correct=correct, seconds=5.0, answered_at=at)


@pytest.fixture
def tokyo_trainee(store):
    trainee = store.trainee("Haruka")
    record(store, answer(trainee.id, MORNING_IN_TOKYO))
    record(store, answer(trainee.id, EVENING_IN_TOKYO, correct=False))
    return trainee.id


def test_an_answer_at_half_past_eight_in_tokyo_counts_on_that_local_day(store, tokyo_trainee):
    tokyo = statistics.AnswerScope(tokyo_trainee, time_zone=TOKYO)
    days = statistics.daily_counts(store, tokyo)
    assert [d.date() for d in days["date"]] == [date(2026, 12, 1)]
    assert list(days["answered"]) == [2]
    assert statistics.summary(store, tokyo).days_active == 1
    assert statistics.practice_streak(store, tokyo, date(2026, 12, 1)).current == 1
    utc = statistics.AnswerScope(tokyo_trainee)  # the same answers on UTC days: two days
    assert [d.date() for d in statistics.daily_counts(store, utc)["date"]] == [date(2026, 11, 30), date(2026, 12, 1)]
    assert statistics.summary(store, utc).days_active == 2


@pytest.mark.parametrize("zone", [TOKYO, "UTC", "America/Los_Angeles", "Asia/Kolkata"])
def test_local_days_equal_the_pandas_oracle(store, tokyo_trainee, zone):
    frame = store.attempts(tokyo_trainee)
    scope = statistics.AnswerScope(tokyo_trainee, time_zone=zone)
    assert statistics.summary(store, scope) == stats_oracle.summary(frame, zone)
    sql = statistics.daily_accuracy(store, scope)
    oracle = stats_oracle.daily_accuracy(frame, zone)
    assert [d.date() for d in sql["date"]] == [d.date() for d in oracle["date"]]
    assert list(sql["answered"]) == list(oracle["answered"])
    for today in (date(2026, 11, 30), date(2026, 12, 1), date(2026, 12, 2), date(2026, 12, 5)):
        assert statistics.practice_streak(store, scope, today) == stats_oracle.practice_streak(frame, today, zone)


def test_the_zone_is_taken_from_the_browser_once_and_kept(store):
    trainee = store.trainee("Kenta").id
    assert time_zone_of(store, trainee) is None
    assert time_zone_for(store, trainee, TOKYO) == TOKYO
    assert time_zone_for(store, trainee, "Europe/Paris") == TOKYO  # kept: another browser changes nothing
    assert set_time_zone(store, trainee, "Europe/Paris") == "Europe/Paris"  # the trainee changed it
    assert time_zone_of(store, trainee) == "Europe/Paris"


@pytest.mark.parametrize("browser", [None, "", "Mars/Olympus", "../../etc/passwd", "x" * 500])
def test_no_usable_browser_zone_means_utc_and_nothing_kept(store, browser):
    trainee = store.trainee("Mio").id
    assert time_zone_for(store, trainee, browser) == "UTC"
    assert time_zone_of(store, trainee) is None


def test_a_zone_that_does_not_exist_is_refused(store):
    trainee = store.trainee("Sora").id
    with pytest.raises(TimeZoneError, match="not a time zone"):
        set_time_zone(store, trainee, "Tokyo/Asia")
