"""Supervisor accounts as AppTests use them: one made in the app's database, and the sign-in
form filled as a supervisor would."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from quiz.access.supervisors import PASSWORD_ENV, create_account
from quiz.db.store import Store
from quiz.model.scope import Role, Supervisor

ACCOUNT = "Tencho"


def make_account(password: str, name: str = ACCOUNT, role: Role = "admin", store_id: int | None = None) -> Supervisor:
    """An account in the app's database (``$QUIZ_DATABASE_URL``, as the ``database_url``
    fixture sets it): an admin by default."""
    store = Store(os.environ["QUIZ_DATABASE_URL"])
    try:
        return create_account(store, name, password, role, store_id, None)
    finally:
        store.dispose()


def unlock(at: AppTest, password: str, name: str = ACCOUNT) -> AppTest:
    """Type ``name`` and ``password`` into the page's sign-in form and press Sign in."""
    at.text_input(key="supervisor-name").input(name)
    at.text_input(key="supervisor-password").input(password)
    at.button(key="supervisor-sign-in").click().run()
    return at


def fresh_gate(monkeypatch: pytest.MonkeyPatch, password: str | None = None) -> Iterator[None]:
    """For an autouse fixture: ``prepare``, undone after the test."""
    prepare(monkeypatch, password)
    yield


def prepare(monkeypatch: pytest.MonkeyPatch, password: str | None = None) -> None:
    """The old shared password set to ``password`` (none by default)."""
    if password is None:
        monkeypatch.delenv(PASSWORD_ENV, raising=False)
    else:
        monkeypatch.setenv(PASSWORD_ENV, password)
