"""Where the benchmark writes its history: a temporary SQLite file, or the database given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quizbench.bench.database import BenchDatabaseError, bench_database
from tests.databases import POSTGRES_VARIABLE, SKIP_REASON
from tests.recording import record
from tests.scopes import EVERY_STORE


def test_without_a_url_the_history_goes_to_a_sqlite_file_in_the_folder(tmp_path: Path) -> None:
    with bench_database(None, tmp_path) as url:
        assert url == f"sqlite:///{tmp_path / 'bench.db'}"


def test_an_empty_sqlite_database_given_is_used_as_it_is(tmp_path: Path) -> None:
    given = f"sqlite:///{tmp_path / 'empty.db'}"
    with bench_database(given, tmp_path) as url:
        assert url == given


def test_a_database_holding_attempts_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'in-use.db'}"
    store = Store(url)
    record(store, AttemptRecord(trainee_id=store.trainee("Aki").id, card_id="c", ruleset="yugioh-ocg",
                               category=None, card_kind="knowledge", correct=True, seconds=1.0))
    store.dispose()
    with pytest.raises(BenchDatabaseError, match="holds 1 attempts"):
        with bench_database(url, tmp_path):
            pass


def can_connect(url: str) -> bool:
    engine = create_engine(url)
    try:
        with engine.connect():
            return True
    except OperationalError:
        return False
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_on_postgresql_the_bench_works_in_a_scratch_database_dropped_afterwards(tmp_path: Path) -> None:
    server = os.environ.get(POSTGRES_VARIABLE)
    if not server:
        pytest.skip(SKIP_REASON)
    with bench_database(server, tmp_path) as url:
        assert make_url(url).database != make_url(server).database
        store = Store(url)  # left open on purpose: the pages measured in-process keep their pools open
        store.trainee("bench-trainee")
        assert [t.name for t in store.trainees(EVERY_STORE)] == ["bench-trainee"]
        assert can_connect(url)
    assert not can_connect(url)  # dropped, though a pool still held connections to it
    store.dispose()
