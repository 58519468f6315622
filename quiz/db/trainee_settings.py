"""A setting each trainee may keep (their daily goal, time zone, studied games): one value in a
table of its own, keyed by ``trainee_id`` and stamped ``updated_at`` at each change.

What a value may be, and what no row means beyond the ``default``, stays with each setting's
module (``quiz.db.goals``, ``time_zones``, ``study_games``): this is only how one is read and kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, select

from quiz.db.sql import upsert
from quiz.db.store import Store
from quiz.model.attempt import utc_now


@dataclass(frozen=True, slots=True)
class TraineeSetting:
    """The setting kept in ``column`` of a table keyed by ``trainee_id``; ``default`` is read
    for a trainee who never kept one."""

    column: Column[Any]
    default: Any = None

    def read(self, store: Store, trainee_id: int) -> Any:
        """The trainee's kept value as stored, or ``default`` (one statement, no transaction)."""
        table = self.column.table
        with store.reads.connect() as conn:
            found = conn.execute(select(self.column).where(table.c.trainee_id == trainee_id)).scalar_one_or_none()
        return self.default if found is None else found

    def write(self, store: Store, trainee_id: int, value: Any) -> None:
        """Keep ``value`` (checked by the caller) as the trainee's, in place of any before."""
        with store.engine.begin() as conn:
            upsert(conn, self.column.table, {"trainee_id": trainee_id},
                   {self.column.name: value, "updated_at": utc_now()})
