"""The store: every field round-trips, trainees are got or created, writes are durable."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import UniqueConstraint, create_engine, inspect, select, text
from sqlalchemy.exc import IntegrityError

from quiz.db.engine import database_url
from quiz.db.migrate import HEAD_REVISION, LEGACY_FINAL
from quiz.db.store import Store
from quiz.db.tables import metadata, schema_version
from quiz.model.attempt import ATTEMPT_FIELDS, AttemptRecord
from quiz.model.cards import Choice, KnowledgeCard, ScenarioCard
from quiz.model.rulesets import ID_MAX, Category, Infraction, Penalty, Ruleset
from quiz.training.presets import ExamPreset
from tests.recording import record
from tests.scopes import EVERY_STORE

JST = timezone(timedelta(hours=9))
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(db_url: str):
    store = Store(db_url)
    yield store
    store.dispose()


def scenario(trainee_id: int, **changes) -> AttemptRecord:
    """A scenario attempt with every field set to something other than its default."""
    values = dict(
        trainee_id=trainee_id,
        card_id="ygo-tardiness-7",
        ruleset="yugioh-ocg",
        category="procedure",
        card_kind="scenario",
        mode="exam",
        chosen_infraction="tardiness",
        standard_infraction="tardiness",
        chosen_penalty="warning",
        standard_penalty="duel_loss",
        chosen_fixes=("rewind_game", "destroy_used_card"),
        standard_fixes=("continue_game",),
        infraction_result="correct",
        penalty_result="wrong",
        fixes_result="wrong",
        correct=False,
        penalty_steps=-1,
        seconds=12.25,
        answered_at=datetime(2024, 5, 1, 21, 30, 15, 123456, tzinfo=JST),
        exam_id=7,
    )
    return AttemptRecord(**(values | changes))


def knowledge(trainee_id: int, **changes) -> AttemptRecord:
    """A knowledge attempt: no infraction, penalty or fixes, and every optional field None."""
    values = dict(
        trainee_id=trainee_id,
        card_id="pkm-knowledge-3",
        ruleset="pokemon-card-ja",
        category=None,
        card_kind="knowledge",
        chosen_choice="b",
        correct_choice="c",
        correct=False,
        seconds=4.0,
        answered_at=datetime(2024, 5, 2, 9, 0, tzinfo=UTC),
    )
    return AttemptRecord(**(values | changes))


def variant(trainee_id: int, **changes) -> AttemptRecord:
    """A variant scenario attempt with the schema version 2 fields set: drawn values (JSON),
    the content fingerprint, and who receives the penalty."""
    values = dict(
        card_id="pkm-variant-escalation-prize-face-up",
        ruleset="pokemon-card-ja",
        category="game_play",
        mode="practice",
        chosen_infraction="card_revealed",
        standard_infraction="card_revealed",
        chosen_penalty="prize_penalty",
        standard_penalty="prize_penalty",
        chosen_fixes=("restore_game_state",),
        standard_fixes=("restore_game_state",),
        infraction_result="correct",
        penalty_result="correct",
        fixes_result="correct",
        players_result="wrong",
        correct=False,
        penalty_steps=0,
        exam_id=None,
        variant_values={"event": {"option": 2}, "round": 5, "player": {"option": 0}, "cautions": 3, "warnings": 1},
        content_fingerprint="0123456789abcdef",
        chosen_players="both",
        standard_players="offender",
    )
    return scenario(trainee_id, **(values | changes))


def from_row(row: pd.Series) -> AttemptRecord:
    """The record a frame row stands for (missing values back to None)."""
    values = {name: row[name] for name in ATTEMPT_FIELDS}
    for name, value in values.items():
        if not isinstance(value, (tuple, dict, list)) and pd.isna(value):
            values[name] = None
    values["answered_at"] = row["answered_at"].to_pydatetime()
    return AttemptRecord.from_row(values)


# --- attempts round-trip ------------------------------------------------------------------


@pytest.mark.parametrize("make", [scenario, knowledge, variant])
def test_every_field_round_trips(store: Store, make) -> None:
    trainee = store.trainee("Aki")
    original = make(trainee.id)
    attempt_id = record(store, original)

    frame = store.attempts()
    assert list(frame["id"]) == [attempt_id]
    row = frame.iloc[0]
    assert from_row(row) == original
    assert row["answered_at"].utcoffset() == timedelta(0)
    assert isinstance(row["chosen_fixes"], tuple) and isinstance(row["standard_fixes"], tuple)


def test_answered_at_is_kept_as_the_same_instant_in_utc(store: Store) -> None:
    trainee = store.trainee("Aki")
    record(store, scenario(trainee.id))  # 2024-05-01 21:30:15.123456 at +09:00
    answered = store.attempts()["answered_at"]
    assert isinstance(answered.dtype, pd.DatetimeTZDtype) and str(answered.dtype.tz) == "UTC"
    # 21:30 at +09:00 is 12:30 UTC the same day.
    assert answered.iloc[0] == pd.Timestamp("2024-05-01 12:30:15.123456", tz="UTC")


def test_fixes_are_stored_sorted_and_comma_joined(store: Store) -> None:
    trainee = store.trainee("Aki")
    record(store, scenario(trainee.id, chosen_fixes=("rewind_game", "destroy_used_card")))
    with store.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT chosen_fixes, standard_fixes FROM attempts").one()
    assert tuple(stored) == ("destroy_used_card,rewind_game", "continue_game")
    assert store.attempts()["chosen_fixes"].iloc[0] == ("destroy_used_card", "rewind_game")


def test_attempts_are_ordered_by_time_then_id(store: Store) -> None:
    trainee = store.trainee("Aki")
    noon = datetime(2024, 5, 3, 12, tzinfo=UTC)
    late = record(store, scenario(trainee.id, card_id="late", answered_at=noon + timedelta(hours=1)))
    tie_1 = record(store, scenario(trainee.id, card_id="tie-1", answered_at=noon))
    tie_2 = record(store, scenario(trainee.id, card_id="tie-2", answered_at=noon))
    early = record(store, scenario(trainee.id, card_id="early", answered_at=noon - timedelta(days=1)))
    assert list(store.attempts()["id"]) == [early, tie_1, tie_2, late]


def test_attempts_filtered_by_trainee(store: Store) -> None:
    aki, ken = store.trainee("Aki"), store.trainee("Ken")
    record(store, scenario(aki.id, card_id="a-1"))
    record(store, scenario(ken.id, card_id="k-1"))
    record(store, knowledge(aki.id, card_id="a-2"))
    assert list(store.attempts(aki.id)["card_id"]) == ["a-1", "a-2"]
    assert list(store.attempts(ken.id)["card_id"]) == ["k-1"]
    assert sorted(store.attempts()["card_id"]) == ["a-1", "a-2", "k-1"]


def test_an_empty_frame_has_every_column(store: Store) -> None:
    for frame in (store.attempts(), store.attempts(store.trainee("Aki").id)):
        assert frame.empty
        assert list(frame.columns) == ["id", *ATTEMPT_FIELDS]
        assert isinstance(frame["answered_at"].dtype, pd.DatetimeTZDtype)


def test_card_results_are_per_card_oldest_first(store: Store) -> None:
    aki, ken = store.trainee("Aki"), store.trainee("Ken")
    day = datetime(2024, 5, 1, tzinfo=UTC)
    # Recorded out of order: card "a" was wrong on day 1 and right on day 2.
    record(store, scenario(aki.id, card_id="a", correct=True, answered_at=day + timedelta(days=1)))
    record(store, scenario(aki.id, card_id="a", correct=False, answered_at=day))
    record(store, scenario(aki.id, card_id="b", correct=True, answered_at=day))
    record(store, scenario(ken.id, card_id="a", correct=False, answered_at=day + timedelta(days=2)))
    assert store.card_results(aki.id) == {"a": [False, True], "b": [True]}
    assert store.card_results(ken.id) == {"a": [False]}
    assert store.card_results(999) == {}
    assert store.card_results(aki.id, last=1) == {"a": [True], "b": [True]}
    assert store.card_results(aki.id, last=5) == store.card_results(aki.id)
    # only the newest recorded attempts: the last two records of Aki (a on day 1, b)
    assert store.card_results(aki.id, newest=2) == {"a": [False], "b": [True]}
    assert store.card_results(aki.id, newest=1) == {"b": [True]}


def test_an_attempt_of_an_unknown_trainee_is_refused(store: Store) -> None:
    with pytest.raises(IntegrityError):
        record(store, scenario(999))
    assert store.attempts().empty


def test_a_naive_answered_at_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        scenario(1, answered_at=datetime(2024, 5, 1, 12))


def test_an_invalid_attempt_names_every_problem() -> None:
    with pytest.raises(ValueError) as caught:
        scenario(1, mode="quiz", penalty_result="maybe", chosen_fixes=("a,b",))
    message = str(caught.value)
    assert "mode 'quiz'" in message and "penalty_result 'maybe'" in message and "chosen_fixes" in message


# --- trainees -----------------------------------------------------------------------------


def test_trainee_is_got_or_created(store: Store) -> None:
    first = store.trainee("Aki")
    again = store.trainee("  Aki ")
    assert again == first
    assert first.name == "Aki"
    assert first.created_at.utcoffset() == timedelta(0)
    assert store.trainees(EVERY_STORE) == [first]
    assert store.find_trainee(" Aki") == first
    assert store.find_trainee("Nobody") is None


def test_trainees_are_ordered_by_name(store: Store) -> None:
    for name in ("Mika", "Aki", "Ken"):
        store.trainee(name)
    assert [t.name for t in store.trainees(EVERY_STORE)] == ["Aki", "Ken", "Mika"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_bad_name_is_refused(store: Store, name: str) -> None:
    with pytest.raises(ValueError, match="1 to 60"):
        store.trainee(name)
    assert store.trainees(EVERY_STORE) == []


@pytest.mark.parametrize("name", ["x", "x" * 60, " " + "y" * 60 + " ", "山田 太郎"])
def test_a_good_name_is_kept(store: Store, name: str) -> None:
    assert store.trainee(name).name == name.strip()


def test_parameters_are_bound_not_pasted(store: Store) -> None:
    name = "Robert'); DROP TABLE trainees;--"
    bobby = store.trainee(name)
    assert bobby.name == name
    assert inspect(store.engine).has_table("trainees")
    assert store.find_trainee(name) == bobby
    assert store.trainees(EVERY_STORE) == [bobby]


@pytest.mark.parametrize("model, columns", [
    (Ruleset, ["attempts.ruleset"]),
    (Category, ["attempts.category", "attempt_regrades.category"]),
    (Infraction, ["attempts.chosen_infraction", "attempts.standard_infraction", "attempt_regrades.standard_infraction"]),
    (Penalty, ["attempts.chosen_penalty", "attempts.standard_penalty", "attempt_regrades.standard_penalty"]),
    (Choice, ["attempts.chosen_choice", "attempts.correct_choice", "attempt_regrades.correct_choice"]),
    (ScenarioCard, ["attempts.card_id", "review_schedules.card_id"]),
    (KnowledgeCard, ["attempts.card_id", "review_schedules.card_id"]),
    (ExamPreset, ["exams.preset"]),
], ids=lambda value: getattr(value, "__name__", ""))
def test_every_id_the_content_allows_fits_its_column(model, columns: list[str]) -> None:
    """PostgreSQL refuses a string longer than its VARCHAR (SQLite keeps it): validation must refuse it first."""
    longest = model.model_json_schema()["properties"]["id"]["maxLength"]
    for name in columns:
        table, column = name.split(".")
        assert longest <= metadata.tables[table].c[column].type.length, name


def test_ids_of_the_longest_allowed_length_round_trip(store: Store) -> None:
    longest = "x" * ID_MAX
    attempt = scenario(store.trainee("Aki").id, card_id="c" * 120, ruleset=longest, category=longest,
                       chosen_infraction=longest, standard_infraction=longest, chosen_penalty=longest,
                       standard_penalty=longest, chosen_choice=longest, correct_choice=longest)
    record(store, attempt)
    assert [from_row(row) for _, row in store.attempts().iterrows()] == [attempt]


# --- the database -------------------------------------------------------------------------


def test_a_record_survives_reopening(db_url: str) -> None:
    first = Store(db_url)
    original = scenario(first.trainee("Aki").id)
    record(first, original)
    first.dispose()

    reopened = Store(db_url)
    try:
        assert reopened.find_trainee("Aki") is not None
        assert [from_row(row) for _, row in reopened.attempts().iterrows()] == [original]
    finally:
        reopened.dispose()


def test_a_record_is_committed_before_record_returns(store: Store, db_url: str) -> None:
    other = Store(db_url)
    try:
        record(store, scenario(store.trainee("Aki").id))
        assert len(other.attempts()) == 1
    finally:
        other.dispose()


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout_and_foreign_keys(store: Store) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("SQLite pragmas")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_the_schema_is_recorded_once(db_url: str) -> None:
    Store(db_url).dispose()
    store = Store(db_url)  # a second construction changes nothing
    try:
        assert store.upgraded is None
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD_REVISION]
            assert conn.execute(select(schema_version.c.version)).scalars().all() == [LEGACY_FINAL]
    finally:
        store.dispose()


def test_a_fresh_database_gets_every_table_at_the_HEAD_REVISION(db_url: str) -> None:
    """The schema is created the same way on SQLite and PostgreSQL: every table, column, index."""
    engine = create_engine(db_url)
    try:
        assert inspect(engine).get_table_names() == []  # fresh
        Store(db_url).dispose()
        found = inspect(engine)
        assert set(found.get_table_names()) == {*metadata.tables, "alembic_version"}
        for table in metadata.tables.values():
            columns = {c["name"]: c for c in found.get_columns(table.name)}
            assert set(columns) == set(table.columns.keys()), table.name
            for column in table.columns:
                reflected = columns[column.name]
                assert reflected["nullable"] == column.nullable, (table.name, column.name)
                assert issubclass(reflected["type"]._type_affinity, column.type._type_affinity), (
                    table.name, column.name, reflected["type"])
            indexes = {i["name"]: (tuple(i["column_names"]), bool(i["unique"])) for i in found.get_indexes(table.name)}
            for index in table.indexes:
                assert indexes[index.name] == (tuple(c.name for c in index.columns), bool(index.unique))
            uniques = {tuple(u["column_names"]) for u in found.get_unique_constraints(table.name)}
            uniques |= {columns for columns, unique in indexes.values() if unique}
            for constraint in table.constraints:
                if isinstance(constraint, UniqueConstraint):
                    assert tuple(c.name for c in constraint.columns) in uniques
        with engine.connect() as conn:
            assert conn.execute(select(schema_version.c.id, schema_version.c.version)).all() == [(1, LEGACY_FINAL)]
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD_REVISION
    finally:
        engine.dispose()


def test_servers_starting_together_on_an_empty_database_create_it_once(db_url: str) -> None:
    """Several app servers starting at once race to create the tables; every one starts."""
    starters = 4
    barrier = threading.Barrier(starters)
    errors: list[BaseException] = []

    def start() -> None:
        barrier.wait()
        try:
            Store(db_url).dispose()
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(starters)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    store = Store(db_url)
    try:
        assert set(inspect(store.engine).get_table_names()) == {*metadata.tables, "alembic_version"}
        with store.engine.connect() as conn:
            assert conn.execute(select(schema_version.c.version)).scalars().all() == [LEGACY_FINAL]
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD_REVISION]
        assert store.trainee("Aki").id == 1
    finally:
        store.dispose()


def test_database_url_prefers_argument_then_environment_then_data_folder(monkeypatch) -> None:
    monkeypatch.delenv("QUIZ_DATABASE_URL", raising=False)
    assert database_url() == f"sqlite:///{ROOT / 'data' / 'quiz.db'}"
    monkeypatch.setenv("QUIZ_DATABASE_URL", "sqlite:///elsewhere.db")
    assert database_url() == "sqlite:///elsewhere.db"
    assert database_url("sqlite:///given.db") == "sqlite:///given.db"


def test_the_database_folder_is_created_on_first_run(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "new" / "folder" / "quiz.db"
    monkeypatch.setenv("QUIZ_DATABASE_URL", f"sqlite:///{path}")
    store = Store()
    try:
        assert path.is_file()
        assert store.trainee("Aki").id == 1
    finally:
        store.dispose()


def _in_transaction(dbapi_connection) -> bool:
    """Whether the driver's connection is inside a transaction (psycopg or sqlite3)."""
    info = getattr(dbapi_connection, "info", None)
    if info is not None and hasattr(info, "transaction_status"):
        from psycopg.pq import TransactionStatus

        return info.transaction_status != TransactionStatus.IDLE
    return bool(dbapi_connection.in_transaction)


