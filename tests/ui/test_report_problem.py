"""The report form: a reason and a text, stored with the answer; the trainee sees it was received."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from sqlalchemy import insert, update
from streamlit.testing.v1 import AppTest

from quiz.db.problem_reports import LIMITS, file_report, reports_frame
from quiz.db.store import Store
from quiz.db.submissions import submit_answer
from quiz.db.tables import problem_reports
from quiz.model.attempt import AttemptRecord, utc_now
from quiz.model.words import t
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.ui.folds import open_key
from quiz.ui.report_problem import report_key
from tests.scopes import EVERY_STORE
from tests.shipped_content import shipped_content


def form_script(url: str, card_id: str, trainee_name: str, language: str) -> None:
    """A page showing only the report form for the trainee's stored answer to ``card_id``."""
    import streamlit as st

    from quiz.db.store import Store
    from quiz.db.submissions import submit_answer
    from quiz.training.given_answer import GivenAnswer
    from quiz.training.grading import ScenarioAnswer
    from quiz.ui.report_problem import report_problem
    from quiz.ui.shell import Shell
    from tests.shipped_content import shipped_content

    content = shipped_content()
    store = Store(url)
    trainee = store.trainee(trainee_name)
    card = content.cards[card_id]
    if "record" not in st.session_state:
        given = ScenarioAnswer(card.infraction, "duel_loss", ())
        st.session_state["record"] = submit_answer(store, content, GivenAnswer(card, given, trainee.id,
                                                                               7.0)).outcome.record
    shell = Shell(language, trainee, tuple(content.rulesets), (), content, store)
    report_problem(shell, card, st.session_state["record"])


CARD = "ygo-tardiness-1min-store"


def start(url: str, language: str = "en", opened: bool = True) -> AppTest:
    """The page with the report expander, opened (as a click on it does) unless told not to."""
    at = AppTest.from_function(form_script, args=(url, CARD, "Aiko", language), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    if opened:
        at.session_state[open_key(report_key(shipped_content().cards[CARD], at.session_state["record"]))] = True
        at.run()
        assert not at.exception, at.exception
    return at


def test_the_form_is_drawn_only_once_the_expander_is_opened(database_url):
    """Every answer's feedback has the expander; its form (three widgets) is drawn on opening
    it, not on every run: under load, each widget drawn is server time."""
    at = start(database_url, opened=False)
    assert at.expander[0].label == "Report a problem with this card"
    assert not at.radio and not at.text_area and not at.button
    opened = start(database_url)
    assert opened.radio and opened.text_area and opened.button


def test_a_report_is_stored_and_acknowledged(database_url):
    at = start(database_url)
    assert at.expander[0].label == "Report a problem with this card"
    assert [o for o in at.radio[0].options] == [
        "The answer key is wrong", "The text is unclear", "The Japanese and the English say different things",
        "Something else"]
    at.radio[0].set_value("languages_differ")
    at.text_area[0].input("**The English says warning**, <b>the Japanese</b> says 注意.")
    at.button[0].click().run()
    assert not at.exception
    assert [s.value for s in at.success] == [
        "Thank you, your report was received. The card's authors will check it; it does not change your grade."]
    store = Store(database_url)
    try:
        reports = reports_frame(store, EVERY_STORE)
        attempts = store.attempts()
    finally:
        store.dispose()
    assert reports["reason"].tolist() == ["languages_differ"]
    assert reports["text"].tolist() == ["**The English says warning**, <b>the Japanese</b> says 注意."]
    assert reports["answer"].tolist() == [
        {"infraction": "tardiness", "penalty": "duel_loss", "fixes": [], "players": None}]
    assert reports["attempt_id"].tolist() == attempts["id"].tolist()
    assert attempts["correct"].tolist() == [False]  # the grade stands
    at.run()  # the form stays replaced by the acknowledgement
    assert not at.button and at.success


def test_the_form_speaks_japanese(database_url):
    at = start(database_url, "ja")
    assert at.expander[0].label == "このカードの問題を報告する"
    assert at.radio[0].options[0] == "正解が間違っている"
    at.button[0].click().run()
    assert at.success[0].value.startswith("ありがとうございます。報告を受け付けました。")


def test_answers_of_two_trainees_are_reported_apart(database_url):
    """Two answers make two reports; the second trainee's form is its own."""
    content = shipped_content()
    store = Store(database_url)
    try:
        ben = store.trainee("Ben")
        card = content.cards[CARD]
        submit_answer(store, content, GivenAnswer(card, ScenarioAnswer(card.infraction, "warning", ()), ben.id, 3.0))
    finally:
        store.dispose()
    at = start(database_url)
    at.button[0].click().run()
    store = Store(database_url)
    try:
        reports = reports_frame(store, EVERY_STORE)
    finally:
        store.dispose()
    assert reports["trainee"].tolist() == ["Aiko"] and reports["reason"].tolist() == ["key_wrong"]


def test_an_exam_questions_form_keeps_its_key_across_reruns():
    """Exam results grade each answer again on every run: the form's key must not follow the time."""
    card = shipped_content().cards[CARD]
    first = AttemptRecord(trainee_id=1, card_id=CARD, ruleset=card.ruleset, category=None, card_kind="scenario",
                          mode="exam", exam_id=7, correct=False, seconds=1.0)
    later = dataclasses.replace(first, answered_at=first.answered_at + dt.timedelta(seconds=3))
    assert report_key(card, first) == report_key(card, later)
    practice = dataclasses.replace(first, mode="practice", exam_id=None)
    assert report_key(card, practice) != report_key(card, dataclasses.replace(practice, answered_at=later.answered_at))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_flood_is_refused_in_the_trainees_language(database_url, language):
    """Past the limits (kept in the database, so a new session changes nothing) the form says
    why, and nothing is stored."""
    at = start(database_url, language)
    store = Store(database_url)
    try:
        aiko = store.trainee("Aiko")
        with store.engine.begin() as conn:  # the trainee's share of reports, just sent on other cards
            conn.execute(insert(problem_reports), [
                dict(trainee_id=aiko.id, card_id=f"card-{n}", reason="other", text="", created_at=utc_now(),
                     resolved=False) for n in range(LIMITS.per_window)])
        at.button[0].click().run()
        assert not at.exception and not at.success
        assert [w.value for w in at.warning] == [t("report.too_many", language)]
        with store.engine.begin() as conn:  # an hour later: the pace allows one more, but this card's is open
            conn.execute(update(problem_reports).values(created_at=utc_now() - dt.timedelta(hours=1)))
        file_report(store, at.session_state["record"], "unclear")
        at.button[0].click().run()
        assert [w.value for w in at.warning] == [t("report.already_open", language)]
        assert len(reports_frame(store, EVERY_STORE)) == LIMITS.per_window + 1
    finally:
        store.dispose()
