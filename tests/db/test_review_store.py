"""Review schedules in the database: they round-trip, one row per trainee and card, due counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, inspect, select
from sqlalchemy.exc import IntegrityError

from quiz.db import reviews as review_store
from quiz.db.store import Store
from quiz.db.tables import review_schedules
from quiz.training.scheduling import next_schedule

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def review(store: Store, trainee_id: int, card_id: str, correct: bool, when: datetime) -> None:
    """Answer a card in a transaction of its own, as save_answer does without the attempt."""
    with store.engine.begin() as conn:
        review_store.reschedule(conn, trainee_id, card_id, correct, when)


def rows(store: Store) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(review_schedules)).scalar_one()


def test_a_schedule_round_trips_with_every_field(store: Store) -> None:
    trainee = store.trainee("Aki")
    expected = next_schedule(next_schedule(None, True, T0), False, T0 + timedelta(days=3))
    with store.engine.begin() as conn:
        review_store.write_schedule(conn, trainee.id, "card-1", expected, exists=False)

    got = review_store.schedule(store, trainee.id, "card-1")

    assert got == expected  # stability, difficulty, state, step, due and last review
    assert got.due.tzinfo == UTC
    with store.engine.connect() as conn:
        due, last = conn.execute(select(review_schedules.c.due, review_schedules.c.last_review)).one()
    assert (due, last) == (expected.due, expected.last_review)  # the query columns match the JSON


def test_rescheduling_keeps_one_row_per_trainee_and_card(store: Store) -> None:
    aki, ben = store.trainee("Aki"), store.trainee("Ben")
    review(store, aki.id, "card-1", True, T0)
    review(store, aki.id, "card-1", False, T0 + timedelta(days=2))
    review(store, aki.id, "card-1", True, T0 + timedelta(days=2, minutes=15))
    review(store, ben.id, "card-1", False, T0)
    review(store, aki.id, "card-2", False, T0)

    assert rows(store) == 3
    expected = next_schedule(
        next_schedule(next_schedule(None, True, T0), False, T0 + timedelta(days=2)),
        True, T0 + timedelta(days=2, minutes=15),
    )
    assert review_store.schedule(store, aki.id, "card-1") == expected
    assert review_store.schedule(store, ben.id, "card-1") == next_schedule(None, False, T0)
    assert set(review_store.schedules(store, aki.id)) == {"card-1", "card-2"}
    assert set(review_store.schedules(store, ben.id)) == {"card-1"}


def test_a_second_row_for_the_same_trainee_and_card_is_refused(store: Store) -> None:
    trainee = store.trainee("Aki")
    first = next_schedule(None, True, T0)
    with store.engine.begin() as conn:
        review_store.write_schedule(conn, trainee.id, "card-1", first, exists=False)
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        review_store.write_schedule(conn, trainee.id, "card-1", first, exists=False)


def test_an_unanswered_card_has_no_schedule(store: Store) -> None:
    trainee = store.trainee("Aki")
    assert review_store.schedule(store, trainee.id, "card-1") is None
    assert review_store.schedules(store, trainee.id) == {}


def test_due_count_counts_the_trainees_due_cards_in_the_pool(store: Store) -> None:
    aki, ben = store.trainee("Aki"), store.trainee("Ben")
    review(store, aki.id, "wrong-1", False, T0)  # due at T0 + 10 min
    review(store, aki.id, "wrong-2", False, T0 + timedelta(minutes=5))  # due at T0 + 15 min
    review(store, aki.id, "right", True, T0)  # due in days
    review(store, ben.id, "wrong-1", False, T0 - timedelta(days=1))
    pool = ["wrong-1", "wrong-2", "right", "never-answered"]

    assert review_store.due_count(store, aki.id, pool, T0 + timedelta(minutes=9)) == 0
    assert review_store.due_count(store, aki.id, pool, T0 + timedelta(minutes=10)) == 1  # due exactly now
    assert review_store.due_count(store, aki.id, pool, T0 + timedelta(minutes=20)) == 2
    assert review_store.due_count(store, aki.id, ["wrong-2"], T0 + timedelta(minutes=20)) == 1
    assert review_store.due_count(store, ben.id, pool, T0) == 1


def test_due_is_compared_as_an_instant_whatever_the_time_zone(store: Store) -> None:
    trainee = store.trainee("Aki")
    review(store, trainee.id, "card-1", False, T0)  # due at 09:10 UTC = 18:10 at +09:00
    jst = timezone(timedelta(hours=9))
    assert review_store.due_count(store, trainee.id, ["card-1"], datetime(2025, 3, 1, 18, 9, tzinfo=jst)) == 0
    assert review_store.due_count(store, trainee.id, ["card-1"], datetime(2025, 3, 1, 18, 10, tzinfo=jst)) == 1


def test_the_table_is_indexed_by_trainee_and_due(store: Store) -> None:
    indexes = {index["name"]: index["column_names"] for index in inspect(store.engine).get_indexes("review_schedules")}
    assert indexes["ix_review_schedules_trainee_due"] == ["trainee_id", "due"]


def test_reschedule_returns_the_schedule_written_and_due_times_follow_it(store: Store) -> None:
    """What a session's kept due count moves by: the schedule ``reschedule`` wrote, whose due
    moment ``due_times`` then reads back (a wrong answer comes back in minutes)."""
    trainee = store.trainee("Aki")
    review(store, trainee.id, "due", False, T0)  # back at T0 + 10 min
    review(store, trainee.id, "later", True, T0)  # back in days
    now = T0 + timedelta(hours=1)
    cards = ("due", "later", "new")
    assert review_store.due_count(store, trainee.id, cards, now) == 1
    with store.engine.begin() as conn:
        written = {card: review_store.reschedule(conn, trainee.id, card, correct, now)
                   for card, correct in (("due", False), ("later", True), ("new", False))}
    for card, schedule in written.items():
        assert review_store.schedule(store, trainee.id, card) == schedule
    horizon = now + timedelta(hours=1)
    times = review_store.due_times(store, trainee.id, cards, horizon)
    assert dict(times.dues) == {card: s.due for card, s in written.items() if s.due <= horizon}
    assert set(times.dues) == {"due", "new"}  # both answered wrong: due again within the hour
    assert times.count_at(now) == review_store.due_count(store, trainee.id, cards, now) == 0
    assert times.count_at(horizon - timedelta(seconds=1)) == 2
