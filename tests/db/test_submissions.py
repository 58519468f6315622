"""The one answer path: graded, then stored at once (practice with its review schedule; an
exam answer only while the exam is open)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest
from sqlalchemy.exc import OperationalError

from quiz.db.exams import start_exam
from quiz.db.reviews import due_count
from quiz.db.storage_errors import storage_problem
from quiz.db.submissions import submit_answer
from quiz.model.attempt import Mode, utc_now
from quiz.model.errors import AnswerLostError
from quiz.rules.engine import judge
from quiz.rules.variants import seed_facts
from quiz.training.exams import ExamSpec
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from tests.ui.answering import right_answer


def test_a_practice_answer_is_graded_stored_and_scheduled(store, content):
    card = content.cards["ygo-tardiness-1min-store"]
    verdict = judge(content.rulesets[card.ruleset], card.infraction, seed_facts(card))
    trainee = store.trainee("Aiko").id
    given = right_answer(content, card)
    assert given.penalty == verdict.penalty
    submitted = submit_answer(store, content, GivenAnswer(card, given, trainee, 4.0))
    assert submitted.stored and submitted.outcome.grade.correct
    stored = store.attempts(trainee)
    assert list(stored["card_id"]) == [card.id] and bool(stored["correct"].iloc[0])
    assert stored["content_fingerprint"].iloc[0] == content.fingerprint()
    assert due_count(store, trainee, [card.id], utc_now() + timedelta(days=365)) == 1  # its review schedule exists


def test_an_exam_answer_after_the_deadline_is_graded_but_not_stored(store, content):
    card = content.cards["ygo-tardiness-1min-store"]
    trainee = store.trainee("Ben").id
    started = utc_now() - timedelta(hours=2)
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    exam = start_exam(store, trainee, "custom", spec, [card.id], [0], started)
    late = submit_answer(store, content, GivenAnswer(card, ScenarioAnswer("tardiness", "warning"), trainee, 4.0,
                                                     mode=Mode.EXAM, exam_id=exam.id), now=utc_now())
    assert not late.stored
    assert store.attempts(trainee).empty


class Refused(Exception):
    pass


def test_a_guard_that_refuses_stores_nothing_on_either_path(store, content):
    """The write guard (the click's PIN check) runs in the storing transaction: practice and
    exam answers alike are not stored when it refuses, and a guard that passes changes nothing."""
    card = content.cards["ygo-tardiness-1min-store"]
    trainee = store.trainee("Chie").id
    given = ScenarioAnswer("tardiness", "warning")
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    exam = start_exam(store, trainee, "custom", spec, [card.id], [0], utc_now())
    seen = []

    def refuse(conn) -> None:
        seen.append(conn)
        raise Refused

    for mode, exam_id in ((Mode.PRACTICE, None), (Mode.EXAM, exam.id)):
        with pytest.raises(Refused):
            submit_answer(store, content, GivenAnswer(card, given, trainee, 4.0, mode=mode, exam_id=exam_id),
                          guard=refuse)
    assert len(seen) == 2 and store.attempts(trainee).empty
    assert due_count(store, trainee, [card.id], utc_now() + timedelta(days=365)) == 0  # no schedule either

    for mode, exam_id in ((Mode.PRACTICE, None), (Mode.EXAM, exam.id)):
        assert submit_answer(store, content, GivenAnswer(card, given, trainee, 4.0, mode=mode, exam_id=exam_id),
                             guard=seen.append).stored
    assert len(seen) == 4 and len(store.attempts(trainee)) == 2


@pytest.mark.parametrize("mode", [Mode.PRACTICE, Mode.EXAM])
def test_a_failure_of_the_database_while_storing_is_an_answer_lost_and_stores_nothing(store, content, mode):
    """The page tells an unsaved answer by its type (``AnswerLostError``), raised from the
    failure of the database, whose kind the page still explains; anything else (a bug, a
    refusal) is raised as it is."""
    card = content.cards["ygo-tardiness-1min-store"]
    trainee = store.trainee("Dai").id
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    exam_id = start_exam(store, trainee, "custom", spec, [card.id], [0], utc_now()).id if mode is Mode.EXAM else None
    given = GivenAnswer(card, ScenarioAnswer("tardiness", "warning"), trainee, 4.0, mode=mode, exam_id=exam_id)
    full = OperationalError("INSERT INTO attempts ...", {}, sqlite3.OperationalError("database or disk is full"))

    def disk_full(conn) -> None:
        raise full

    with pytest.raises(AnswerLostError) as lost:
        submit_answer(store, content, given, guard=disk_full)
    assert lost.value.__cause__ is full and storage_problem(lost.value) == "unreachable"
    assert store.attempts(trainee).empty

    def bug(conn) -> None:
        raise KeyError("not the database")

    with pytest.raises(KeyError):
        submit_answer(store, content, given, guard=bug)
    assert store.attempts(trainee).empty
