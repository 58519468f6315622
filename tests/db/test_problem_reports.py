"""Problem reports: stored with what the trainee saw and answered, resolved with a note, never a grade change."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from sqlalchemy import insert

from quiz.access.supervisors import create_account
from quiz.db import audit
from quiz.db import exams as exam_store
from quiz.db.answers import save_answer
from quiz.db.problem_reports import (
    LIMITS,
    REASONS,
    ReportFilter,
    ReportLimits,
    card_reports,
    file_report,
    get_report,
    report_page,
    reported_cards,
    reports_frame,
    resolve_report,
    resolve_reports,
)
from quiz.db.submissions import submit_answer
from quiz.db.tables import REPORT_TEXT_MAX, problem_reports
from quiz.model.attempt import Mode
from quiz.model.errors import QuizError, ReportError, ReportLimitError
from quiz.rules.variants import show_card
from quiz.training.exam_results import exam_questions
from quiz.training.exams import ExamSpec
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from tests.scopes import EVERY_STORE

NOW = dt.datetime(2026, 4, 2, 12, 0, tzinfo=dt.UTC)


def variant_card(content):
    return next(card for card in content.scenario_cards if card.parameters)


def test_a_report_keeps_the_card_as_shown_and_the_answer_given(store, content):
    trainee = store.trainee("Aiko")
    card = variant_card(content)
    showing = show_card(card, 12345)
    submission = submit_answer(store, content, GivenAnswer(card, ScenarioAnswer(card.infraction, "warning", ()),
                                                           trainee.id, 9.0, showing=showing))
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
    assert card_reports(store, EVERY_STORE, card.id) == [report]
    after = store.attempts()
    assert after["correct"].tolist() == before["correct"].tolist()  # a report changes no grade
    assert not report.resolved and report.resolution is None


def test_a_report_on_a_knowledge_card_keeps_the_choice(store, content):
    trainee = store.trainee("Ben")
    card = content.knowledge_cards[0]
    submission = submit_answer(store, content, GivenAnswer(card, card.choices[0].id, trainee.id, 4.0))
    report = file_report(store, submission.outcome.record, "unclear")
    assert report.answer == {"choice": card.choices[0].id}
    assert report.text == ""


def test_an_answer_not_stored_gives_a_report_without_an_attempt(store, content, admin):
    trainee = store.trainee("Chika")
    card = content.knowledge_cards[1]
    outcome = answer_card(content, GivenAnswer(card, card.answer, trainee.id, 3.0))
    unstored = file_report(store, outcome.record, "other", "typo")
    assert unstored.attempt_id is None
    resolve_report(store, admin, unstored.id, "seen")  # one open report per card and trainee
    save_answer(store, outcome.record)
    assert file_report(store, outcome.record, "other", "typo").attempt_id is not None


@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_is_accepted(store, content, reason):
    trainee = store.trainee("Dai")
    outcome = submit_answer(store, content, GivenAnswer(content.knowledge_cards[0], None, trainee.id, 1.0)).outcome
    assert file_report(store, outcome.record, reason).reason == reason


def test_bad_reasons_and_long_texts_are_refused(store, content):
    trainee = store.trainee("Emi")
    record = submit_answer(store, content, GivenAnswer(content.knowledge_cards[0], None, trainee.id,
                                                       1.0)).outcome.record
    with pytest.raises(ReportError) as error:
        file_report(store, record, "boring")
    assert error.value.rule == "reason" and isinstance(error.value, QuizError)
    with pytest.raises(ReportError) as error:
        file_report(store, record, "other", "x" * (REPORT_TEXT_MAX + 1))
    assert error.value.rule == "too_long"
    assert file_report(store, record, "other", "x" * REPORT_TEXT_MAX).text == "x" * REPORT_TEXT_MAX
    assert reports_frame(store, EVERY_STORE)["text"].tolist() == ["x" * REPORT_TEXT_MAX]


def test_a_supervisor_resolves_a_report_with_a_note(store, content, admin):
    trainee = store.trainee("Fumi")
    record = submit_answer(store, content, GivenAnswer(content.knowledge_cards[0], None, trainee.id,
                                                       1.0)).outcome.record
    other = submit_answer(store, content, GivenAnswer(content.knowledge_cards[1], None, trainee.id,
                                                      1.0)).outcome.record
    first = file_report(store, record, "key_wrong", "one", now=NOW)
    second = file_report(store, other, "unclear", "two", now=NOW + dt.timedelta(minutes=1))
    resolved = resolve_report(store, admin, first.id, "Fixed in the card file.", now=NOW + dt.timedelta(hours=1))
    assert resolved.resolved and resolved.resolution == "Fixed in the card file."
    assert resolved.resolved_at == NOW + dt.timedelta(hours=1)
    assert reports_frame(store, EVERY_STORE, open_only=True)["id"].tolist() == [second.id]
    everything = reports_frame(store, EVERY_STORE)
    assert everything["id"].tolist() == [second.id, first.id]  # newest first
    assert everything["trainee"].tolist() == ["Fumi", "Fumi"]
    with pytest.raises(ReportError) as error:
        resolve_report(store, admin, 99999, "nothing")
    assert error.value.rule == "unknown"


def test_a_report_from_exam_results_finds_the_answer_that_counted(store, content):
    """Exam results grade each answer again (at a new moment): the report still finds the stored one."""
    trainee = store.trainee("Gen")
    cards = content.knowledge_cards[:2]
    spec = ExamSpec(2, 10, 80, (cards[0].ruleset,))
    exam = exam_store.start_exam(store, trainee.id, "custom", spec, tuple(c.id for c in cards), (1, 2), NOW)
    submit_answer(store, content, GivenAnswer(cards[0], cards[0].choices[-1].id, trainee.id, 5.0, mode=Mode.EXAM,
                                              exam_id=exam.id), now=NOW + dt.timedelta(minutes=1))
    closed = exam_store.hand_in(store, exam.id, NOW + dt.timedelta(minutes=2))
    questions = exam_questions(content, closed, exam_store.exam_answers(store, exam.id))
    stored = store.attempts()
    answered, unanswered = questions[0].outcome.record, questions[1].outcome.record
    assert answered.answered_at != stored["answered_at"].iloc[0]  # graded again, now
    assert file_report(store, answered, "key_wrong").attempt_id == int(stored["id"].iloc[0])
    assert file_report(store, unanswered, "unclear").attempt_id is None


@pytest.fixture
def admin(store):
    """An admin account's scope of every store (its resolutions are written to the audit log)."""
    return create_account(store, "Kantoku", "a long enough password", "admin", None, None).scope()


