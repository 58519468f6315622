"""What a supervisor's ``Scope`` lets a query see, as SQL: the one store filter of every
supervisor page, CSV and action.

A row belongs to a store through its trainee (``trainees.store_id``; None: a self-study
player, whom only an admin's scope of every store sees) or its own ``store_id`` column
(packs). Queries add ``sees_trainee`` or ``sees_store`` to their WHERE; an action on one row
by id first calls ``refuse_unseen``, so an id a browser was never shown is refused alike
whether it is another store's or no one's.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, select, true
from sqlalchemy.engine import Connection

from quiz.db.tables import trainees
from quiz.model.errors import OutOfScopeError
from quiz.model.scope import Scope


def sees_store(store_id: ColumnElement[Any], scope: Scope) -> ColumnElement[bool]:
    """Whether a row whose store is ``store_id`` is inside ``scope``."""
    return true() if scope.every_store else store_id == scope.store_id


def sees_trainee(trainee_id: ColumnElement[Any], scope: Scope) -> ColumnElement[bool]:
    """Whether the row of the trainee ``trainee_id`` (a column or an expression of it) is inside
    ``scope``: the trainee is one of the scope's store (no condition for every store)."""
    if scope.every_store:
        return true()
    return trainee_id.in_(select(trainees.c.id).where(sees_store(trainees.c.store_id, scope)))


def refuse_unseen(conn: Connection, scope: Scope, trainee_id: int) -> None:
    """Raise ``OutOfScopeError`` unless the trainee ``trainee_id`` exists inside ``scope``."""
    found = conn.execute(select(trainees.c.store_id).where(trainees.c.id == trainee_id)).one_or_none()
    if found is None or not scope.allows(found.store_id):
        raise OutOfScopeError(f"trainee {trainee_id} is not in {scope.supervisor.name}'s scope")
