"""Scopes for tests that read every trainee, as an admin of every store does."""

from __future__ import annotations

from quiz.model.scope import Scope, Supervisor

ADMIN = Supervisor(id=0, name="Admin", role="admin", store_id=None)
EVERY_STORE: Scope = ADMIN.scope()
