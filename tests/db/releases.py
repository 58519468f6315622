"""Databases as the releases before Alembic made them, to migrate from.

Each release ran ``create_all`` on its tables and recorded its schema version. Their tables
were today's (revision 0004's) but for what came later, read from the history of
quiz/db/tables.py: PINs and the newest-attempt index came within version 1, re-grades with
version 2, throttles, name keys, time zones, goals, exam flags and problem reports within
version 2, the findings columns with version 3. A later revision that changes one of these
tables must freeze its older shape here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, ForeignKey, Index, MetaData, Table, UniqueConstraint, create_engine

from quiz.db.tables import metadata

V2_COLUMNS = {"attempts": {"variant_values", "content_fingerprint", "chosen_players", "standard_players", "players_result"}}
V3_COLUMNS = {"attempts": {"findings", "penalty_follows_findings"},
              "attempt_regrades": {"findings", "penalty_follows_findings"}}
FIRST_TABLES = frozenset({"schema_version", "trainees", "attempts", "exams", "review_schedules"})
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

    def __str__(self) -> str:
        return self.name


def _merge(*parts: dict[str, set[str]]) -> dict[str, set[str]]:
    merged: dict[str, set[str]] = {}
    for part in parts:
        for table, columns in part.items():
            merged.setdefault(table, set()).update(columns)
    return merged


RELEASES = (
    Release("first release", 1, FIRST_TABLES, _merge(V2_COLUMNS, V3_COLUMNS), frozenset({"ix_attempts_trainee_id"})),
    Release("version 1 with PINs", 1, FIRST_TABLES | {"trainee_pins"}, _merge(V2_COLUMNS, V3_COLUMNS)),
    Release("first of version 2", 2, FIRST_TABLES | {"trainee_pins", "attempt_regrades"}, V3_COLUMNS),
    Release("last of version 2", 2, FIRST_TABLES | {"trainee_pins", "attempt_regrades"} | VERSION_2_TABLES,
            V3_COLUMNS),
    Release("version 3", 3, frozenset(metadata.tables), {}),
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
    finally:
        engine.dispose()
    return shape

