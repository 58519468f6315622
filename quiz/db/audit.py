"""The audit log: which supervisor account did what to whom, in which store, and when.

``record`` writes one row, in the caller's transaction when given a connection (so the act
and its record are committed together, or neither), else in one of its own. The actor is a
signed-in account (``quiz.access.scope.Supervisor``) or None for the system (the command
line); the store sits above this stage, so the actor and the scope are typed here by the
fields read from them (``Actor``, ``Scoped``). The actor's name is copied into the row, so a
renamed or disabled account's acts still read as they were done.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

from quiz.db.tables import audit_log
from quiz.model.attempt import utc_now

if TYPE_CHECKING:
    import pandas as pd

    from quiz.db.store import Store

Action = Literal["pin_reset", "lock_lifted", "pack_imported", "pack_removed", "report_resolved",
                 "assignment_made", "join_code_made", "join_code_revoked", "account_made", "store_made",
                 "account_linked", "trainee_moved", "account_disabled", "account_enabled", "store_renamed",
                 "assignment_archived", "password_changed", "answers_regraded"]
ACTIONS: tuple[Action, ...] = get_args(Action)
SYSTEM = "(system)"  # the actor's name of a row written by the command line or a migration
TARGET_MAX = 200  # characters of a target, as the column holds
DEFAULT_LIMIT = 500  # newest rows a page shows


class Actor(Protocol):
    """Who acts: a supervisor account (``quiz.access.scope.Supervisor``)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


class Scoped(Protocol):
    """Which rows may be read: one store's, or every store's (``quiz.access.scope.Scope``)."""

    @property
    def store_id(self) -> int | None: ...

    @property
    def every_store(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One row of the log."""

    id: int
    at: datetime
    account_id: int | None
    actor: str
    store_id: int | None
    action: str
    target: str
    detail: dict[str, Any] | None


def record(where: Connection | Store, actor: Actor | None, action: Action, target: str,
           store_id: int | None, detail: dict[str, Any] | None = None) -> None:
    """Write one row: ``actor`` did ``action`` to ``target`` in ``store_id`` (None: every
    store). Given a connection, in its transaction; given a Store, in a transaction of its own."""
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    values = {"at": utc_now(), "account_id": actor.id if actor is not None else None,
              "actor": actor.name if actor is not None else SYSTEM, "store_id": store_id,
              "action": action, "target": target[:TARGET_MAX], "detail": detail}
    if isinstance(where, Connection):
        where.execute(insert(audit_log).values(**values))
        return
    with where.engine.begin() as conn:
        conn.execute(insert(audit_log).values(**values))


def entries(store: Store, scope: Scoped, limit: int = DEFAULT_LIMIT) -> list[AuditEntry]:
    """The newest ``limit`` rows inside ``scope``, newest first: one store's, or, for a scope
    of every store, all of them (rows of no store included)."""
    query = select(audit_log).order_by(audit_log.c.at.desc(), audit_log.c.id.desc()).limit(limit)
    if not scope.every_store:
        query = query.where(audit_log.c.store_id == scope.store_id)
    with store.engine.connect() as conn:
        return [AuditEntry(**row._mapping) for row in conn.execute(query)]


def entries_frame(found: list[AuditEntry]) -> pd.DataFrame:
    """The rows as a table (for the page and its CSV): the detail as plain ``key=value`` text."""
    import pandas as pd

    return pd.DataFrame({
        "at": [entry.at.isoformat(timespec="seconds") for entry in found],
        "actor": [entry.actor for entry in found],
        "action": [entry.action for entry in found],
        "target": [entry.target for entry in found],
        "store_id": pd.array([entry.store_id for entry in found], dtype="Int64"),
        "detail": ["; ".join(f"{key}={value}" for key, value in (entry.detail or {}).items()) for entry in found],
    })
