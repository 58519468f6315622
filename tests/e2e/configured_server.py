"""An app server with a supervisor account and its own content folder (Team and Content tests).

The shared ``app_server`` runs without either; these tests start their own, so an import
never reaches the project's ``content/`` folder and the account is known.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from quiz.access.supervisors import create_account
from quiz.db.store import Store
from quiz.model.errors import NameTakenError
from quiz.model.words import t
from tests.e2e.driver import main, settle
from tests.e2e.server import AppServer

SUPERVISOR_NAME = "店長"  # Japanese: a page in Japanese shows it with no English left
SUPERVISOR_PASSWORD = "e2e-supervisor-パス"


class ConfiguredServer(AppServer):
    """``AppServer`` with an admin account (``SUPERVISOR_NAME``, ``SUPERVISOR_PASSWORD``) in
    its database and ``QUIZ_CONTENT_DIR`` set."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.content_dir = workdir / "content"

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env.pop("QUIZ_SUPERVISOR_PASSWORD", None)
        env["QUIZ_CONTENT_DIR"] = str(self.content_dir)
        return env

    def start(self) -> None:
        store = Store(self.database_url)
        try:
            create_account(store, SUPERVISOR_NAME, SUPERVISOR_PASSWORD, "admin", None, None)
        except NameTakenError:  # a restart, or another server on the same database made it
            pass
        finally:
            store.dispose()
        super().start()


def sign_in_as_supervisor(page: Any, lang: str = "en", name: str = SUPERVISOR_NAME,
                          password: str = SUPERVISOR_PASSWORD) -> None:
    """Fill the supervisor sign-in form of the page open and wait until it signed in."""
    area = main(page)
    area.get_by_label(t("gate.name", lang), exact=True).fill(name)
    area.get_by_label(t("gate.password", lang), exact=True).fill(password)
    settle(page)
    area.get_by_role("button", name=t("gate.sign_in", lang), exact=True).click()
    from playwright.sync_api import expect

    expect(main(page).get_by_role("button", name=t("gate.sign_out", lang))).to_be_visible()
    settle(page)


def offered_trainees(page: Any, lang: str = "en") -> list[str]:
    """The trainees the Team page's one-trainee tab offers (its picker's options)."""
    from playwright.sync_api import expect

    main(page).get_by_role("tab", name=t("team.tab_trainee", lang)).click()
    main(page).get_by_role("combobox", name=t("team.pick_trainee", lang)).click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    names = options.all_inner_texts()
    page.keyboard.press("Escape")
    return names


class SharedDatabaseServer(ConfiguredServer):
    """``ConfiguredServer`` on a given database, shared with other servers."""

    def __init__(self, workdir: Path, database_url: str) -> None:
        super().__init__(workdir)
        self.shared_url = database_url

    @property
    def database_url(self) -> str:
        return self.shared_url


@contextmanager
def running(server: AppServer) -> Iterator[AppServer]:
    """The server started for the block, and stopped after it whatever happens."""
    try:
        server.start()
        yield server
    finally:
        server.stop()


def module_server(folder: str) -> Any:
    """A module's ``server`` fixture: one app server (SQLite, the shipped content) in a
    temporary folder named ``folder``, started for the module's tests and stopped after them.
    Assign it in the module: ``server = module_server("restart")``."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
        with running(AppServer(tmp_path_factory.mktemp(folder))) as started:
            yield started

    return server
