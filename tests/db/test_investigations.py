"""A floor call's steps are kept as they are taken: a reload, a restart or another tab resumes
the investigation; once its answer is stored, the call dealt again starts afresh."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from quiz.db.investigations import call_rows, forget_steps, steps_taken, take_step
from quiz.db.store import Store
from quiz.db.submissions import submit_answer
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer

CARD = "ygo-fc-two-cards-at-the-draw"
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_steps_taken_are_read_back_in_order_by_another_store(store: Store, db_url: str) -> None:
    trainee = store.trainee("Aki")
    take_step(store, trainee.id, CARD, "kimura-what", now=T0)
    take_step(store, trainee.id, CARD, "hand-count", now=T0 + timedelta(seconds=1))
    assert take_step(store, trainee.id, CARD, "kimura-what") == ("kimura-what", "hand-count")  # twice: once
    restarted = Store(db_url)  # another server, or the same after a restart
    try:
        assert steps_taken(restarted, trainee.id, CARD) == ("kimura-what", "hand-count")
    finally:
        restarted.dispose()
    assert steps_taken(store, store.trainee("Ben").id, CARD) == ()  # another trainee's is their own
    assert steps_taken(store, trainee.id, CARD, exam_id=7) == ()  # an exam's question is its own


def test_an_answered_call_starts_afresh_and_keeps_its_steps_in_the_attempt(store: Store, content) -> None:
    trainee = store.trainee("Aki")
    card = content.cards[CARD]
    for step in ("kimura-what", "hand-count", "sleeves"):
        take_step(store, trainee.id, CARD, step)
    steps = steps_taken(store, trainee.id, CARD)
    given = ScenarioAnswer("extra_draw", "warning", ("return_extra_to_top",), None,
                           (("intentional", False), ("identifiable", True)), steps)
    submission = submit_answer(store, content, GivenAnswer(card, given, trainee.id, 30.0))
    assert submission.stored and steps_taken(store, trainee.id, CARD) == ()
    frame = store.attempts(trainee.id)
    stored = frame.iloc[-1]["investigation"]
    assert stored["steps"] == ["kimura-what", "hand-count", "sleeves"]
    assert dict(map(tuple, stored["evidence"])) == {"intentional": "gathered", "identifiable": "gathered"}
    assert take_step(store, trainee.id, CARD, "kimura-what") == ("kimura-what",)


def test_steps_left_behind_by_an_answer_are_never_read_back(store: Store, content) -> None:
    """The steps are deleted after the answer is stored, outside its transaction: were that
    deletion lost (a crash between the two), the call dealt again still starts afresh."""
    trainee = store.trainee("Aki")
    card = content.cards[CARD]
    take_step(store, trainee.id, CARD, "kimura-what", now=T0)
    given = ScenarioAnswer("extra_draw", "warning", ("return_extra_to_top",), None,
                           (("intentional", False), ("identifiable", True)), ("kimura-what",))
    submit_answer(store, content, GivenAnswer(card, given, trainee.id, 30.0))
    take_step(store, trainee.id, CARD, "kimura-what", now=T0)  # as if the deletion had been lost
    assert steps_taken(store, trainee.id, CARD) == ()
    assert take_step(store, trainee.id, CARD, "hand-count") == ("hand-count",)
    forget_steps(store, trainee.id, CARD)
    assert steps_taken(store, trainee.id, CARD) == ()


def test_a_step_left_behind_by_an_answer_can_be_taken_again(store: Store, content) -> None:
    """The same step as one an answered investigation left behind (its deletion lost): the old
    row goes, the step is kept anew (the call's steps are unique per step)."""
    trainee = store.trainee("Aki")
    card = content.cards[CARD]
    given = ScenarioAnswer("extra_draw", "warning", ("return_extra_to_top",), None,
                           (("intentional", False), ("identifiable", True)), ("kimura-what",))
    submit_answer(store, content, GivenAnswer(card, given, trainee.id, 30.0))
    take_step(store, trainee.id, CARD, "kimura-what", now=T0)  # before the answer: left behind
    assert take_step(store, trainee.id, CARD, "kimura-what") == ("kimura-what",)
    assert steps_taken(store, trainee.id, CARD) == ("kimura-what",)


def test_a_step_is_kept_and_the_steps_read_in_one_transaction(store: Store) -> None:
    """A step's run asks the database once: ``take_step`` returns the open investigation's
    steps, read in the transaction that keeps the step (no second connection to read them)."""
    from sqlalchemy import event

    trainee = store.trainee("Aki")
    take_step(store, trainee.id, CARD, "kimura-what", now=T0)
    begun: list[object] = []

    def began(connection: object) -> None:
        begun.append(connection)

    statements: list[str] = []

    def executed(conn, cursor, statement, *args) -> None:
        statements.append(statement.split()[0].upper())

    writes = store.watches.own_writes_engine  # on SQLite its change counter's connection, not the pool
    event.listen(writes, "begin", began)
    event.listen(writes, "before_cursor_execute", executed)
    try:
        assert take_step(store, trainee.id, CARD, "hand-count", now=T0 + timedelta(seconds=1)) == (
            "kimura-what", "hand-count")
        assert take_step(store, trainee.id, CARD, "hand-count") == ("kimura-what", "hand-count")  # kept once
    finally:
        event.remove(writes, "begin", began)
        event.remove(writes, "before_cursor_execute", executed)
    assert len(begun) == 2  # one transaction a step
    assert statements == ["SELECT", "INSERT", "SELECT"]  # the read and the insert; the step taken again: the read
    assert steps_taken(store, trainee.id, CARD) == ("kimura-what", "hand-count")


def test_the_latest_answer_is_found_through_the_cards_index_not_every_answer_of_the_trainee(store: Store) -> None:
    """SQLite picked the trainee's (trainee, answered_at) index for the answered-before check
    and walked every answer of the trainee (100,000 on the benchmark) for a call never
    answered: a step's run took 180 ms. The one statement that reads a call's steps, in
    practice and in an exam."""
    if store.engine.dialect.name != "sqlite":
        return  # PostgreSQL plans with its statistics
    for exam_id in (None, 7):
        statement, parameters = call_rows(1, CARD, exam_id)
        with store.engine.connect() as conn:
            plan = " ".join(str(row[-1]) for row in conn.execute(text(f"EXPLAIN QUERY PLAN {statement.text}"),
                                                                 parameters))
        assert "ix_attempts_card" in plan and "ix_attempts_trainee_answered" not in plan, plan
