"""Supervisor accounts: people with a name, a password and a role, and signing in as one.

A ``supervisor`` sees their own store; an ``admin`` every store (``quiz.access.scope``).
Names follow the trainees' rules (``quiz.model.names``) and are unique by canonical form.
Passwords are hashed with argon2id (argon2-cffi's ``PasswordHasher``) and hashed again with
today's parameters when an older hash signs in.

Signing in is throttled per account in the database (``ACCOUNT_SCOPE`` rows of
``login_throttles``, keyed by the canonical name): every session of every server shares it.
Its failures fade (half-life 30 s) and never lock, so a guesser slows an account down but
cannot lock its owner out. An unknown name is throttled and checked against a dummy hash,
like a known one, so the form does not reveal which names have accounts.

Bootstrap: a deployment that set the old shared password (``$QUIZ_SUPERVISOR_PASSWORD`` or
the secret ``supervisor_password``) and has no admin yet makes its first admin, "admin" with
that password, at the first sign-in of "admin" with it (recorded in the audit log). From then
on the shared password opens nothing, and the sign-in says to use an account. Without it,
``python -m quiz accounts add`` makes the first admin.

An account may also be linked to an OpenID Connect provider's subject (``quiz.access.oidc_links``).
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Mapping, Sequence

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from quiz.access.scope import ROLES, Role, Supervisor
from quiz.access.throttles import (
    Clock,
    LoginThrottle,
    StoredThrottle,
    Throttle,
    ThrottlePolicy,
    attempt,
    remember,
    remembered,
)
from quiz.db.audit import record
from quiz.db.seen import Seen, change_seen, seen
from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import stores, supervisor_accounts
from quiz.model.attempt import utc_now
from quiz.model.errors import AccountError, NameTakenError, OutOfScopeError
from quiz.model.names import NAME_INPUT_MAX, NAME_MAX, name_key, valid_name

PASSWORD_ENV = "QUIZ_SUPERVISOR_PASSWORD"
PASSWORD_SECRET = "supervisor_password"
PASSWORD_MIN = 8  # characters of a new account password
PASSWORD_MAX = 200  # characters: a longer guess is refused without being hashed (the form's limit too)
BOOTSTRAP_NAME = "admin"
ACCOUNT_SCOPE = "account"
# Per account, every session together: doubling from 1 s up to 30 s, each failure's weight
# halving every 30 s; no lock-out (an admin locked out would lock every store out).
ACCOUNT_POLICY = ThrottlePolicy(base=1.0, factor=2.0, ceiling=30.0, half_life=30.0)
# With the client's address known, ACCOUNT_POLICY holds each (account, address) pair, and the
# account as a whole is held only this much, so a guesser elsewhere delays its owner by at most
# 10 s; not at all from an address the account signed in from within a day (``SEEN_SCOPE``).
ACCOUNT_WIDE_POLICY = ThrottlePolicy(base=1.0, factor=2.0, ceiling=10.0, half_life=60.0)
ADDRESS_SCOPE = "account_address"  # every account tried from one address
ADDRESS_POLICY = ThrottlePolicy(base=1.0, factor=2.0, ceiling=300.0, half_life=600.0)
PAIR_SCOPE = "account_pair"
SEEN_SCOPE = "account_seen"
SEEN_SECONDS = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class SupervisorSignIn:
    """The outcome of a sign-in: the account and its ``credential`` (for noticing a password
    changed elsewhere), or None with why: the wait before the next try (``throttled``), input
    longer than any name or password (``too_long``), or the old shared password given once
    accounts exist (``shared_password``)."""

    supervisor: Supervisor | None
    credential: str | None = None
    retry_after: float = 0.0
    throttled: bool = False
    too_long: bool = False
    shared_password: bool = False
    bootstrapped: bool = False


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the admin page lists it."""

    supervisor: Supervisor
    store_name: str | None
    disabled_at: datetime | None

    @property
    def disabled(self) -> bool:
        return self.disabled_at is not None

    @property
    def seen(self) -> Seen:
        """The account as listed: what disabling or enabling it again checks is unchanged."""
        return seen(supervisor_accounts, self.supervisor.id, disabled_at=self.disabled_at)


def configured_password(environ: Mapping[str, str], secrets_: Mapping[str, Any]) -> str | None:
    """The old shared password from the environment, else from the secrets; None when neither
    sets one (a blank value counts as not set)."""
    for value in (environ.get(PASSWORD_ENV), secrets_.get(PASSWORD_SECRET)):
        if isinstance(value, str) and value.strip():
            return value
    return None


