"""Exams in the database: round trip, the open exam found for resuming, closing by the clock."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import event, text

from quiz.db import reviews as review_store
from quiz.db.exam_flags import flagged, set_flag
from quiz.db.exams import (
    CLOSED_BOOK,
    EXAM_ANSWERS,
    ExamInProgressError,
    answers_and_flags,
    close_expired,
    closed_book_deadline,
    exam_answers,
    exam_history,
    get_exam,
    hand_in,
    open_exam,
    save_exam_answer,
    start_exam,
)
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.training.exams import ExamSpec
from quiz.training.scheduling import next_schedule
from tests.waiting import wait_until

JST = timezone(timedelta(hours=9))
START = datetime(2025, 3, 1, 19, 0, tzinfo=JST)
SPEC = ExamSpec(questions=4, minutes=30, pass_percent=75, rulesets=("yugioh-ocg", "pokemon-card-ja"),
                categories=("yugioh-ocg/tardiness", "pokemon-card-ja/knowledge"))
CARDS = ("ygo-d", "ygo-a", "pkm-c", "ygo-b")  # deliberately not sorted
SEEDS = (907, 3, 2**31 + 5, 0)


@pytest.fixture
def trainee_id(store: Store) -> int:
    return store.trainee("Aiko").id


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def answer(trainee_id: int, exam_id: int, card_id: str, correct: bool, minutes: float) -> AttemptRecord:
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset="yugioh-ocg", category=None, card_kind="knowledge",
        mode="exam", chosen_choice="a", correct_choice="a" if correct else "b", correct=correct, seconds=3.0,
        answered_at=at(minutes), exam_id=exam_id,
    )


def test_an_exam_round_trips_with_its_questions_in_order(store, trainee_id):
    started = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    found = get_exam(store, started.id)
    assert found == started
    assert found.card_ids == CARDS and found.seeds == SEEDS
    assert found.spec == SPEC
    assert found.started_at == START and found.started_at.tzinfo is not None
    assert found.deadline == START + timedelta(minutes=30)
    assert (found.finished_at, found.score, found.passed) == (None, None, None)
    assert get_exam(store, started.id + 1) is None


def test_an_exam_needs_questions_and_a_seed_for_each(store, trainee_id):
    with pytest.raises(ValueError):
        start_exam(store, trainee_id, "custom", SPEC, (), (), START)
    with pytest.raises(ValueError):
        start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS[:3], START)


def test_the_open_exam_is_found_for_resuming_until_its_deadline(store, trainee_id):
    other = store.trainee("Ben").id
    exam = start_exam(store, trainee_id, "ygo-20", SPEC, CARDS, SEEDS, START)
    assert open_exam(store, trainee_id, at(29)) == exam
    assert open_exam(store, other, at(1)) is None
    assert open_exam(store, trainee_id, at(30)) is None  # the deadline has come


def test_a_second_exam_cannot_start_while_one_runs(store, trainee_id):
    start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    with pytest.raises(ExamInProgressError):
        start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, at(10))
    later = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, at(31))  # the first ran out
    assert open_exam(store, trainee_id, at(32)) == later


def test_of_exams_started_at_the_same_moment_only_one_starts(store, trainee_id):
    """Two tabs (or two servers) starting an exam together: one starts it, the others are told."""
    sessions = 4
    barrier = threading.Barrier(sessions)
    outcomes: list[str] = []

    def start() -> None:
        barrier.wait()
        try:
            start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
            outcomes.append("started")
        except ExamInProgressError:
            outcomes.append("refused")

    threads = [threading.Thread(target=start) for _ in range(sessions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["refused"] * (sessions - 1) + ["started"]
    assert len(exam_history(store, trainee_id)) == 1


def test_answers_are_stored_at_once_and_only_while_they_count(store, trainee_id):
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-a", True, 1), at(1))
    assert [r.card_id for r in exam_answers(store, exam.id)] == ["ygo-a"]  # stored before hand-in
    assert not save_exam_answer(store, answer(trainee_id, exam.id, "other", True, 2), at(2))  # not a question
    assert not save_exam_answer(store, answer(trainee_id, exam.id, "ygo-b", True, 31), at(31))  # too late
    assert [r.card_id for r in exam_answers(store, exam.id)] == ["ygo-a"]
    stored = store.attempts(trainee_id)
    assert list(stored["mode"]) == ["exam"] and list(stored["exam_id"]) == [exam.id]
    with pytest.raises(LookupError, match="no exam"):
        save_exam_answer(store, answer(trainee_id, exam.id + 1000, "ygo-a", True, 2), at(2))
    assert len(store.attempts(trainee_id)) == 1  # nothing stored for an exam that is not there


def test_a_changed_answer_replaces_the_first_until_hand_in(store, trainee_id):
    """As on a paper test: the candidate changes an answer; one attempt per question stays, so
    statistics count the question once, and the card's review schedule waits for hand-in."""
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-a", False, 1), at(1))
    assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-a", True, 2), at(2))  # changed: now right
    [kept] = exam_answers(store, exam.id)
    assert (kept.card_id, kept.correct, kept.answered_at) == ("ygo-a", True, at(2))
    assert len(store.attempts(trainee_id)) == 1
    assert review_store.schedule(store, trainee_id, "ygo-a") is None  # not yet: the exam is open
    closed = hand_in(store, exam.id, at(3))
    assert closed.score == 1
    schedule = review_store.schedule(store, trainee_id, "ygo-a")
    assert schedule == next_schedule(None, True, at(2))  # moved on once, by the final answer
    assert not save_exam_answer(store, answer(trainee_id, exam.id, "ygo-a", False, 4), at(4))  # handed in
    assert [r.correct for r in exam_answers(store, exam.id)] == [True]


