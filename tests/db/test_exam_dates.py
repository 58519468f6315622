"""Exam dates in the database, per trainee and game, and the review schedule they plan, on
both databases: the due count and the review order take in the cap, FSRS's rows are untouched."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from quiz.db import reviews as review_store
from quiz.db.exam_dates import exam_days, exam_moments_of, set_exam_day
from quiz.db.store import Store
from quiz.db.time_zones import set_time_zone
from quiz.model.errors import ExamDateError
from quiz.training.exam_dates import exam_due, exam_start, window_start
from quiz.training.scheduling import due_first

GAMES = ("game-a", "game-b")
CARDS = {"a1": "game-a", "a2": "game-a", "b1": "game-b"}
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
EXAM_DAY = date(2026, 4, 20)


def answer(store: Store, trainee_id: int, card_id: str, *moments: datetime) -> None:
    for moment in moments:
        with store.engine.begin() as conn:
            review_store.reschedule(conn, trainee_id, card_id, True, moment)


def test_an_exam_day_is_kept_per_trainee_and_game_and_forgotten(store: Store) -> None:
    aki, ben = store.trainee("Aki"), store.trainee("Ben")
    assert exam_days(store, aki.id) == {}
    assert set_exam_day(store, aki.id, "game-a", EXAM_DAY, GAMES) == EXAM_DAY
    set_exam_day(store, aki.id, "game-a", EXAM_DAY + timedelta(days=1), GAMES)
    set_exam_day(store, aki.id, "game-b", EXAM_DAY, GAMES)
    set_exam_day(store, ben.id, "game-b", EXAM_DAY - timedelta(days=9), GAMES)
    assert exam_days(store, aki.id) == {"game-a": EXAM_DAY + timedelta(days=1), "game-b": EXAM_DAY}
    assert set_exam_day(store, aki.id, "game-a", None, GAMES) is None
    assert exam_days(store, aki.id) == {"game-b": EXAM_DAY}
    assert exam_days(store, ben.id) == {"game-b": EXAM_DAY - timedelta(days=9)}
    with pytest.raises(ExamDateError):
        set_exam_day(store, aki.id, "game-z", EXAM_DAY, GAMES)
    with pytest.raises(ExamDateError):
        set_exam_day(store, aki.id, "game-a", date(1999, 12, 31), GAMES)


def test_the_exam_begins_at_midnight_in_the_trainees_kept_zone(store: Store) -> None:
    aki = store.trainee("Aki")
    set_exam_day(store, aki.id, "game-a", EXAM_DAY, GAMES)
    assert exam_moments_of(store, aki.id) == {"game-a": exam_start(EXAM_DAY, "UTC")}
    set_time_zone(store, aki.id, "Asia/Tokyo")
    assert exam_moments_of(store, aki.id) == {"game-a": datetime(2026, 4, 19, 15, 0, tzinfo=UTC)}


def test_review_and_the_due_count_follow_the_exam_date_and_fsrs_rows_stay_as_they_were(store: Store) -> None:
    aki = store.trainee("Aki")
    firm = [T0 + timedelta(days=days) for days in (0, 3, 14)]  # due long after the exam
    for card in CARDS:
        answer(store, aki.id, card, *firm)
    stored = review_store.schedules(store, aki.id)
    exam = exam_start(EXAM_DAY, "UTC")
    assert all(schedule.due > exam for schedule in stored.values())
    late = stored["a1"].last_review
    assert late is not None and late < window_start(exam)
    in_window = window_start(exam) + timedelta(days=10)

    before = review_store.due_times(store, aki.id, CARDS, in_window, CARDS)
    assert before.count_at(in_window) == 0  # no exam date: FSRS's own

    set_exam_day(store, aki.id, "game-a", EXAM_DAY, GAMES)
    capped = exam_due(stored["a1"], exam, in_window)
    assert window_start(exam) <= capped < exam
    dues = review_store.due_times(store, aki.id, CARDS, in_window + timedelta(days=1), CARDS)
    assert dict(dues.dues) == {"a1": capped, "a2": capped} and dues.count_at(capped) == 2
    assert dues.count_at(capped - timedelta(seconds=1)) == 0
    assert review_store.due_times(store, aki.id, ["a1"], in_window + timedelta(days=1), CARDS).count_at(exam) == 1
    assert review_store.due_times(store, aki.id, CARDS, in_window + timedelta(days=1)).count_at(exam) == 0  # no games

    planned = review_store.planned_schedules(store, aki.id, CARDS, in_window)
    assert planned["a1"].due == planned["a2"].due == capped and planned["b1"].due == stored["b1"].due
    assert due_first(planned, CARDS, exam - timedelta(seconds=1)) == ["a1", "a2"]
    assert review_store.schedules(store, aki.id) == stored  # FSRS's rows untouched

    answer(store, aki.id, "a1", capped + timedelta(hours=2))  # seen in the window: FSRS's own from now
    after = review_store.planned_schedules(store, aki.id, CARDS, capped + timedelta(hours=3))
    assert after["a1"].due == review_store.schedules(store, aki.id)["a1"].due
    assert review_store.due_times(store, aki.id, CARDS, exam - timedelta(minutes=1), CARDS).count_at(
        exam - timedelta(minutes=1)) == 1  # a2 only

    on_the_day = review_store.planned_schedules(store, aki.id, CARDS, exam)  # the exam has come: FSRS's own
    assert {card: s.due for card, s in on_the_day.items()} == {
        card: s.due for card, s in review_store.schedules(store, aki.id).items()}
    assert review_store.due_times(store, aki.id, CARDS, exam + timedelta(minutes=5), CARDS).count_at(exam) == 0
