"""Schema version 2: attempts record what they were graded under and who receives the
penalty; re-grades, and the tables version 2's releases added (throttles, name keys, time
zones, goals, exam flags, problem reports), created where missing, frozen as they came.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

from quiz.db.migrate import add_missing_columns, create_missing

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_AT = DateTime(timezone=True)
_old = MetaData()
Table("trainees", _old, Column("id", Integer, primary_key=True))  # the foreign keys' target
Table("attempts", _old, Column("id", Integer, primary_key=True))
Table("exams", _old, Column("id", Integer, primary_key=True))
_tables = (
    Table("attempt_regrades", _old,
          Column("id", Integer, primary_key=True),
          Column("attempt_id", Integer, ForeignKey("attempts.id"), nullable=False),
          Column("regraded_at", _AT, nullable=False),
          Column("from_fingerprint", String(16)),
          Column("to_fingerprint", String(16), nullable=False),
          *(Column(name, String(64)) for name in ("category", "standard_infraction", "standard_penalty")),
          Column("standard_fixes", Text, nullable=False),
          Column("correct_choice", String(64)),
          *(Column(name, String(16)) for name in (
              "infraction_result", "penalty_result", "fixes_result", "players_result", "standard_players")),
          Column("correct", Boolean, nullable=False),
          Column("penalty_steps", Integer),
          Index("ix_attempt_regrades_attempt", "attempt_id", "id")),
    Table("login_throttles", _old,
          Column("scope", String(16), primary_key=True),
          Column("subject", String(200), primary_key=True),
          Column("failures", Integer, nullable=False),
          Column("weight", Float, nullable=False),
          Column("last_failure_at", _AT, nullable=False),
          Column("not_before", _AT, nullable=False),
          Column("locked_at", _AT),
          Index("ix_login_throttles_last_failure", "last_failure_at")),
    Table("trainee_name_keys", _old,
          Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
          Column("name_key", String(200), nullable=False, unique=True)),
    Table("trainee_time_zones", _old,
          Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
          Column("time_zone", String(64), nullable=False),
          Column("updated_at", _AT, nullable=False)),
    Table("trainee_goals", _old,
          Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
          Column("cards_per_day", Integer, nullable=False),
          Column("updated_at", _AT, nullable=False)),
    Table("exam_flags", _old,
          Column("exam_id", Integer, ForeignKey("exams.id"), primary_key=True, autoincrement=False),
          Column("card_id", String(120), primary_key=True)),
    Table("problem_reports", _old,
          Column("id", Integer, primary_key=True),
          Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
          Column("card_id", String(120), nullable=False),
          Column("reason", String(32), nullable=False),
          Column("text", Text, nullable=False),
          Column("content_fingerprint", String(16)),
          Column("variant_values", JSON),
          Column("answer", JSON),
          Column("attempt_id", Integer, ForeignKey("attempts.id")),
          Column("created_at", _AT, nullable=False),
          Column("resolved", Boolean, nullable=False),
          Column("resolution", Text),
          Column("resolved_at", _AT),
          Index("ix_problem_reports_card", "card_id", "resolved")),
)


def upgrade() -> None:
    add_missing_columns("attempts", (
        Column("variant_values", JSON),
        Column("content_fingerprint", String(16)),
        *(Column(name, String(16)) for name in ("chosen_players", "standard_players", "players_result")),
    ))
    create_missing(_tables)
