"""Exam dates: a trainee's date of a game's exam, which review is planned for."""

from __future__ import annotations

from sqlalchemy import Column, Date, DateTime, ForeignKey, Integer, MetaData, String, Table

from quiz.db.migrate import create_missing

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_new = MetaData()
_trainees = Table("trainees", _new, Column("id", Integer, primary_key=True))
_exam_dates = Table(
    "exam_dates",
    _new,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("ruleset_id", String(64), primary_key=True),
    Column("exam_day", Date, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


def upgrade() -> None:
    create_missing((_exam_dates,))