def answered(store, content, name: str, cards: int):
    """A trainee's stored answers to the first ``cards`` knowledge cards."""
    trainee = store.trainee(name)
    return [submit_answer(store, content, GivenAnswer(card, None, trainee.id, 1.0)).outcome.record
            for card in content.knowledge_cards[:cards]]


def test_a_flood_from_one_trainee_is_refused_after_the_limits(store, content):
    """Reports on distinct cards: 5 in any 10 minutes, then 30 in a day; kept in the database,
    so no new session or server lets the trainee past."""
    records = answered(store, content, "Hana", 40)
    limits = LIMITS
    for n, record in enumerate(records[: limits.per_window]):
        file_report(store, record, "other", f"report {n}", now=NOW + dt.timedelta(seconds=n))
    with pytest.raises(ReportLimitError) as refused:
        file_report(store, records[limits.per_window], "other", "one too many", now=NOW + dt.timedelta(minutes=9))
    assert refused.value.rule == "rate" and isinstance(refused.value, ReportError)
    filed, moment = limits.per_window, NOW
    while filed < limits.per_day:  # a trainee who keeps to the pace reaches the day's limit
        moment += limits.window + dt.timedelta(minutes=1)
        for _ in range(min(limits.per_window, limits.per_day - filed)):
            file_report(store, records[filed], "other", "", now=moment)
            filed += 1
    with pytest.raises(ReportLimitError) as refused:
        file_report(store, records[filed], "other", "", now=moment + limits.window)
    assert refused.value.rule == "daily"
    assert len(reports_frame(store, EVERY_STORE)) == limits.per_day
    file_report(store, records[filed], "other", "", now=NOW + dt.timedelta(days=1, minutes=1))  # a day later


def test_throwaway_trainees_each_within_their_share_are_held_per_store(store, content):
    """Finding L6: 40 throwaway trainees filed 150 reports in 34 s, each within its own limits."""
    from sqlalchemy import update

    from quiz.access.stores import create_store
    from quiz.db.tables import trainees

    filed = refused = 0
    for n in range(40):
        for record in answered(store, content, f"Throwaway{n}", 4):
            try:
                file_report(store, record, "other", "spam", now=NOW + dt.timedelta(seconds=filed + refused))
            except ReportLimitError as error:
                assert error.rule == "store"
                refused += 1
            else:
                filed += 1
    assert filed == LIMITS.store_per_window and refused == 160 - LIMITS.store_per_window
    # a store's trainees are not held by the self-study players' flood
    shop = create_store(store, "Elsewhere", None)
    local = store.trainee("Local")
    with store.engine.begin() as conn:
        conn.execute(update(trainees).where(trainees.c.id == local.id).values(store_id=shop.id))
    [record] = answered(store, content, "Local", 1)
    file_report(store, record, "other", "mine", now=NOW + dt.timedelta(minutes=1))


