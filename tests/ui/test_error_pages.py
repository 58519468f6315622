"""A database the app cannot open or write: a clear page (what is wrong, what to do, in both
languages), never a traceback; an answer that could not be stored is said to be unsaved; and
the Content page's uploader is drawn only behind the supervisor password."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from quiz.db.store import Store
from quiz.model.cards import JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.words import t
from quiz.ui.trainee_session import SIGNED_IN_KEY
from tests.ui import answering
from tests.ui.conftest import APP

# What the page says (quiz.report.locales, ``errors.*``), in both languages.
DATABASE_DOWN = [t("errors.database_title", lang) for lang in ("en", "ja")]
NOT_SAVED = [t("errors.answer_not_saved", lang) for lang in ("en", "ja")]


def _closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _texts(at: AppTest) -> str:
    parts = [e.value for e in (*at.error, *at.warning, *at.info, *at.markdown, *at.caption)]
    parts += [e.value for e in at.title]
    return "\n".join(str(p) for p in parts)


def _start(url: str, no_imported_content: Path, monkeypatch: pytest.MonkeyPatch, lang: str = "en") -> AppTest:
    monkeypatch.setenv("QUIZ_DATABASE_URL", url)
    monkeypatch.setenv("QUIZ_CONTENT_DIR", str(no_imported_content))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    return at


def _assert_clear_page(at: AppTest, caplog: pytest.LogCaptureFixture) -> None:
    assert not at.exception, [e.value for e in at.exception]
    shown = _texts(at)
    for title in DATABASE_DOWN:
        assert title in shown
    assert "Traceback" not in shown and "sqlalchemy" not in shown.lower()
    # The detail goes to the server's log, with its traceback.
    assert any(r.exc_info for r in caplog.records if r.levelno >= logging.ERROR)


def test_a_corrupt_sqlite_file_shows_the_database_page(tmp_path, no_imported_content, monkeypatch, caplog):
    broken = tmp_path / "quiz.db"
    broken.write_bytes(b"this is not a database, just bytes " * 200)
    at = _start(f"sqlite:///{broken}", no_imported_content, monkeypatch)
    _assert_clear_page(at, caplog)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_unreachable_postgres_shows_the_database_page(no_imported_content, monkeypatch, caplog, lang):
    url = f"postgresql+psycopg://quiz:secret@127.0.0.1:{_closed_port()}/quiz?connect_timeout=3"
    at = _start(url, no_imported_content, monkeypatch, lang)
    _assert_clear_page(at, caplog)
    assert "127.0.0.1" not in _texts(at)  # no host, port or password to a visitor
    assert "secret" not in _texts(at)


@pytest.mark.parametrize("kind", [ScenarioCard, JudgementCallCard, KnowledgeCard])
def test_an_answer_on_a_read_only_database_is_said_to_be_unsaved(tmp_path, no_imported_content, monkeypatch, caplog,
                                                                 kind):
    path = tmp_path / "quiz.db"
    seeding = Store(f"sqlite:///{path}")
    trainee = seeding.trainee("Aiko")
    seeding.dispose()
    # The same file opened read-only (a full or read-only disk: reads work, writes fail).
    monkeypatch.setenv("QUIZ_DATABASE_URL", f"sqlite:///file:{path}?mode=ro&uri=true")
    monkeypatch.setenv("QUIZ_CONTENT_DIR", str(no_imported_content))
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[SIGNED_IN_KEY] = trainee
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    from tests.shipped_content import shipped_content

    content = shipped_content()
    card = answering.deal_until(at, content, kind)
    answering.fill(at, card, answering.right_answer(content, card, answering.practice_showing(at, card)))
    assert not at.exception, [e.value for e in at.exception]
    shown = _texts(at)
    assert any(text in shown for text in NOT_SAVED), shown
    assert not at.success  # no "Right on every part." as if it had been stored
    assert any(r.exc_info for r in caplog.records if r.levelno >= logging.ERROR)


@pytest.mark.parametrize("key, crafted", [
    ("games", ["no-such-game"]), ("games", "not-a-list"), ("categories", ["no-such-game/none", "yugioh/none"]),
    ("shell", "not-a-shell"), ("answers_given", "many"), ("due_count", ("not", "a count")), ("due_count", "many"),
])
def test_crafted_or_cleared_session_values_raise_no_key_error(open_app, key, crafted):
    """A client sending values the app never offered (crafted widget values) or a state it
    cleared gets a page, not a KeyError box."""
    at = open_app()
    at.session_state[key] = crafted
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_no_uploader_for_an_anonymous_visitor(open_app, monkeypatch):
    """Checking a pack needs a signed-in trainee (or a supervisor account), importing the
    account: an anonymous visitor gets no uploader, so no upload URL to flood."""
    from tests.ui import supervisor

    supervisor.prepare(monkeypatch)
    supervisor.make_account("correct horse battery")
    at = open_app(trainee=None, page="quiz/ui/pages/content.py")
    assert not at.file_uploader
    assert any("needs a supervisor account" in c.value for c in at.caption)
    assert any("Sign in" in i.value for i in at.info)
    signed_in = open_app(trainee="Aiko", page="quiz/ui/pages/content.py")
    assert signed_in.file_uploader  # an author checks a pack; the Import button waits for the password
