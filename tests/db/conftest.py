"""Stores for the tests of kept values: a SQLite file's, and two servers' on one PostgreSQL."""

from __future__ import annotations

from typing import Iterator

import pytest

from quiz.db.store import Store


@pytest.fixture
def sqlite_store(tmp_path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'quiz.db'}")
    yield store
    store.dispose()


@pytest.fixture
def postgres_store(postgres_url: str) -> Iterator[Store]:
    store = Store(postgres_url)
    yield store
    store.dispose()


@pytest.fixture
def elsewhere(postgres_url: str) -> Iterator[Store]:
    """Another server's store on the same database."""
    store = Store(postgres_url)
    yield store
    store.dispose()
