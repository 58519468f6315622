"""Holes a probe found: the content folder's path shown to visitors; a full disk
while adding a trainee shown as Streamlit's exception box; an unsaved answer with no way to
send it again."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.exc import OperationalError

from quiz.db import submissions
from quiz.db.store import Store
from quiz.model.cards import ScenarioCard
from quiz.model.words import t
from tests.shipped_content import shipped_content
from tests.ui import answering

CONTENT_PAGE = "quiz/ui/pages/content.py"


def disk_full() -> OperationalError:
    """What SQLite raises through SQLAlchemy when the disk is full."""
    cause = sqlite3.OperationalError("database or disk is full")
    cause.sqlite_errorname = "SQLITE_FULL"
    return OperationalError("INSERT INTO trainees ...", {}, cause)


def texts(at) -> str:
    shown = [e.value for e in (*at.error, *at.warning, *at.info, *at.success, *at.markdown, *at.caption)]
    return "\n".join(str(value) for value in shown)


@pytest.mark.parametrize("trainee", [None, "Aiko"])
def test_the_content_folder_is_not_shown_to_a_visitor_or_a_trainee(open_app, no_imported_content, trainee):
    at = open_app(trainee=trainee, page=CONTENT_PAGE)
    assert not at.exception
    shown = texts(at)
    assert str(no_imported_content.parent) not in shown and "no-imported-content" not in shown


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_adding_a_trainee_on_a_full_disk_says_so_in_the_apps_words(open_app, store, monkeypatch, lang):
    def full(self, conn, name):
        raise disk_full()

    monkeypatch.setattr(Store, "insert_trainee", full)
    at = open_app(trainee=None, lang=lang)
    at.text_input(key="new-trainee-name").input("Daichi")
    at.text_input(key="new-trainee-pin").input("river-stone-42")
    at.text_input(key="new-trainee-pin-again").input("river-stone-42")
    at.button(key="new-trainee-submit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert t("errors.database_read_only", lang) in [e.value for e in at.sidebar.error]
    assert at.text_input(key="new-trainee-name").value == "Daichi"  # kept, to try again


def test_an_unsaved_answer_is_sent_again_by_try_again(open_app, store, monkeypatch):
    """The first save fails on a full disk; "Try again" sends the same answer, which is then
    stored and graded, with nothing chosen again."""
    real = submissions.save_answer
    failures = iter([disk_full()])

    def save_once_failing(*args, **kwargs):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real(*args, **kwargs)

    content = shipped_content()
    at = open_app()
    card = answering.deal_until(at, content, ScenarioCard)
    monkeypatch.setattr(submissions, "save_answer", save_once_failing)
    answering.fill(at, card, answering.right_answer(content, card, answering.practice_showing(at, card)))
    assert not at.exception, [e.value for e in at.exception]
    assert t("errors.answer_not_saved", "en") in texts(at)
    assert store.attempts().empty
    at.button(key="try-again-unsaved").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert t("errors.answer_not_saved", "en") not in texts(at)
    stored = store.attempts()
    assert stored["card_id"].tolist() == [card.id] and stored["correct"].tolist() == [True]
    assert at.success  # the feedback of the stored answer


def database_locked() -> OperationalError:
    """What SQLite raises through SQLAlchemy when another writer holds the database too long."""
    cause = sqlite3.OperationalError("database is locked")
    cause.sqlite_errorname = "SQLITE_BUSY"
    return OperationalError("UPDATE login_throttles ...", {}, cause)


@pytest.mark.parametrize(("failure", "words"), [(disk_full, "errors.database_read_only"),
                                                (database_locked, "errors.database_unreachable")])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_signing_in_on_a_locked_or_full_database_says_so_in_the_apps_words(open_app, store, monkeypatch, lang,
                                                                          failure, words):
    """Finding L9: before, Streamlit's error box."""
    from quiz.access.accounts import add_trainee
    from quiz.access.throttles import StoredThrottle

    add_trainee(store, "Daichi", "river-stone-42")

    def broken(self):
        raise failure()

    monkeypatch.setattr(StoredThrottle, "_claim_once", broken)
    at = open_app(trainee=None, lang=lang)
    at.text_input(key="sign-in-name").input("Daichi")
    at.text_input(key="sign-in-pin").input("river-stone-42")
    at.button(key="sign-in-submit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert t(words, lang) in [e.value for e in at.sidebar.error]
