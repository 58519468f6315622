"""Alembic migrations: every older release's database is brought to the head revision on
both databases, losing no row, its trainees signing in as before; a fresh one starts at head."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, func, inspect, select, text

from quiz.access.accounts import name_throttles, sign_in
from quiz.access.pins import hash_pin
from quiz.access.throttles import LoginThrottle
from quiz.db.migrate import HEAD_REVISION, LEGACY_FINAL, script_head, upgrade
from quiz.db.store import Store
from quiz.db.tables import metadata, schema_version, stores, trainees
from quiz.model.errors import SchemaVersionError
from tests.db.releases import RELEASES, Release, make_release_database
from tests.db.test_store import from_row, scenario
from tests.scopes import EVERY_STORE

WHEN = datetime(2025, 1, 5, 10, tzinfo=UTC)
PIN = "8642"


def _schema_differences(url: str) -> list:
    """What autogenerate finds between the database and ``quiz.db.tables`` (nothing, when in step)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()


def _fill(url: str, shape: MetaData) -> dict[str, int]:
    """Two trainees with PINs (where the release had them), an answer each, a review schedule
    and an exam; the rows of every table."""
    engine = create_engine(url)
    tables = shape.tables
    try:
        with engine.begin() as conn:
            for name in ("Aki", "山田 太郎"):
                trainee_id = conn.execute(tables["trainees"].insert().values(name=name, created_at=WHEN)
                                          ).inserted_primary_key[0]
                if "trainee_pins" in tables:
                    conn.execute(tables["trainee_pins"].insert().values(
                        trainee_id=trainee_id, pin_hash=hash_pin(PIN), updated_at=WHEN))
                answer = scenario(trainee_id)
                conn.execute(tables["attempts"].insert().values(
                    **{column: getattr(answer, column) for column in tables["attempts"].c.keys() if column != "id"}))
                conn.execute(tables["review_schedules"].insert().values(
                    trainee_id=trainee_id, card_id=answer.card_id, fsrs_card="{}", due=WHEN, last_review=WHEN))
                conn.execute(tables["exams"].insert().values(
                    trainee_id=trainee_id, preset="p", settings={}, card_ids=["a"], seeds=[1], started_at=WHEN,
                    deadline=WHEN, finished_at=WHEN, score=1, passed=True))
        with engine.connect() as conn:
            return {name: conn.execute(select(func.count()).select_from(table)).scalar_one()
                    for name, table in tables.items() if name != "schema_version"}
    finally:
        engine.dispose()


@pytest.mark.parametrize("release", RELEASES, ids=str)
def test_an_older_release_database_migrates_to_head_keeping_every_row(db_url: str, release: Release) -> None:
    shape = make_release_database(db_url, release)
    counts = _fill(db_url, shape)
    store = Store(db_url)
    try:
        assert store.upgraded is not None and store.upgraded.before == (
            f"revision {release.alembic_revision}" if release.alembic_revision else f"schema version {release.version}")
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD_REVISION
            assert conn.execute(select(schema_version.c.version)).scalars().all() == [LEGACY_FINAL]
            for name, count in counts.items():
                assert conn.execute(select(func.count()).select_from(metadata.tables[name])).scalar_one() == count
            # the deployment became one store, which every trainee joined
            assert conn.execute(select(stores.c.name)).scalars().all() == ["Store 1"]
            store_id = conn.execute(select(stores.c.id)).scalar_one()
            assert set(conn.execute(select(trainees.c.store_id)).scalars()) == {store_id}
        assert set(inspect(store.engine).get_table_names()) >= set(metadata.tables)
        assert [from_row(row) for _, row in store.attempts().iterrows()] == [
            scenario(trainee.id) for trainee in sorted(store.trainees(EVERY_STORE), key=lambda t: t.id)]
        for trainee in store.trainees(EVERY_STORE):
            if "trainee_pins" in release.tables:  # signs in with the PIN the old release stored
                found = sign_in(store, trainee.name, PIN, name_throttles(), LoginThrottle()).trainee
                assert found == trainee
            else:
                assert store.find_trainee(trainee.name.upper()) == trainee
    finally:
        store.dispose()
    assert _schema_differences(db_url) == []
    again = Store(db_url)  # started again: nothing more to do
    assert again.upgraded is None
    again.dispose()


def test_a_fresh_database_is_made_at_head_in_step_with_the_tables(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert store.upgraded is not None and store.upgraded.before == "an empty database"
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD_REVISION
    finally:
        store.dispose()
    assert _schema_differences(db_url) == []


def test_a_revision_this_app_does_not_know_is_refused_untouched(db_url: str) -> None:
    Store(db_url).dispose()
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        with pytest.raises(SchemaVersionError, match="revision 9999.*update the app"):
            Store(db_url)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "9999"
    finally:
        engine.dispose()


def test_an_old_schema_version_beyond_the_last_is_refused(db_url: str) -> None:
    """A database stamped by the old table alone, with a version no release wrote before Alembic."""
    release = next(release for release in RELEASES if release.alembic_revision is None and release.version == 3)
    make_release_database(db_url, release)
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(schema_version.update().values(version=7))
        with pytest.raises(SchemaVersionError, match="schema version 7, but this app knows only up to 3"):
            Store(db_url)
        assert not inspect(engine).has_table("alembic_version")
    finally:
        engine.dispose()


def test_a_start_on_a_current_database_is_one_query(db_url: str) -> None:
    """Every app server runs the migrations on start: finding the database current costs one
    SELECT (the old hand-kept check inspected every table and index)."""
    from sqlalchemy import event

    Store(db_url).dispose()
    engine = create_engine(db_url)
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    try:
        started = time.perf_counter()
        assert upgrade(engine) is None
        elapsed = time.perf_counter() - started
    finally:
        engine.dispose()
    assert seen == ["SELECT version_num FROM alembic_version"], seen
    assert elapsed < 1.0


def test_db_upgrade_brings_an_old_database_forward_and_says_so(tmp_path, capsys) -> None:
    from quiz import cli

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    _fill(url, make_release_database(url, RELEASES[1]))
    assert cli.main(["db", "upgrade", "--database-url", url]) == 0
    assert capsys.readouterr().out.strip() == f"the database was brought from schema version 1 to revision {HEAD_REVISION}"
    assert cli.main(["db", "upgrade", "--database-url", url]) == 0
    assert capsys.readouterr().out.strip() == "the database was already current"
    assert _schema_differences(url) == []


def test_the_head_revision_the_cheap_start_compares_with_is_the_scripts_head() -> None:
    """A new revision under quiz/db/migrations/versions moves HEAD_REVISION with it."""
    assert HEAD_REVISION == script_head()
