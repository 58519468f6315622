"""save_answer: the attempt and the schedule are written together, or not at all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from quiz.db import reviews as review_store
from quiz.db.answers import save_answer
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.training.scheduling import Schedule, next_schedule

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def answer(trainee_id: int, correct: bool, when: datetime, card_id: str = "pkm-k-cut-vs-shuffle") -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset="pokemon-card-ja", category=None, card_kind="knowledge",
        mode="review", chosen_choice="a" if correct else "b", correct_choice="a", correct=correct, seconds=3.5,
        answered_at=when,
    )


def test_the_attempt_is_stored_and_its_id_returned(store: Store) -> None:
    trainee = store.trainee("Aki")
    record = answer(trainee.id, False, T0)
    attempt_id = save_answer(store, record).attempt_id
    frame = store.attempts()
    assert list(frame["id"]) == [attempt_id]
    row = frame.iloc[0]
    assert (row["card_id"], row["mode"], bool(row["correct"])) == (record.card_id, "review", False)


def test_each_answer_moves_the_cards_schedule_on_from_the_last(store: Store) -> None:
    trainee = store.trainee("Aki")
    save_answer(store, answer(trainee.id, True, T0))
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == next_schedule(None, True, T0)
    later = T0 + timedelta(days=3)
    save_answer(store, answer(trainee.id, False, later))
    expected = next_schedule(next_schedule(None, True, T0), False, later)
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == expected
    assert list(review_store.schedules(store, trainee.id)) == ["pkm-k-cut-vs-shuffle"]
    assert len(store.attempts()) == 2


def test_if_the_schedule_cannot_be_written_the_attempt_is_rolled_back(store, monkeypatch) -> None:
    monkeypatch.setattr(store, "one_statement_writes", False)  # the transaction, as on SQLite
    trainee = store.trainee("Aki")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(review_store, "write_schedule", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        save_answer(store, answer(trainee.id, True, T0))
    assert store.attempts().empty
    assert review_store.schedules(store, trainee.id) == {}


def test_if_the_database_refuses_the_schedule_the_attempt_is_not_kept(store, monkeypatch) -> None:
    trainee = store.trainee("Aki")
    save_answer(store, answer(trainee.id, True, T0))
    kept = review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle")
    monkeypatch.setattr(Schedule, "to_json", lambda self: None)  # NOT NULL refuses the next schedule
    with pytest.raises(IntegrityError):
        save_answer(store, answer(trainee.id, False, T0 + timedelta(days=2)))
    assert len(store.attempts()) == 1
    monkeypatch.undo()
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == kept


def test_if_the_attempt_is_refused_no_schedule_is_written(store: Store) -> None:
    with pytest.raises(IntegrityError):
        save_answer(store, answer(9999, True, T0))  # no such trainee
    assert store.attempts().empty
    assert review_store.schedules(store, 9999) == {}


def test_a_schedule_created_meanwhile_by_another_session_is_updated_on_a_second_try(store, monkeypatch) -> None:
    trainee = store.trainee("Aki")
    save_answer(store, answer(trainee.id, True, T0))  # the other session's answer: the row exists
    real_read = review_store.read_schedule_json
    calls = []

    def read_that_missed_the_row(*args, **kwargs):  # the first read ran before the other insert
        calls.append(1)
        return None if len(calls) == 1 else real_read(*args, **kwargs)

    monkeypatch.setattr(review_store, "read_schedule_json", read_that_missed_the_row)
    later = T0 + timedelta(days=2)
    attempt_id = save_answer(store, answer(trainee.id, False, later)).attempt_id

    assert len(calls) == 2
    assert list(store.attempts()["id"])[-1] == attempt_id and len(store.attempts()) == 2  # none left from try one
    expected = next_schedule(next_schedule(None, True, T0), False, later)
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == expected


def test_an_answer_read_before_another_sessions_answer_moves_the_schedule_on_from_both(postgres_url, monkeypatch):
    """PostgreSQL's one statement, when another answer lands between its read and its write
    (on SQLite the transaction holds the database's write lock from its first statement)."""
    store = Store(postgres_url)
    assert store.one_statement_writes  # in the transaction the other answer would wait on the lock
    trainee = store.trainee("Aki")
    save_answer(store, answer(trainee.id, True, T0))
    real_read = review_store.read_schedule_json
    calls = []
    other_time, our_time = T0 + timedelta(days=2), T0 + timedelta(days=2, minutes=1)

    def read_then_another_session_answers(*args, **kwargs):
        read = real_read(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:  # another session stores its answer between this read and the write
            save_answer(store, answer(trainee.id, False, other_time))
        return read

    monkeypatch.setattr(review_store, "read_schedule_json", read_then_another_session_answers)
    saved = save_answer(store, answer(trainee.id, True, our_time))

    assert len(calls) == 3  # the read of the one statement, the other answer's, the statement's read again
    assert len(store.attempts()) == 3 and list(store.attempts()["id"])[-1] == saved.attempt_id
    expected = next_schedule(next_schedule(next_schedule(None, True, T0), False, other_time), True, our_time)
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == expected
    store.dispose()


def test_on_postgresql_an_answer_is_one_read_and_one_write_outside_a_transaction(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        trainee = store.trainee("Aki")
        save_answer(store, answer(trainee.id, True, T0))
        statements: list[str] = []
        isolation: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        event.listen(store.engine, "begin", lambda conn: isolation.append(conn.get_execution_options().get("isolation_level")))
        saved = save_answer(store, answer(trainee.id, False, T0 + timedelta(days=2)))
        assert len(statements) == 2 and isolation == ["AUTOCOMMIT"]  # no BEGIN and COMMIT sent
        assert statements[1].startswith("WITH") and "INSERT INTO attempts" in statements[1]
        assert list(store.attempts()["id"])[-1] == saved.attempt_id
    finally:
        store.dispose()


def test_a_card_never_answered_is_saved_without_reading_a_schedule_and_one_answered_meanwhile_is_moved_on(
    store: Store,
) -> None:
    """``never_answered`` (Practice's deal knows no answer to the card): on PostgreSQL the
    schedule is created and the attempt added in one statement, with no read. When the card
    was answered meanwhile (in another tab), that statement stores nothing and the answer is
    saved as any other: one attempt each, and the schedule moved on from both."""
    trainee = store.trainee("Aki")
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    first = save_answer(store, answer(trainee.id, True, T0), never_answered=True)
    if store.one_statement_writes:
        assert len(statements) == 1 and "INSERT INTO attempts" in statements[0]
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == next_schedule(None, True, T0)
    assert first.next_due == next_schedule(None, True, T0).due

    later = T0 + timedelta(days=3)
    statements.clear()
    saved = save_answer(store, answer(trainee.id, False, later), never_answered=True)  # it was answered: T0
    if store.one_statement_writes:
        assert len(statements) == 3  # the statement that stored nothing, then the read and the write
    expected = next_schedule(next_schedule(None, True, T0), False, later)
    assert review_store.schedule(store, trainee.id, "pkm-k-cut-vs-shuffle") == expected
    assert saved.next_due == expected.due
    assert list(store.attempts()["id"]) == [first.attempt_id, saved.attempt_id]
