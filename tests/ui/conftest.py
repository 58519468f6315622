"""AppTest fixtures: the real app on a temporary database (SQLite, and PostgreSQL when given)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from quiz.content.packs import CONTENT_DIR_ENV
from quiz.db.store import Store
from quiz.ui import trainee_session
from quiz.ui.trainee_session import SIGNED_IN_KEY
from tests.databases import migrated

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="session")
def no_imported_content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local content folder that does not exist (the shipped cards only), one path for the
    whole run: the app keeps its content per set of folders, so a folder of each test's own
    made every test load and snapshot the content again (half a second each)."""
    return tmp_path_factory.getbasetemp() / "no-imported-content"


@pytest.fixture
def database_url(db_url: str, no_imported_content: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The app's database: a SQLite file, and a fresh PostgreSQL database when a server is given."""
    url = migrated(db_url)
    monkeypatch.setenv("QUIZ_DATABASE_URL", url)
    monkeypatch.setenv(CONTENT_DIR_ENV, str(no_imported_content))
    return url


@pytest.fixture(autouse=True)
def fresh_name_throttles():
    """Wrong PINs of one test must not hold up the next: the server-wide book starts empty."""
    trainee_session.shared_name_throttles.clear()
    yield
    trainee_session.shared_name_throttles.clear()


@pytest.fixture
def store(database_url: str):
    store = Store(database_url)
    yield store
    store.dispose()


@pytest.fixture
def open_app(database_url: str):
    """Start the app signed in as a trainee (added if new), in a language, optionally on
    another page. Signing in itself is tested through its form in ``test_sign_in``."""

    def start(trainee: str | None = "Aiko", lang: str = "en", page: str | None = None,
              query: dict[str, str] | None = None) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=60)
        if trainee:
            seeding_store = Store(database_url)
            try:
                at.session_state[SIGNED_IN_KEY] = seeding_store.trainee(trainee)
            finally:
                seeding_store.dispose()
        at.query_params["lang"] = lang
        for name, value in (query or {}).items():
            at.query_params[name] = value
        at.run()
        if page:
            at.switch_page(page)
            at.run()
        assert not at.exception, at.exception
        return at

    return start


@pytest.fixture
def imported_cards(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A maker of an imported content folder holding one card file of the test's own (served
    beside the shipped cards), so the shipped cards can change without changing the test."""

    def make(name: str, text: str) -> Path:
        folder = tmp_path / "ui-cards"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        monkeypatch.setenv(CONTENT_DIR_ENV, str(folder))
        return folder

    return make


@pytest.fixture
def upload_quota_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit's upload manager as it was before the test, once the test is over: a test that
    installs the upload quota (as app.py does, once per process) would otherwise leave it in
    front of every later AppTest of its worker, which registers its files without asking."""
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    from quiz.ui.streamlit_internals import upload_limit

    for name in upload_limit.PARAMETERS:
        monkeypatch.setattr(MemoryUploadedFileManager, name, getattr(MemoryUploadedFileManager, name))
