"""Exam times come from a clock that never steps back (finding L10).

Before, a server clock stepped back 60 minutes lengthened a 2-minute exam by an hour and
stored an answer timed before the exam began: every exam time was the wall clock's.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from quiz.db.exams import exam_answers, open_exam, save_exam_answer, start_exam
from quiz.db.store import Store
from quiz.model import attempt as attempt_module
from quiz.model.attempt import SteadyClock
from quiz.training.exams import ExamSpec
from tests.db.test_exam_store import CARDS, SEEDS, answer

TWO_MINUTES = ExamSpec(questions=4, minutes=2, pass_percent=75, rulesets=("yugioh-ocg", "pokemon-card-ja"),
                       categories=("yugioh-ocg/tardiness", "pokemon-card-ja/knowledge"))


class Machine:
    """A wall clock the test sets (an operator, a bad NTP server) and a monotonic one that runs."""

    def __init__(self) -> None:
        self.wall, self.mono = 1_800_000_000.0, 50.0

    def run(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def test_the_steady_clock_never_steps_back_and_follows_a_step_forward():
    machine = Machine()
    clock = SteadyClock(lambda: machine.wall, lambda: machine.mono)
    first = clock()
    machine.wall -= 3600  # stepped back an hour
    machine.run(30)
    assert clock() == first + 30
    machine.wall += 7200  # stepped forward
    assert clock() == machine.wall
    machine.run(1)
    assert clock() == machine.wall


def test_a_clock_stepped_back_does_not_lengthen_an_exam(store: Store, monkeypatch):
    machine = Machine()
    monkeypatch.setattr(attempt_module, "STEADY", SteadyClock(lambda: machine.wall, lambda: machine.mono))
    trainee_id = store.trainee("Aiko").id
    started = start_exam(store, trainee_id, "custom", TWO_MINUTES, CARDS, SEEDS, attempt_module.utc_now())
    machine.run(60)
    machine.wall -= 3600  # the server's clock stepped back an hour, a minute into the exam
    machine.run(61)  # two minutes and a second after the start
    assert open_exam(store, trainee_id, attempt_module.utc_now()) is None  # before: open for another hour
    late = replace(answer(trainee_id, started.id, CARDS[0], True, 0), answered_at=attempt_module.utc_now())
    assert not save_exam_answer(store, late, attempt_module.utc_now())


def test_an_answer_timed_before_its_exam_began_is_stored_at_its_start(store: Store):
    """Another server, whose clock is behind the one that started the exam."""
    trainee_id = store.trainee("Aiko").id
    begun = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    started = start_exam(store, trainee_id, "custom", TWO_MINUTES, CARDS, SEEDS, begun)
    behind = begun - timedelta(minutes=60)
    early = replace(answer(trainee_id, started.id, CARDS[0], True, 0), answered_at=behind)
    assert save_exam_answer(store, early, behind)
    [stored] = exam_answers(store, started.id)
    assert stored.answered_at == begun  # before: an hour before the exam began