def test_the_reads_of_every_click_open_no_transaction(store):
    """The PIN check, the due count and the deal run on every click: on PostgreSQL a
    transaction around one SELECT costs two round trips more than the query (BEGIN, and the
    ROLLBACK the pool sends when the connection is returned). An answer's write has one."""
    from sqlalchemy import event

    from quiz.access.accounts import credential_version
    from quiz.db.reviews import due_count

    seen: list[tuple[str, bool]] = []

    def after(conn, cursor, statement, parameters, context, executemany) -> None:
        seen.append((statement.split()[0].upper(), _in_transaction(conn.connection.dbapi_connection)))

    trainee = store.trainee("Aiko")
    event.listen(store.engine, "after_cursor_execute", after)
    credential_version(store, trainee.id)
    due_count(store, trainee.id, ["ygo-a", "ygo-b"], datetime.now(UTC))
    store.card_results(trainee.id, last=3, newest=100)
    reads = list(seen)
    seen.clear()
    record(store, AttemptRecord(trainee_id=trainee.id, card_id="ygo-a", ruleset="yugioh-ocg", category=None,
                                card_kind="knowledge", correct=True, seconds=2.0))
    assert [kind for kind, _ in reads] == ["SELECT"] * 3
    assert not any(open_ for _, open_ in reads), reads
    assert seen and all(open_ for _, open_ in seen), seen  # the probe sees a transaction where there is one
