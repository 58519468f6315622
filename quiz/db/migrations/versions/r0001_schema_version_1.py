"""Schema version 1: the tables of the first releases, created where missing.

A database recorded at schema version 1 was made by a release that may predate PINs and the
index of a trainee's newest attempt (they came without a version change), so this creates
whatever of version 1 is missing. The tables are frozen here as version 1 had them.
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
    UniqueConstraint,
)

from quiz.db.migrate import create_missing

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_AT = DateTime(timezone=True)
_old = MetaData()
_tables = (
    Table("trainees", _old,
          Column("id", Integer, primary_key=True),
          Column("name", String(60), nullable=False, unique=True),
          Column("created_at", _AT, nullable=False)),
    Table("attempts", _old,
          Column("id", Integer, primary_key=True),
          Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
          Column("card_id", String(120), nullable=False),
          Column("ruleset", String(64), nullable=False),
          Column("category", String(64)),
          Column("card_kind", String(16), nullable=False),
          Column("mode", String(16), nullable=False),
          *(Column(name, String(64)) for name in (
              "chosen_infraction", "standard_infraction", "chosen_penalty", "standard_penalty")),
          Column("chosen_fixes", Text, nullable=False),
          Column("standard_fixes", Text, nullable=False),
          Column("chosen_choice", String(64)),
          Column("correct_choice", String(64)),
          *(Column(name, String(16)) for name in ("infraction_result", "penalty_result", "fixes_result")),
          Column("correct", Boolean, nullable=False),
          Column("penalty_steps", Integer),
          Column("seconds", Float, nullable=False),
          Column("answered_at", _AT, nullable=False),
          Column("exam_id", Integer),
          Index("ix_attempts_trainee_answered", "trainee_id", "answered_at"),
          Index("ix_attempts_card", "card_id"),
          Index("ix_attempts_trainee_id", "trainee_id", "id")),
    Table("exams", _old,
          Column("id", Integer, primary_key=True),
          Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
          Column("preset", String(64), nullable=False),
          *(Column(name, JSON, nullable=False) for name in ("settings", "card_ids", "seeds")),
          Column("started_at", _AT, nullable=False),
          Column("deadline", _AT, nullable=False),
          Column("finished_at", _AT),
          Column("score", Integer),
          Column("passed", Boolean),
          Index("ix_exams_trainee_started", "trainee_id", "started_at")),
    Table("review_schedules", _old,
          Column("id", Integer, primary_key=True),
          Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
          Column("card_id", String(120), nullable=False),
          Column("fsrs_card", Text, nullable=False),
          Column("due", _AT, nullable=False),
          Column("last_review", _AT),
          UniqueConstraint("trainee_id", "card_id", name="uq_review_schedules_trainee_card"),
          Index("ix_review_schedules_trainee_due", "trainee_id", "due")),
    Table("trainee_pins", _old,
          Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
          Column("pin_hash", String(200), nullable=False),
          Column("updated_at", _AT, nullable=False)),
)


def upgrade() -> None:
    create_missing(_tables)
