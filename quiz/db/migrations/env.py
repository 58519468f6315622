"""Alembic's environment: migrations run on the connection ``quiz.db.migrate`` hands over,
inside its transaction (there is no alembic.ini: ``python -m quiz db upgrade`` runs them)."""

from __future__ import annotations

from alembic import context

from quiz.db.tables import metadata

context.configure(connection=context.config.attributes["connection"], target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