@lru_cache(maxsize=1)
def hasher() -> PasswordHasher:
    """argon2id with the library's recommended parameters."""
    return PasswordHasher()


def check_new_password(password: str) -> None:
    """``AccountError`` unless ``password`` is ``PASSWORD_MIN`` to ``PASSWORD_MAX`` characters."""
    if len(password) < PASSWORD_MIN:
        raise AccountError("password_short", f"a password needs at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise AccountError("password_long", f"a password has at most {PASSWORD_MAX} characters")


def account_throttle(store: Store, name: str, clock: Clock = time.time,
                     policy: ThrottlePolicy = ACCOUNT_POLICY) -> StoredThrottle:
    """The throttle of one account name (known or not) for every session of every server."""
    return StoredThrottle(store.engine, ACCOUNT_SCOPE, name_key(name), policy, clock)


def create_account(store: Store, name: str, password: str, role: Role, store_id: int | None,
                   actor: Supervisor | None, how: str | None = None) -> Supervisor:
    """A new account, written with its audit row (``account_made``) in one transaction.

    Raises ``NameRuleError`` for a bad name, ``AccountError`` for a bad role, store or
    password, ``NameTakenError`` when the canonical name has an account. A supervisor
    belongs to one store; an admin to none. ``how`` notes in the audit row how it was made.
    """
    name = valid_name(name)
    if role not in ROLES:
        raise AccountError("role", f"a role is one of {', '.join(ROLES)}, not {role!r}")
    if (role == "admin") != (store_id is None):
        raise AccountError("store", "a supervisor belongs to one store, an admin to none")
    check_new_password(password)
    password_hash = hasher().hash(password)
    try:
        with store.engine.begin() as conn:
            known = select(stores.c.id).where(stores.c.id == store_id)
            if store_id is not None and conn.execute(known).first() is None:
                raise AccountError("store", f"no store {store_id}")
            account_id = inserted_id(conn.execute(insert(supervisor_accounts).values(
                store_id=store_id, name=name, name_key=name_key(name), role=role, password_hash=password_hash,
                credential_version=_new_version(), created_at=utc_now())))
            made = Supervisor(account_id, name, role, store_id)
            record(conn, actor, "account_made", name, store_id,
                   {"role": role} | ({"how": how} if how else {}))
    except IntegrityError as error:
        raise NameTakenError(f"the name {name!r} is taken") from error
    return made


def has_admin(store: Store) -> bool:
    """Whether any admin account exists (disabled ones too: the bootstrap happens once)."""
    with store.engine.connect() as conn:
        return conn.execute(select(supervisor_accounts.c.id)
                            .where(supervisor_accounts.c.role == "admin").limit(1)).first() is not None


def sign_in_throttles(store: Store, name: str, address: str | None, clock: Clock = time.time) -> list[Throttle]:
    """The stored throttles a password attempt claims. Without the client's address, the
    account's (``ACCOUNT_POLICY``). With it: the account at this address (``ACCOUNT_POLICY``),
    the address across accounts, and the account as a whole (``ACCOUNT_WIDE_POLICY``) unless the
    account signed in from this address within a day."""
    if not address:
        return [account_throttle(store, name, clock)]
    key = name_key(name)
    throttles: list[Throttle] = [
        StoredThrottle(store.engine, PAIR_SCOPE, f"{key}@{address}", ACCOUNT_POLICY, clock),
        StoredThrottle(store.engine, ADDRESS_SCOPE, address, ADDRESS_POLICY, clock),
    ]
    if not remembered(store.engine, SEEN_SCOPE, f"{key}@{address}", SEEN_SECONDS, clock):
        throttles.append(account_throttle(store, name, clock, ACCOUNT_WIDE_POLICY))
    return throttles


def sign_in(store: Store, name: str, password: str, session: LoginThrottle,
            bootstrap: str | None = None, clock: Clock = time.time, address: str | None = None) -> SupervisorSignIn:
    """The account when ``name`` (any case or width) has one, enabled, whose password is
    ``password``, unless throttled; the first admin made when ``bootstrap`` (the old shared
    password) is given with the name "admin" and no admin exists yet. ``address``: the
    client's (``sign_in_throttles``)."""
    if len(name) > NAME_INPUT_MAX or len(name.strip()) > NAME_MAX or len(password) > PASSWORD_MAX:
        return SupervisorSignIn(None, too_long=True)
    throttles: Sequence[Throttle] = [session, *sign_in_throttles(store, name, address, clock)]
    found: list[tuple[Supervisor, str]] = []
    made: list[bool] = []

    def check() -> bool:
        if _bootstraps(store, name, password, bootstrap):
            try:
                create_account(store, BOOTSTRAP_NAME, password, "admin", None, None, how="shared password")
                made.append(True)
            except NameTakenError:  # made meanwhile by another session: sign in to it below
                pass
        row = account_row(store, name)
        stored = row["password_hash"] if row is not None else None
        if not _verify(stored if stored is not None else _dummy_hash(), password) or row is None:
            return False
        if row["disabled_at"] is not None or stored is None:
            return False
        if hasher().check_needs_rehash(stored):
            _set_hash(store, row["id"], hasher().hash(password), new_version=False)
        found.append((supervisor_of(row), row["credential_version"]))
        return True

    result = attempt(check, throttles)
    if found:
        supervisor, credential = found[0]
        if address:
            remember(store.engine, SEEN_SCOPE, f"{name_key(name)}@{address}", clock)
        return SupervisorSignIn(supervisor, credential=credential, bootstrapped=bool(made))
    shared = (bootstrap is not None and not result.throttled and hmac.compare_digest(
        password.encode("utf-8"), bootstrap.encode("utf-8")) and has_admin(store))
    return SupervisorSignIn(None, retry_after=result.retry_after, throttled=result.throttled, shared_password=shared)


def credential_version(store: Store, account_id: int) -> str | None:
    """The account's ``credential_version``, or None when it is disabled or gone: a session
    keeps the one it signed in with and is signed out when this differs."""
    with store.engine.connect() as conn:
        row = conn.execute(select(supervisor_accounts.c.credential_version, supervisor_accounts.c.disabled_at)
                           .where(supervisor_accounts.c.id == account_id)).one_or_none()
    if row is None or row.disabled_at is not None:
        return None
    return str(row.credential_version)


def change_password(store: Store, supervisor: Supervisor, current: str, new: str,
                    session: LoginThrottle, clock: Clock = time.time) -> bool:
    """Give the account the password ``new`` when ``current`` is its password now (throttled
    like a sign-in). Ends the account's other sessions (a new ``credential_version``).
    Raises ``AccountError`` for a bad new password, checked first."""
    check_new_password(new)
    if len(current) > PASSWORD_MAX:
        return False

    def check() -> bool:
        row = account_row(store, supervisor.name)
        stored = row["password_hash"] if row is not None and row["id"] == supervisor.id else None
        return _verify(stored if stored is not None else _dummy_hash(), current) and stored is not None

    result = attempt(check, [session, account_throttle(store, supervisor.name, clock)])
    if result.unlocked:
        set_password(store, supervisor.id, new, supervisor)
    return result.unlocked


def set_password(store: Store, account_id: int, new: str, actor: Supervisor | None = None) -> str:
    """Give the account the password ``new`` (the owner's change, ``actor``; or the command
    line's, None), recorded in the audit log (``password_changed``); its new
    ``credential_version``, which ends its other sessions."""
    check_new_password(new)
    return _set_hash(store, account_id, hasher().hash(new), new_version=True, audit=(actor,))


def disable_account(store: Store, row: Seen, actor: Supervisor | None) -> None:
    """The account ``row`` names, still as seen, signs in no more and its sessions end (an
    admin's act, or the command line's with ``actor`` None), with its audit row
    (``account_disabled``) in one transaction. ``ChangedMeanwhileError`` when the account
    changed since it was seen; the last enabled admin cannot be disabled (``AccountError``:
    nobody could manage stores after it)."""
    _admin_or_system(actor)
    with store.engine.begin() as conn:
        change_seen(conn, supervisor_accounts, row, {"disabled_at": utc_now(), "credential_version": _new_version()})
        done = supervisor_of(conn.execute(select(supervisor_accounts)
                                        .where(supervisor_accounts.c.id == row.key)).one()._mapping)
        if done.is_admin:
            enabled = (select(supervisor_accounts.c.id).where(supervisor_accounts.c.role == "admin",
                                                              supervisor_accounts.c.disabled_at.is_(None))
                       .with_for_update())  # two admins disabling each other wait for one another
            if not conn.execute(enabled).all():
                raise AccountError("last_admin", "the last admin account cannot be disabled")
        record(conn, actor, "account_disabled", done.name, done.store_id)


def enable_account(store: Store, row: Seen, actor: Supervisor | None) -> None:
    """The disabled account ``row`` names, still as seen, signs in again with its password
    or its linked sign-in (an admin's act, or the command line's), with its audit row
    (``account_enabled``) in one transaction; ``ChangedMeanwhileError`` when it changed
    since it was seen. Its sessions ended when it was disabled and stay ended."""
    _admin_or_system(actor)
    with store.engine.begin() as conn:
        change_seen(conn, supervisor_accounts, row, {"disabled_at": None})
        done = supervisor_of(conn.execute(select(supervisor_accounts)
                                        .where(supervisor_accounts.c.id == row.key)).one()._mapping)
        record(conn, actor, "account_enabled", done.name, done.store_id)


def account(store: Store, name: str) -> Account | None:
    """The account whose canonical name is ``name``'s, as it is now, or None."""
    if not name.strip():
        return None
    found = _listed(store, supervisor_accounts.c.name_key == name_key(name))
    return found[0] if found else None


def accounts(store: Store) -> list[Account]:
    """Every account, by name, with its store's name (for the admin page)."""
    return _listed(store)


def _listed(store: Store, *where: Any) -> list[Account]:
    joined = supervisor_accounts.outerjoin(stores, stores.c.id == supervisor_accounts.c.store_id)
    query = (select(supervisor_accounts, stores.c.name.label("store_name")).select_from(joined).where(*where)
             .order_by(supervisor_accounts.c.name_key))
    with store.engine.connect() as conn:
        return [Account(supervisor_of(row._mapping), row.store_name, row.disabled_at) for row in conn.execute(query)]


def _admin_or_system(actor: Supervisor | None) -> None:
    if actor is not None and not actor.is_admin:
        raise OutOfScopeError(f"{actor.name} is not an admin")


def _bootstraps(store: Store, name: str, password: str, bootstrap: str | None) -> bool:
    """Whether this sign-in makes the first admin: "admin" with the shared password, no admin yet."""
    return (bootstrap is not None and name_key(name) == BOOTSTRAP_NAME
            and hmac.compare_digest(password.encode("utf-8"), bootstrap.encode("utf-8"))
            and len(password) >= PASSWORD_MIN and not has_admin(store))


def account_row(store: Store, name: str) -> Any:
    """The row of the account whose canonical name is ``name``'s, as a mapping, or None."""
    if not name.strip():
        return None
    with store.engine.connect() as conn:
        row = conn.execute(select(supervisor_accounts)
                           .where(supervisor_accounts.c.name_key == name_key(name))).one_or_none()
    return row._mapping if row is not None else None


def supervisor_of(row: Any) -> Supervisor:
    """The account of an account row (a mapping) as a signed-in ``Supervisor``."""
    return Supervisor(row["id"], row["name"], row["role"], row["store_id"])


def _verify(stored: str, password: str) -> bool:
    try:
        return hasher().verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _set_hash(store: Store, account_id: int, password_hash: str, new_version: bool,
              audit: tuple[Supervisor | None] | None = None) -> str:
    """Store a password hash; ``audit``: (who changed it,) to record, None for a rehash."""
    version = _new_version() if new_version else None
    values: dict[str, Any] = {"password_hash": password_hash}
    if version is not None:
        values["credential_version"] = version
    with store.engine.begin() as conn:
        if not conn.execute(update(supervisor_accounts).where(supervisor_accounts.c.id == account_id)
                            .values(**values)).rowcount:
            raise AccountError("unknown", f"no account {account_id}")
        if audit is not None:
            changed_row = conn.execute(select(supervisor_accounts.c.name, supervisor_accounts.c.store_id)
                                       .where(supervisor_accounts.c.id == account_id)).one()
            record(conn, audit[0], "password_changed", changed_row.name, changed_row.store_id)
        return str(conn.execute(select(supervisor_accounts.c.credential_version)
                                .where(supervisor_accounts.c.id == account_id)).scalar_one())


def _new_version() -> str:
    return secrets.token_hex(8)


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """A hash no password is checked against on purpose: unknown names cost the same work."""
    return hasher().hash("no account has this password: " + secrets.token_hex(16))
