"""Problem reports: stored with what the trainee saw and answered, resolved with a note, never a grade change."""

from __future__ import annotations

import datetime as dt

import pytest

from quiz.db import exams as exam_store
from quiz.db.answers import save_answer
from quiz.db.problem_reports import REASONS, card_reports, file_report, get_report, reports_frame, resolve_report
from quiz.db.submissions import submit_answer
from quiz.db.tables import REPORT_TEXT_MAX
from quiz.model.errors import QuizError, ReportError
from quiz.rules.variants import show_card
from quiz.training.exam_results import exam_questions
from quiz.training.exams import ExamSpec
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card

NOW = dt.datetime(2026, 4, 2, 12, 0, tzinfo=dt.UTC)


def variant_card(content):
    return next(card for card in content.scenario_cards if card.parameters)


def test_a_report_keeps_the_card_as_shown_and_the_answer_given(store, content):
    trainee = store.trainee("Aiko")
    card = variant_card(content)
    showing = show_card(card, 12345)
    submission = submit_answer(store, content, card, ScenarioAnswer(card.infraction, "warning", ()), trainee.id, 9.0,
                               showing=showing)
    before = store.attempts()
    report = file_report(store, submission.outcome.record, "key_wrong", "  The key says warning; line 55 says otherwise.  ",
                         now=NOW)
    assert report.reason == "key_wrong"
    assert report.text == "The key says warning; line 55 says otherwise."
    assert report.content_fingerprint == content.fingerprint()
    assert report.variant_values == submission.outcome.record.variant_values is not None
    assert report.answer == {"infraction": card.infraction, "penalty": "warning", "fixes": [], "players": None}
    assert report.attempt_id == int(before["id"].iloc[0])
    assert get_report(store, report.id) == report
    assert card_reports(store, card.id) == [report]
    after = store.attempts()
    assert after["correct"].tolist() == before["correct"].tolist()  # a report changes no grade
    assert not report.resolved and report.resolution is None


def test_a_report_on_a_knowledge_card_keeps_the_choice(store, content):
    trainee = store.trainee("Ben")
    card = content.knowledge_cards[0]
    submission = submit_answer(store, content, card, card.choices[0].id, trainee.id, 4.0)
    report = file_report(store, submission.outcome.record, "unclear")
    assert report.answer == {"choice": card.choices[0].id}
    assert report.text == ""


def test_an_answer_not_stored_gives_a_report_without_an_attempt(store, content):
    trainee = store.trainee("Chika")
    card = content.knowledge_cards[1]
    outcome = answer_card(content, card, card.answer, trainee.id, 3.0)
    assert file_report(store, outcome.record, "other", "typo").attempt_id is None
    save_answer(store, outcome.record)
    assert file_report(store, outcome.record, "other", "typo").attempt_id is not None


@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_is_accepted(store, content, reason):
    trainee = store.trainee("Dai")
    outcome = submit_answer(store, content, content.knowledge_cards[0], None, trainee.id, 1.0).outcome
    assert file_report(store, outcome.record, reason).reason == reason


def test_bad_reasons_and_long_texts_are_refused(store, content):
    trainee = store.trainee("Emi")
    record = submit_answer(store, content, content.knowledge_cards[0], None, trainee.id, 1.0).outcome.record
    with pytest.raises(ReportError) as error:
        file_report(store, record, "boring")
    assert error.value.rule == "reason" and isinstance(error.value, QuizError)
    with pytest.raises(ReportError) as error:
        file_report(store, record, "other", "x" * (REPORT_TEXT_MAX + 1))
    assert error.value.rule == "too_long"
    assert file_report(store, record, "other", "x" * REPORT_TEXT_MAX).text == "x" * REPORT_TEXT_MAX
    assert reports_frame(store)["text"].tolist() == ["x" * REPORT_TEXT_MAX]


def test_a_supervisor_resolves_a_report_with_a_note(store, content):
    trainee = store.trainee("Fumi")
    record = submit_answer(store, content, content.knowledge_cards[0], None, trainee.id, 1.0).outcome.record
    first = file_report(store, record, "key_wrong", "one", now=NOW)
    second = file_report(store, record, "unclear", "two", now=NOW + dt.timedelta(minutes=1))
    resolved = resolve_report(store, first.id, "Fixed in the card file.", now=NOW + dt.timedelta(hours=1))
    assert resolved.resolved and resolved.resolution == "Fixed in the card file."
    assert resolved.resolved_at == NOW + dt.timedelta(hours=1)
    assert reports_frame(store, open_only=True)["id"].tolist() == [second.id]
    everything = reports_frame(store)
    assert everything["id"].tolist() == [second.id, first.id]  # newest first
    assert everything["trainee"].tolist() == ["Fumi", "Fumi"]
    with pytest.raises(ReportError) as error:
        resolve_report(store, 99999, "nothing")
    assert error.value.rule == "unknown"


def test_a_report_from_exam_results_finds_the_answer_that_counted(store, content):
    """Exam results grade each answer again (at a new moment): the report still finds the stored one."""
    trainee = store.trainee("Gen")
    cards = content.knowledge_cards[:2]
    spec = ExamSpec(2, 10, 80, (cards[0].ruleset,))
    exam = exam_store.start_exam(store, trainee.id, "custom", spec, tuple(c.id for c in cards), (1, 2), NOW)
    submit_answer(store, content, cards[0], cards[0].choices[-1].id, trainee.id, 5.0, mode="exam", exam_id=exam.id,
                  now=NOW + dt.timedelta(minutes=1))
    closed = exam_store.hand_in(store, exam.id, NOW + dt.timedelta(minutes=2))
    questions = exam_questions(content, closed, exam_store.exam_answers(store, exam.id))
    stored = store.attempts()
    answered, unanswered = questions[0].outcome.record, questions[1].outcome.record
    assert answered.answered_at != stored["answered_at"].iloc[0]  # graded again, now
    assert file_report(store, answered, "key_wrong").attempt_id == int(stored["id"].iloc[0])
    assert file_report(store, unanswered, "unclear").attempt_id is None
