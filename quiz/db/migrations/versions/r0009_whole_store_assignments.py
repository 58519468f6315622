"""Assignments given to a whole store: marked, so that staff who join the store later (while
the assignment is neither archived nor past due) become its members too."""

from __future__ import annotations

from sqlalchemy import Boolean, Column

from quiz.db.migrate import add_missing_columns

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable, no default: an assignment made before it was marked keeps its fixed members
    add_missing_columns("assignments", [Column("whole_store", Boolean)])