def test_of_answers_to_one_question_given_at_the_same_moment_only_one_is_stored(store, trainee_id):
    """Tabs of one trainee answering the same question together: each is stored in turn, the
    later replacing the earlier, and one attempt stays."""
    sessions = 4
    for attempt_round in range(3):  # a race is a chance: try it a few times
        exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START + timedelta(hours=attempt_round))
        barrier = threading.Barrier(sessions)
        outcomes: list[bool] = []

        def give(correct: bool, barrier=barrier, exam=exam, attempt_round=attempt_round, outcomes=outcomes) -> None:
            barrier.wait()
            record = answer(trainee_id, exam.id, "ygo-a", correct, 60 * attempt_round + 1)
            outcomes.append(save_exam_answer(store, record, at(60 * attempt_round + 1)))

        threads = [threading.Thread(target=give, args=(n % 2 == 0,)) for n in range(sessions)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert outcomes == [True] * sessions
        assert len(exam_answers(store, exam.id)) == 1
        hand_in(store, exam.id, at(60 * attempt_round + 2))


def test_handing_in_scores_the_answers_and_counts_the_rest_wrong(store, trainee_id):
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    for minutes, (card, right) in enumerate([("ygo-d", True), ("ygo-a", True), ("pkm-c", False)], start=1):
        assert save_exam_answer(store, answer(trainee_id, exam.id, card, right, minutes), at(minutes))
    closed = hand_in(store, exam.id, at(12))
    # 2 right of 4 (one wrong, one unanswered) is 50 %, below the 75 % mark.
    assert (closed.score, closed.passed, closed.finished_at) == (2, False, at(12))
    assert not closed.timed_out
    assert open_exam(store, trainee_id, at(13)) is None
    assert hand_in(store, exam.id, at(20)) == closed  # handing in twice changes nothing


def test_an_exam_past_its_deadline_is_closed_at_the_deadline(store, trainee_id):
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    for minutes, card in enumerate(("ygo-d", "ygo-a", "pkm-c"), start=1):
        save_exam_answer(store, answer(trainee_id, exam.id, card, True, minutes), at(minutes))
    assert close_expired(store, trainee_id, at(29)) == []
    closed = close_expired(store, trainee_id, at(45))
    assert [e.id for e in closed] == [exam.id]
    # 3 right of 4 is exactly the 75 % mark.
    assert (closed[0].score, closed[0].passed, closed[0].finished_at) == (3, True, exam.deadline)
    assert closed[0].timed_out
    assert close_expired(store, trainee_id, at(50)) == []
    assert get_exam(store, exam.id) == closed[0]


def test_handing_in_after_the_deadline_closes_at_the_deadline(store, trainee_id):
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    closed = hand_in(store, exam.id, at(90))
    assert closed.finished_at == exam.deadline and closed.timed_out
    assert (closed.score, closed.passed) == (0, False)


def test_history_lists_the_trainees_exams_newest_first(store, trainee_id):
    first = start_exam(store, trainee_id, "ygo-20", SPEC, CARDS, SEEDS, START)
    save_exam_answer(store, answer(trainee_id, first.id, "ygo-a", True, 1), at(1))
    hand_in(store, first.id, at(5))
    second = start_exam(store, trainee_id, "custom", SPEC, CARDS[:2], SEEDS[:2], at(60))
    start_exam(store, store.trainee("Ben").id, "custom", SPEC, CARDS, SEEDS, START)  # not Aiko's
    history = exam_history(store, trainee_id)
    assert list(history["id"]) == [second.id, first.id]
    assert list(history["preset"]) == ["custom", "ygo-20"]
    assert list(history["total"]) == [2, 4]
    assert history["score"].isna().iloc[0] and history["score"].iloc[1] == 1
    assert history["passed"].isna().iloc[0] and not history["passed"].iloc[1]
    assert history["started_at"].iloc[1] == START
    assert len(exam_history(store)) == 3
    assert exam_history(store, store.trainee("Chie").id).empty


CLOSED_SPEC = ExamSpec(questions=2, minutes=30, pass_percent=75, rulesets=("yugioh-ocg",), closed_book=True)


def test_a_closed_book_exam_is_known_while_it_runs(store, trainee_id):
    """What the study pages ask on every click: the deadline while a closed-book exam runs;
    nothing for an open-book one, once handed in, or once out of time."""
    assert closed_book_deadline(store, trainee_id, START) is None
    open_book = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    assert closed_book_deadline(store, trainee_id, at(1)) is None
    hand_in(store, open_book.id, at(2))

    exam = start_exam(store, trainee_id, "custom", CLOSED_SPEC, CARDS[:2], SEEDS[:2], at(3))
    assert closed_book_deadline(store, trainee_id, at(4)) == exam.deadline == at(33)
    assert closed_book_deadline(store, store.trainee("Ben").id, at(4)) is None  # only its trainee waits
    assert closed_book_deadline(store, trainee_id, at(33)) is None  # out of time
    hand_in(store, exam.id, at(10))
    assert closed_book_deadline(store, trainee_id, at(11)) is None

    expired = start_exam(store, trainee_id, "custom", CLOSED_SPEC, CARDS[:2], SEEDS[:2], at(40))
    assert closed_book_deadline(store, trainee_id, at(41)) == expired.deadline
    close_expired(store, trainee_id, at(80))
    assert closed_book_deadline(store, trainee_id, at(41)) is None  # closed: asked at any time after


@pytest.mark.postgres
def test_another_server_learns_of_a_closed_book_exam_at_its_start_and_close(postgres_url):
    """Server B keeps what it read (no query per click) until server A's start or hand-in
    notifies every server: a tab open on B waits within moments of the exam starting on A.
    (Both are in this process: A's ``changed`` takes the change in only in A's own watches,
    so only PostgreSQL's notice can tell B, as it must on another machine.)"""
    server_a, server_b = Store(postgres_url), Store(postgres_url)
    try:
        trainee = server_a.trainee("Aiko").id
        watch = server_b.watches.kept(CLOSED_BOOK)
        wait_until(lambda: watch.live, "server B listens")
        assert closed_book_deadline(server_b, trainee, at(1)) is None  # kept from here on
        exam = start_exam(server_a, trainee, "custom", CLOSED_SPEC, CARDS[:2], SEEDS[:2], at(1))
        wait_until(lambda: closed_book_deadline(server_b, trainee, at(2)) == exam.deadline,
                   "server B hears of the exam")
        hand_in(server_a, exam.id, at(5))
        wait_until(lambda: closed_book_deadline(server_b, trainee, at(6)) is None, "server B hears of the hand-in")
    finally:
        server_a.dispose()
        server_b.dispose()


def test_a_flag_is_kept_only_while_the_exam_is_open(store, trainee_id):
    """A tab that has not seen the hand-in elsewhere leaves no flag behind the closing."""
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    set_flag(store, exam.id, "ygo-a", True)
    set_flag(store, exam.id, "ygo-a", True)  # twice: one flag
    set_flag(store, exam.id, "pkm-c", True)
    set_flag(store, exam.id, "pkm-c", False)
    assert flagged(store, exam.id) == {"ygo-a"}
    hand_in(store, exam.id, at(5))
    assert flagged(store, exam.id) == frozenset()  # the closing drops them
    set_flag(store, exam.id, "ygo-b", True)  # from a tab still showing the question
    assert flagged(store, exam.id) == frozenset()


def test_a_questions_run_reads_the_exams_answers_and_flags_together(store, trainee_id):
    """One read gives what the two reads give: the answers oldest first, the flags; nothing of
    another exam's; answers with no flag and flags with no answer alike."""
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    assert answers_and_flags(store, exam.id) == ((), frozenset())
    set_flag(store, exam.id, "pkm-c", True)  # flagged, not answered
    assert answers_and_flags(store, exam.id) == ((), frozenset({"pkm-c"}))
    assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-b", False, 2), at(2))
    assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-a", True, 1), at(3))
    set_flag(store, exam.id, "ygo-a", True)  # answered and flagged
    stored, flags = answers_and_flags(store, exam.id)
    assert list(stored) == exam_answers(store, exam.id)
    assert [a.card_id for a in stored] == ["ygo-a", "ygo-b"]  # oldest first: answered at minutes 1 and 2
    assert all(isinstance(a, AttemptRecord) and a.exam_id == exam.id for a in stored)
    assert flags == flagged(store, exam.id) == {"ygo-a", "pkm-c"}
    hand_in(store, exam.id, at(5))
    other = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, at(6))
    set_flag(store, other.id, "ygo-d", True)
    assert answers_and_flags(store, other.id) == ((), frozenset({"ygo-d"}))
    assert answers_and_flags(store, exam.id) == (stored, frozenset())  # its flags dropped at the closing


