"""Who is looking, and at which store: what every supervisor page and CSV filters by.

A ``Supervisor`` is a signed-in account: a ``supervisor`` of one store or an ``admin`` of
every store. A ``Scope`` is what a page shows: the supervisor's own store, or, for an admin,
the store picked (or every store). Core queries take a ``Scope`` (or its ``store_ids``), never
a store id from a widget, so a value a browser sends cannot reach another store's rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quiz.model.errors import OutOfScopeError

Role = Literal["supervisor", "admin"]
ROLES: tuple[Role, ...] = ("supervisor", "admin")


@dataclass(frozen=True, slots=True)
class Supervisor:
    """A signed-in supervisor account. ``store_id`` is None for an admin."""

    id: int
    name: str
    role: Role
    store_id: int | None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    def sees(self, store_id: int | None) -> bool:
        """Whether this account may see or touch a row of ``store_id`` (None: no store)."""
        return self.is_admin or (store_id is not None and store_id == self.store_id)

    def scope(self, picked: int | None = None) -> Scope:
        """What a page shows: a supervisor's own store whatever was picked; an admin's pick
        (None: every store)."""
        if self.is_admin:
            return Scope(self, picked)
        return Scope(self, self.store_id)


@dataclass(frozen=True, slots=True)
class Scope:
    """The rows a page may show: those of ``store_id``, or of every store when it is None
    (only an admin's scope can be)."""

    supervisor: Supervisor
    store_id: int | None

    def __post_init__(self) -> None:
        if not self.supervisor.sees(self.store_id) or (self.store_id is None and not self.supervisor.is_admin):
            raise OutOfScopeError(f"{self.supervisor.name} may not see store {self.store_id}")

    @property
    def every_store(self) -> bool:
        return self.store_id is None

    def allows(self, store_id: int | None) -> bool:
        """Whether a row of ``store_id`` is inside this scope."""
        return self.every_store or store_id == self.store_id
