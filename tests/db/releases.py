"""Databases as the releases before Alembic made them, to migrate from.

Each release ran ``create_all`` on its tables and recorded its schema version. Their tables
were today's (revision 0004's) but for what came later, read from the history of
quiz/db/tables.py: PINs and the newest-attempt index came within version 1, re-grades with
version 2, throttles, name keys, time zones, goals, exam flags and problem reports within
version 2, the findings columns with version 3. Revision 0004 (the first Alembic release)
stamped its revision; stores, accounts, join codes, the audit log, assignments and packs in
the database came with 0005. A later revision that changes one of these tables must freeze
its older shape here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, ForeignKey, Index, MetaData, String, Table, UniqueConstraint, create_engine

from quiz.db.tables import metadata

V2_COLUMNS = {"attempts": {"variant_values", "content_fingerprint", "chosen_players", "standard_players", "players_result"}}
V3_COLUMNS = {"attempts": {"findings", "penalty_follows_findings"},
              "attempt_regrades": {"findings", "penalty_follows_findings"}}
FIRST_TABLES = frozenset({"schema_version", "trainees", "attempts", "exams", "review_schedules"})
R5_COLUMNS = {"trainees": {"store_id"}}
R5_TABLES = frozenset({"stores", "supervisor_accounts", "join_codes", "audit_log", "assignments",
                       "assignment_members", "content_packs", "content_pack_files", "trainee_games", "trainee_devices", "content_pack_cards"})
R5_INDEXES = frozenset({"ix_trainees_store"})
VERSION_2_TABLES = frozenset({"login_throttles", "trainee_name_keys", "trainee_time_zones", "trainee_goals",
                              "exam_flags", "problem_reports"})


@dataclass(frozen=True)
class Release:
    """What one release's database held: its schema version, tables, and what it lacked."""

    name: str
    version: int
    tables: frozenset[str]
    missing_columns: dict[str, set[str]]
    missing_indexes: frozenset[str] = frozenset()
    alembic_revision: str | None = None  # stamped by a release that kept its schema with Alembic

    def __str__(self) -> str:
        return self.name


def _merge(*parts: dict[str, set[str]]) -> dict[str, set[str]]:
    merged: dict[str, set[str]] = {}
    for part in parts:
        for table, columns in part.items():
            merged.setdefault(table, set()).update(columns)
    return merged


BEFORE_STORES = frozenset(metadata.tables) - R5_TABLES
RELEASES = (
    Release("first release", 1, FIRST_TABLES, _merge(V2_COLUMNS, V3_COLUMNS, R5_COLUMNS),
            frozenset({"ix_attempts_trainee_id"}) | R5_INDEXES),
    Release("version 1 with PINs", 1, FIRST_TABLES | {"trainee_pins"}, _merge(V2_COLUMNS, V3_COLUMNS, R5_COLUMNS),
            R5_INDEXES),
    Release("first of version 2", 2, FIRST_TABLES | {"trainee_pins", "attempt_regrades"},
            _merge(V3_COLUMNS, R5_COLUMNS), R5_INDEXES),
    Release("last of version 2", 2, FIRST_TABLES | {"trainee_pins", "attempt_regrades"} | VERSION_2_TABLES,
            _merge(V3_COLUMNS, R5_COLUMNS), R5_INDEXES),
    Release("version 3", 3, BEFORE_STORES, R5_COLUMNS, R5_INDEXES),
    Release("revision 0004", 4, BEFORE_STORES, R5_COLUMNS, R5_INDEXES, alembic_revision="0004"),
)


def release_tables(release: Release) -> MetaData:
    """The tables ``release`` created, on their own MetaData."""
    shape = MetaData()
    for name in sorted(release.tables):
        table = metadata.tables[name]
        skip = release.missing_columns.get(name, set())
        columns = [Column(c.name, c.type, *(ForeignKey(key.target_fullname) for key in c.foreign_keys),
                          primary_key=c.primary_key, nullable=c.nullable, unique=c.unique, autoincrement=c.autoincrement)
                   for c in table.columns if c.name not in skip]
        indexes = [Index(index.name, *(c.name for c in index.columns), unique=bool(index.unique))
                   for index in table.indexes if index.name not in release.missing_indexes]
        constraints = [UniqueConstraint(*(c.name for c in constraint.columns), name=constraint.name)
                       for constraint in list(table.constraints)  # named: not a column's unique=True
                       if isinstance(constraint, UniqueConstraint) and constraint.name]
        Table(name, shape, *columns, *indexes, *constraints)
    return shape


def make_release_database(url: str, release: Release) -> MetaData:
    """An empty database as ``release`` made it on first start; its tables, to fill."""
    shape = release_tables(release)
    engine = create_engine(url)
    try:
        shape.create_all(engine)
        with engine.begin() as conn:
            conn.execute(shape.tables["schema_version"].insert().values(id=1, version=release.version))
            if release.alembic_revision is not None:
                stamp = Table("alembic_version", MetaData(), Column("version_num", String(32), primary_key=True))
                stamp.create(conn)
                conn.execute(stamp.insert().values(version_num=release.alembic_revision))
    finally:
        engine.dispose()
    return shape

