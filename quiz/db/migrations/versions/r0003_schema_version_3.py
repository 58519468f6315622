"""Schema version 3: an answer to a card with findings keeps each finding's grade and whether
a wrong penalty follows from the trainee's findings, on the attempt and on each re-grade."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column

from quiz.db.migrate import add_missing_columns

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("attempts", "attempt_regrades"):
        add_missing_columns(table, (Column("findings", JSON), Column("penalty_follows_findings", Boolean)))
