"""Alembic's script folder: ``env.py`` and the revisions under ``versions/`` (``quiz.db.migrate`` runs them)."""
