"""Shared fixtures: the shipped content, loaded once per test session."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Iterator

import pytest

from quiz.content.loader import Content
from quiz.db.store import Store
from tests.access.cheap_hash import cheap_hashing
from tests.databases import migrated, postgres_database, sqlite_url
from tests.shipped_content import shipped_content
from tests.timed_tests import TIMED_FOLDER, timed_strays

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once() -> Iterator[None]:
    """Each AppTest, at its first run, scans the metadata of every installed package for
    Streamlit components (a tenth of a second; a few hundred AppTests in the fast suite). No
    package is installed during a test run, so one scan per process answers them all. Were
    the scanner moved in a later Streamlit, the tests would only be slower."""
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:
        manifest_scanner = None
    scan = getattr(manifest_scanner, "scan_component_manifests", None)
    if scan is None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", cache(scan))
        yield


@pytest.fixture(autouse=True)
def cheap_hashes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords and PINs hashed cheaply (``tests.access.cheap_hash``), but in the tests of the
    real costs (marker ``real_hash_costs``)."""
    if request.node.get_closest_marker("real_hash_costs") is None:
        cheap_hashing(monkeypatch)


@pytest.fixture(scope="session")
def content() -> Content:
    return shipped_content()


@pytest.fixture(scope="session")
def ygo(content: Content):
    return content.rulesets["yugioh-ocg"]


@pytest.fixture(scope="session")
def pkm(content: Content):
    return content.rulesets["pokemon-card-ja"]


MIGRATED_BY = frozenset({"store", "database_url"})  # the fixtures that open a store at the head revision on db_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path):
    """A database URL: a SQLite file, and (when a server is given) a fresh PostgreSQL database,
    empty, or already at the head revision for a test that opens a store on it (``MIGRATED_BY``)."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
    else:
        yield from postgres_database(migrated=bool(MIGRATED_BY & set(request.fixturenames)))


@pytest.fixture
def postgres_url():
    """A fresh PostgreSQL database, for what only PostgreSQL does (skipped without a server)."""
    yield from postgres_database()


@pytest.fixture
def store(db_url: str):
    """A Store on ``db_url`` (SQLite, and PostgreSQL when a server is given), disposed afterwards."""
    store = Store(migrated(db_url))
    yield store
    store.dispose()


def _weight(item: pytest.Item) -> int:
    """How early a test's file should start: the benchmark's, then the browser's and the
    reliability runs', then the rest."""
    if item.get_closest_marker("slow"):
        return 0
    if item.get_closest_marker("e2e") or item.get_closest_marker("reliability"):
        return 1
    return 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first, each file by its heaviest test (a stable sort: each file's
    tests stay together and in their order, its module fixtures set up once). `make test` hands
    whole files to its workers in this order; a long file handed out last kept one worker busy
    for minutes while the others had finished."""
    def file_of(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    strays = timed_strays(items)
    if strays:  # the timed pass would never run them, and the parallel pass skips them
        raise pytest.UsageError(f"timed tests outside {TIMED_FOLDER}/, the only folder `make test`'s "
                                f"timed pass collects (scripts/test-all.sh): {', '.join(strays)}")
    files: dict[str, int] = {}
    for item in items:
        files[file_of(item)] = min(files.get(file_of(item), 2), _weight(item))
    items.sort(key=lambda item: files[file_of(item)])