def test_another_server_keeps_an_exams_answers_and_flags_until_one_changes(store, trainee_id):
    """What every run of an exam's question reads: kept in memory on a second server on the same
    database (no statement while nothing changed), and read again once the first server saves
    an answer, flags a question, takes a flag off or closes the exam."""
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    other = Store(store.url.render_as_string(hide_password=False))
    try:
        watch = other.watches.kept(EXAM_ANSWERS)
        wait_until(lambda: watch.live, "the other server's watch keeps values")
        assert answers_and_flags(other, exam.id) == ((), frozenset())
        sent: list[str] = []
        event.listen(other.engine, "before_cursor_execute", lambda *args: sent.append(args[2]))
        assert answers_and_flags(other, exam.id) == ((), frozenset()) and sent == []

        assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-a", True, 1), at(1))
        wait_until(lambda: [a.card_id for a in answers_and_flags(other, exam.id)[0]] == ["ygo-a"],
                   "the other server shows the saved answer")
        changed_answer = answer(trainee_id, exam.id, "ygo-a", False, 2)
        assert save_exam_answer(store, changed_answer, at(2))
        wait_until(lambda: answers_and_flags(other, exam.id)[0] == (changed_answer,),
                   "the other server shows the changed answer")
        set_flag(store, exam.id, "ygo-b", True)
        wait_until(lambda: answers_and_flags(other, exam.id)[1] == {"ygo-b"}, "the other server shows the flag")
        set_flag(store, exam.id, "ygo-b", False)
        wait_until(lambda: answers_and_flags(other, exam.id)[1] == frozenset(), "the other server drops the flag")
        set_flag(store, exam.id, "pkm-c", True)
        wait_until(lambda: answers_and_flags(other, exam.id)[1] == {"pkm-c"}, "the other server shows a new flag")
        hand_in(store, exam.id, at(3))
        wait_until(lambda: answers_and_flags(other, exam.id)[1] == frozenset(),
                   "the other server sees the flags dropped at the closing")

        def read_from_memory() -> bool:
            sent.clear()
            answers_and_flags(other, exam.id)
            return sent == []

        wait_until(read_from_memory, "kept again once read (after the closing's notice)")
    finally:
        other.dispose()


