"""Alembic keeps the schema from here on: the old ``schema_version`` table says 4, a number
every release before this one refuses to start on (it knew only up to 3)."""

from __future__ import annotations

from alembic import op

from quiz.db.migrate import record_legacy_version

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    record_legacy_version(op.get_bind())
