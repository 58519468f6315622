"""Stores and join codes: which store a trainee belongs to, and how they join one.

A store (an organisation) owns its trainees and supervisors. Admins make and rename stores
and move trainees between them. A supervisor makes join codes for their own store (an admin
for any): 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), expiring after
``CODE_DAYS`` days unless revoked sooner. A trainee who redeems one joins its store; a
trainee in no store is a self-study player, and may leave a store to become one again.
Every check of who may touch which store goes through ``Supervisor.sees``: a store id a
browser sends is never trusted on its own.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from quiz.access.scope import Scope, Supervisor
from quiz.db.assignments import assignments_joined, join_whole_store
from quiz.db.audit import record
from quiz.db.seen import Seen, change_seen, seen
from quiz.db.sql import inserted_id
from quiz.db.store import Store, Trainee
from quiz.db.tables import join_codes, stores, trainees
from quiz.model.attempt import utc_now
from quiz.model.errors import AccountError, JoinCodeError, NameTakenError, OutOfScopeError
from quiz.model.names import name_key, valid_name

Now = Callable[[], datetime]
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud or off a phone
CODE_LENGTH = 8
CODE_DAYS = 14  # a join code's life unless given another
CODE_DAYS_MAX = 90
CODE_INPUT_MAX = 32  # characters looked at: longer input is refused before any query
UNUSABLE = "unusable"  # the one rule of a code that cannot be redeemed, whatever the reason


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """A store, with how many trainees are in it."""

    id: int
    name: str
    trainees: int

    @property
    def seen(self) -> Seen:
        """The store as listed: what renaming it checks is unchanged."""
        return seen(stores, self.id, name=self.name)


@dataclass(frozen=True, slots=True)
class JoinCode:
    """A join code of a store: usable until ``expires_at`` unless revoked."""

    code: str
    store_id: int
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None
    uses: int

    def usable(self, now: datetime) -> bool:
        return self.revoked_at is None and now < self.expires_at

    @property
    def seen(self) -> Seen:
        """The code as listed: what revoking it checks is unchanged."""
        return seen(join_codes, self.code, revoked_at=self.revoked_at)


def trainee_seen(trainee: Trainee) -> Seen:
    """A trainee as listed for moving: in the store they were in."""
    return seen(trainees, trainee.id, store_id=trainee.store_id)


def _admin(actor: Supervisor) -> None:
    if not actor.is_admin:
        raise OutOfScopeError(f"{actor.name} is not an admin")


def create_store(store: Store, name: str, actor: Supervisor | None) -> StoreInfo:
    """A new store (an admin's, or the command line's with ``actor`` None), recorded in the
    audit log. ``NameRuleError`` for a bad name, ``NameTakenError`` for a name in use."""
    if actor is not None:
        _admin(actor)
    name = valid_name(name)
    try:
        with store.engine.begin() as conn:
            _refuse_taken_key(conn, name, None)
            store_id = inserted_id(conn.execute(insert(stores).values(name=name, name_key=name_key(name),
                                                                      created_at=utc_now())))
            record(conn, actor, "store_made", name, store_id)
    except IntegrityError as error:
        raise NameTakenError(f"the store name {name!r} is taken") from error
    return StoreInfo(store_id, name, 0)


def rename_store(store: Store, row: Seen, name: str, actor: Supervisor) -> None:
    """Give the store ``row`` names, still as seen, another name (an admin's), with its
    audit row (``store_renamed``, the old name in its detail) in one transaction.
    ``ChangedMeanwhileError`` when the store changed since it was seen."""
    _admin(actor)
    name = valid_name(name)
    try:
        with store.engine.begin() as conn:
            _refuse_taken_key(conn, name, int(row.key))
            change_seen(conn, stores, row, {"name": name, "name_key": name_key(name)})
            record(conn, actor, "store_renamed", name, int(row.key), {"from": row.value("name")})
    except IntegrityError as error:
        raise NameTakenError(f"the store name {name!r} is taken") from error


def _refuse_taken_key(conn: Connection, name: str, own_id: int | None) -> None:
    """``NameTakenError`` when another store's name is ``name`` in another case or width (the
    unique key refuses it too; this also finds a store made before keys, which has none)."""
    key = name_key(name)
    for other_id, other in conn.execute(select(stores.c.id, stores.c.name)):
        if other_id != own_id and name_key(other) == key:
            raise NameTakenError(f"the store name {name!r} is taken by {other!r}")


def store_by_name(store: Store, name: str) -> StoreInfo | None:
    """The store whose name is ``name`` in any case or width (``name_key``), or None."""
    key = name_key(name)
    return next((info for info in list_stores(store) if name_key(info.name) == key), None)


def list_stores(store: Store) -> list[StoreInfo]:
    """Every store by name, with its trainee count."""
    counts = (select(trainees.c.store_id, func.count().label("n")).group_by(trainees.c.store_id).subquery())
    query = (select(stores.c.id, stores.c.name, func.coalesce(counts.c.n, 0))
             .select_from(stores.outerjoin(counts, counts.c.store_id == stores.c.id)).order_by(stores.c.name))
    with store.engine.connect() as conn:
        return [StoreInfo(int(row[0]), row[1], int(row[2])) for row in conn.execute(query)]


def store_name(store: Store, store_id: int | None) -> str | None:
    """The name of a store, or None (no store, or an unknown id)."""
    if store_id is None:
        return None
    with store.engine.connect() as conn:
        return conn.execute(select(stores.c.name).where(stores.c.id == store_id)).scalar()


def new_code() -> str:
    """A random join code: ``CODE_LENGTH`` characters of ``CODE_ALPHABET`` (about 40 bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(typed: str) -> str:
    """A code as typed, made canonical: upper case, without the spaces and hyphens a person
    may type between its characters."""
    return "".join(typed.split()).replace("-", "").upper()


def make_join_code(store: Store, actor: Supervisor, store_id: int, days: int = CODE_DAYS,
                   now: Now = utc_now) -> JoinCode:
    """A new join code for ``store_id`` (the actor's own store, or any for an admin), usable
    for ``days`` days, recorded in the audit log."""
    if not actor.sees(store_id):
        raise OutOfScopeError(f"{actor.name} may not make codes for store {store_id}")
    if not 1 <= days <= CODE_DAYS_MAX:
        raise JoinCodeError("days", f"a join code lasts 1 to {CODE_DAYS_MAX} days")
    made_at = now()
    with store.engine.begin() as conn:
        if conn.execute(select(stores.c.id).where(stores.c.id == store_id)).first() is None:
            raise AccountError("unknown", f"no store {store_id}")
        code = new_code()
        conn.execute(insert(join_codes).values(code=code, store_id=store_id, created_by=actor.id, created_at=made_at,
                                               expires_at=made_at + timedelta(days=days), revoked_at=None, uses=0))
        record(conn, actor, "join_code_made", code, store_id, {"days": days})
    return JoinCode(code, store_id, made_at, made_at + timedelta(days=days), None, 0)


def codes_in(store: Store, scope: Scope) -> list[JoinCode]:
    """The join codes inside ``scope``, newest first."""
    query = select(join_codes).order_by(join_codes.c.created_at.desc())
    if not scope.every_store:
        query = query.where(join_codes.c.store_id == scope.store_id)
    with store.engine.connect() as conn:
        return [JoinCode(**{name: row._mapping[name] for name in JoinCode.__slots__}) for row in conn.execute(query)]


def revoke_join_code(store: Store, actor: Supervisor, row: Seen, now: Now = utc_now) -> None:
    """End the join code ``row`` names, still as seen, before it expires (a supervisor of its
    store, or an admin), with its audit row in one transaction. ``ChangedMeanwhileError``
    when it changed since it was seen (revoked meanwhile)."""
    with store.engine.begin() as conn:
        store_id = conn.execute(select(join_codes.c.store_id).where(join_codes.c.code == row.key)).scalar()
        if store_id is None:
            raise JoinCodeError("unknown", "no such join code")
        if not actor.sees(store_id):
            raise OutOfScopeError(f"{actor.name} may not revoke a code of store {store_id}")
        change_seen(conn, join_codes, row, {"revoked_at": now()})
        record(conn, actor, "join_code_revoked", str(row.key), store_id)


def redeem(store: Store, trainee_id: int, typed: str, now: Now = utc_now) -> StoreInfo:
    """The trainee joins the store of the join code ``typed`` (counted as one use); the store.
    ``JoinCodeError`` (``UNUSABLE``) for an unknown, expired or revoked code alike (nothing changes)."""
    with store.engine.begin() as conn:
        store_id = redeem_on(store, conn, trainee_id, typed, now())
        name = conn.execute(select(stores.c.name).where(stores.c.id == store_id)).scalar_one()
    assignments_joined(store)
    return StoreInfo(store_id, name, 0)


def redeem_on(store: Store, conn: Connection, trainee_id: int, typed: str, at: datetime) -> int:
    """``redeem`` in the caller's transaction (a new trainee is added with their code, or
    not at all); the store's id. The caller calls ``assignments_joined`` after its commit."""
    code = normal_code(typed)
    if not code or len(code) > CODE_INPUT_MAX:
        raise JoinCodeError(UNUSABLE, "no usable join code")
    usable = and_(join_codes.c.code == code, join_codes.c.revoked_at.is_(None), join_codes.c.expires_at > at)
    if not conn.execute(update(join_codes).where(usable).values(uses=join_codes.c.uses + 1)).rowcount:
        # one answer for a code never made, revoked or expired: a guesser learns nothing of
        # which codes existed (the supervisor's page says which of theirs are revoked or expired)
        raise JoinCodeError(UNUSABLE, "no usable join code")
    store_id = int(conn.execute(select(join_codes.c.store_id).where(join_codes.c.code == code)).scalar_one())
    conn.execute(update(trainees).where(trainees.c.id == trainee_id).values(store_id=store_id))
    join_whole_store(store, conn, store_id, trainee_id, at)
    return store_id


def move_trainee(store: Store, actor: Supervisor, row: Seen, store_id: int | None) -> None:
    """Put the trainee ``row`` names, still in the store they were seen in, in another store,
    or in none (an admin's decision), with its audit row in one transaction.
    ``ChangedMeanwhileError`` when they moved since they were seen."""
    _admin(actor)
    with store.engine.begin() as conn:
        if store_id is not None and conn.execute(select(stores.c.id).where(stores.c.id == store_id)).first() is None:
            raise AccountError("unknown", f"no store {store_id}")
        change_seen(conn, trainees, row, {"store_id": store_id})
        if store_id is not None:
            join_whole_store(store, conn, store_id, int(row.key), utc_now())
        name = conn.execute(select(trainees.c.name).where(trainees.c.id == row.key)).scalar_one()
        record(conn, actor, "trainee_moved", name, store_id)
    assignments_joined(store)


def leave_store(store: Store, trainee_id: int) -> None:
    """The trainee leaves their store and becomes a self-study player (their own choice)."""
    with store.engine.begin() as conn:
        conn.execute(update(trainees).where(trainees.c.id == trainee_id).values(store_id=None))
