"""An app server with a supervisor password and its own content folder (Team and Content tests).

The shared ``app_server`` runs without either; these tests start their own, so an import
never reaches the project's ``content/`` folder and the password is known.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.server import AppServer

SUPERVISOR_PASSWORD = "e2e-supervisor-パス"


class ConfiguredServer(AppServer):
    """``AppServer`` with ``QUIZ_SUPERVISOR_PASSWORD`` and ``QUIZ_CONTENT_DIR`` set."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.content_dir = workdir / "content"

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env["QUIZ_SUPERVISOR_PASSWORD"] = SUPERVISOR_PASSWORD
        env["QUIZ_CONTENT_DIR"] = str(self.content_dir)
        return env


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