def exam_store_read(store: Store, exam_id: int):
    """The exam's answers and flags as the database holds them now (no value kept)."""
    store.watches.kept(EXAM_ANSWERS).forget(exam_id)
    return answers_and_flags(store, exam_id)


def test_a_save_takes_the_exams_row_then_one_write_and_its_server_keeps_what_it_reads_back(
    store, trainee_id, request
):
    """The save of an exam answer, what every Save click costs: on PostgreSQL the exam's row
    taken and read, then one statement (the answer replaced or added, and the notice); the
    answers read back after it are kept on this server, its own notice heard or not."""
    exam = start_exam(store, trainee_id, "custom", SPEC, CARDS, SEEDS, START)
    watch = store.watches.kept(EXAM_ANSWERS)
    wait_until(lambda: watch.live, "the watch keeps values")
    assert save_exam_answer(store, answer(trainee_id, exam.id, "ygo-b", True, 0.5), at(0.5))
    set_flag(store, exam.id, "pkm-c", True)
    answers_and_flags(store, exam.id)  # read, and kept: what the question's run drew before Save
    sent: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: sent.append(args[2]))
    fresh = Store(store.url.render_as_string(hide_password=False))  # reads what the database holds
    request.addfinalizer(fresh.dispose)
    for minutes, right in ((1, True), (2, False)):  # added, then replaced
        sent.clear()
        record = answer(trainee_id, exam.id, "ygo-a", right, minutes)
        assert save_exam_answer(store, record, at(minutes))
        if store.one_statement_writes:
            assert len(sent) == 2 and "pg_notify" in sent[1] and "INSERT INTO attempts" in sent[1]
        sent.clear()
        read_back = answers_and_flags(store, exam.id)
        assert [(a.card_id, a.correct) for a in read_back[0]] == [("ygo-b", True), ("ygo-a", right)]
        assert read_back[1] == {"pkm-c"}
        if store.one_statement_writes:
            assert sent == []  # the kept value took the save in: no read again
        assert read_back == exam_store_read(fresh, exam.id)
    assert len(store.attempts(trainee_id)) == 2
    if store.one_statement_writes:
        generation = watch._generation
        with store.engine.begin() as conn:  # a later notice of the channel: once heard, the save's was too
            conn.execute(text("SELECT pg_notify(:channel, '0')"), {"channel": EXAM_ANSWERS})
        wait_until(lambda: watch._generation > generation, "the later notice is heard")
        sent.clear()
        assert [a.correct for a in answers_and_flags(store, exam.id)[0]] == [True, False]
        assert sent == []  # kept: the save's own notice forgot nothing
