"""Writing attempts straight into the database, for tests that build a history.

The app stores answers only through ``quiz.db.submissions.submit_answer`` (graded, with the
card's review schedule); tests that need a given history without a schedule write it here.
"""

from __future__ import annotations

from dataclasses import asdict

from sqlalchemy import insert

from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import attempts
from quiz.model.attempt import AttemptRecord


def record(store: Store, attempt: AttemptRecord) -> int:
    """Store one attempt in its own transaction, committed on return; its new id."""
    with store.engine.begin() as conn:
        return inserted_id(conn.execute(insert(attempts).values(**asdict(attempt))))