def test_one_open_report_per_trainee_and_card(store, content, admin):
    first_record = answered(store, content, "Ichi", 1)[0]
    first = file_report(store, first_record, "unclear", "one", now=NOW)
    with pytest.raises(ReportLimitError) as refused:
        file_report(store, first_record, "key_wrong", "again", now=NOW + dt.timedelta(hours=2))
    assert (refused.value.rule, refused.value.open_id) == ("open", first.id)
    other = answered(store, content, "Jun", 1)[0]  # another trainee's report on the same card is theirs
    file_report(store, other, "unclear", "mine", now=NOW + dt.timedelta(hours=2))
    resolve_report(store, admin, first.id, "clarified", now=NOW + dt.timedelta(hours=3))
    file_report(store, first_record, "key_wrong", "again", now=NOW + dt.timedelta(hours=4))  # resolved: may report anew


def test_reports_filed_at_once_on_two_connections_are_counted_one_after_the_other(store, content):
    """The trainee's row is held while the limits are checked: of two reports at the same
    moment (two servers), one passes and one is refused, never both."""
    first, second = answered(store, content, "Kai", 2)
    tight = ReportLimits(per_window=1)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def send(record) -> None:
        start.wait()
        try:
            file_report(store, record, "other", "", now=NOW, limits=tight)
            outcomes.append("filed")
        except ReportLimitError as refused:
            outcomes.append(refused.rule)

    threads = [threading.Thread(target=send, args=(record,)) for record in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["filed", "rate"]
    assert len(reports_frame(store, EVERY_STORE)) == 1


def stored_reports(store, trainees: int, cards: int, resolved_every: int = 0) -> None:
    """``trainees * cards`` reports written as they are (the limits aside), one a minute."""
    ids = [store.trainee(f"R{n}").id for n in range(trainees)]
    rows = [dict(trainee_id=ids[n % trainees], card_id=f"card-{n // trainees}", reason="other", text=f"#{n}",
                 created_at=NOW + dt.timedelta(minutes=n), resolved=bool(resolved_every and n % resolved_every == 0))
            for n in range(trainees * cards)]
    with store.engine.begin() as conn:
        conn.execute(insert(problem_reports), rows)


def test_a_page_of_reports_reads_only_its_rows_and_counts_the_rest(store):
    stored_reports(store, trainees=10, cards=6, resolved_every=3)  # 60 reports, 20 resolved
    page = report_page(store, EVERY_STORE, ReportFilter("open"), page=1, size=25)
    assert (page.total, page.pages, page.page, len(page.frame)) == (40, 2, 1, 15)
    everything = reports_frame(store, EVERY_STORE, open_only=True)
    assert page.frame["id"].tolist() == everything["id"].tolist()[25:]  # newest first, the second page
    assert report_page(store, EVERY_STORE, ReportFilter("resolved")).total == 20
    on_card = report_page(store, EVERY_STORE, ReportFilter("all", "card-2"), page=99, size=4)
    assert (on_card.total, on_card.page) == (10, 2)  # past the last page: the last
    assert set(on_card.frame["card_id"]) == {"card-2"} and len(on_card.frame) == 2
    assert reported_cards(store, EVERY_STORE) == [f"card-{n}" for n in reversed(range(6))]
    empty = report_page(store, EVERY_STORE, ReportFilter("all", "no-such-card"))
    assert (empty.total, empty.pages, empty.page, len(empty.frame)) == (0, 1, 0, 0)


def test_several_reports_are_resolved_with_one_note_and_each_is_audited(store, admin):
    stored_reports(store, trainees=3, cards=2)
    ids = reports_frame(store, EVERY_STORE)["id"].tolist()[:4]
    assert resolve_reports(store, admin, ids, "Fixed in the card file.", now=NOW + dt.timedelta(days=1)) == 4
    assert sorted(reports_frame(store, EVERY_STORE, open_only=True)["id"]) == sorted(set(reports_frame(
        store, EVERY_STORE)["id"]) - set(ids))
    assert all(get_report(store, i).resolution == "Fixed in the card file." for i in ids)
    logged = [entry for entry in audit.entries(store, admin) if entry.action == "report_resolved"]
    assert sorted(entry.target for entry in logged) == sorted(f"report {i}" for i in ids)
    assert {entry.actor for entry in logged} == {"Kantoku"}
    with pytest.raises(ReportError) as error:  # one unknown id: none is resolved
        resolve_reports(store, admin, [ids[0], 99999], "again")
    assert error.value.rule == "unknown" and get_report(store, ids[0]).resolution == "Fixed in the card file."
