"""Floor calls: an attempt keeps its investigation (the steps taken and their grade), and the
steps of a call being investigated are kept as they are taken, to resume it."""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, MetaData, String, Table, UniqueConstraint

from quiz.db.migrate import add_missing_columns, create_missing

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_new = MetaData()
_trainees = Table("trainees", _new, Column("id", Integer, primary_key=True))
_investigation_steps = Table(
    "investigation_steps",
    _new,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("card_id", String(120), nullable=False),
    Column("exam_key", Integer, nullable=False),
    Column("step_id", String(64), nullable=False),
    Column("taken_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("trainee_id", "card_id", "exam_key", "step_id", name="uq_investigation_steps_step"),
)


def upgrade() -> None:
    add_missing_columns("attempts", [Column("investigation", JSON)])
    add_missing_columns("attempt_regrades", [Column("investigation", JSON)])
    create_missing((_investigation_steps,))
