"""Trainee accounts: adding a trainee with a PIN, signing in, setting a new PIN, lock-outs.

A name is found by its canonical form (``quiz.model.names.name_key``: NFKC, case-folded, spaces
collapsed), so "Alice", "ALICE" and "Ａlice" are one account, and a new trainee whose
canonical name is taken is refused. Signing in answers alike for an unknown name and a wrong
PIN (same message, same work: an unknown name is checked against a dummy hash, and is
throttled and locked out the same way), so the form does not reveal who has an account.

Wrong attempts are throttled in the database (every session of every server shares them, no
client can reset them): per canonical name (``NameThrottles``: the wait doubles from 1 s up
to 60 s, each failure's weight halving every 10 minutes) and per client address across names
(``ADDRESS_POLICY``, up to 5 minutes); and per browser session (the caller's
``LoginThrottle``). Nothing locks a name: a guesser who knows it slows its owner down by at
most the name's wait, and not at all on a device the owner signed in on (its device token,
even signed out or expired, ``KNOWN_DEVICE_DAYS``): there the device's own throttle replaces
the name's and the address's. Names locked before (``LOCK_AFTER`` wrong PINs, as it was) stay
locked until a supervisor lifts them (``lift_lockout``, or a new PIN with ``set_pin``).
Input longer than any name or PIN is refused before any hashing or query.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from quiz.access.pins import PIN_INPUT_MAX, check_new_pin, hash_pin, pin_matches
from quiz.access.scope import Supervisor
from quiz.access.stores import redeem_on
from quiz.access.throttles import (
    Clock,
    LoginResult,
    LoginThrottle,
    StoredThrottle,
    Throttle,
    ThrottlePolicy,
    attempt,
)
from quiz.db.answers import WriteGuard
from quiz.db.assignments import assignments_joined
from quiz.db.audit import record
from quiz.db.scoped import refuse_unseen
from quiz.db.store import Store, Trainee
from quiz.db.tables import trainee_devices, trainee_name_keys, trainee_pins, trainees
from quiz.model.attempt import utc_now
from quiz.model.errors import CredentialChangedError, NameTakenError
from quiz.model.names import NAME_INPUT_MAX, NAME_MAX, name_key, valid_name

DEVICE_TOKEN_MAX = 100  # characters of a device token (quiz.access.device_tokens.TOKEN_MAX)
CREDENTIALS = "quiz_credentials"  # the channel set_pin notifies on (quiz.db.watches)
NAME_CEILING = 60.0  # per name, across sessions and servers: the longest wait between two guesses
LOCK_AFTER = 10  # wrong PINs in a row that locked a name, before; a lock of then holds until lifted
PIN_SCOPE = "pin"
PIN_ADDRESS_SCOPE = "pin_address"
PIN_DEVICE_SCOPE = "pin_device"
NAME_HALF_LIFE = 600.0  # seconds: a failure's weight halves in this time
NAME_POLICY = ThrottlePolicy(base=1.0, factor=2.0, ceiling=NAME_CEILING, half_life=NAME_HALF_LIFE)
# Per client address, across every name it tries: a guesser going through names is held here.
ADDRESS_POLICY = ThrottlePolicy(base=1.0, factor=2.0, ceiling=300.0, half_life=NAME_HALF_LIFE)
KNOWN_DEVICE_DAYS = 90  # a device token this young marks the device as its trainee's


@dataclass(frozen=True, slots=True)
class SignIn:
    """The outcome of a sign-in: the trainee, or None with the wait before the next try.

    ``locked``: the name is locked out (only a supervisor lifts it); ``too_long``: the name or
    PIN was longer than any can be, and nothing was checked. ``credential`` is the trainee's
    ``credential_version`` when signed in, for noticing a PIN changed elsewhere.
    """

    trainee: Trainee | None
    retry_after: float = 0.0
    throttled: bool = False
    locked: bool = False
    too_long: bool = False
    credential: str | None = None


@dataclass(frozen=True, slots=True)
class Lockout:
    """A trainee's name locked after ``failures`` wrong PINs in a row, since ``locked_at``."""

    failures: int
    locked_at: datetime


class NameThrottles:
    """The per-name throttles: rows of the database, made on first use (``for_key``)."""

    def __init__(self, policy: ThrottlePolicy = NAME_POLICY, clock: Clock = time.time) -> None:
        self.policy, self.clock = policy, clock

    def for_key(self, store: Store, key: str) -> StoredThrottle:
        """The throttle of a canonical name (``throttle_key``) on ``store``'s database."""
        return StoredThrottle(store.engine, PIN_SCOPE, key, self.policy, self.clock,
                              keep_locks=select(trainee_name_keys.c.name_key))

    def for_address(self, store: Store, address: str) -> StoredThrottle:
        """The throttle of a client address, across every name tried from it."""
        return StoredThrottle(store.engine, PIN_ADDRESS_SCOPE, address, ADDRESS_POLICY, self.clock)

    def for_device(self, store: Store, device_id: int) -> StoredThrottle:
        """The throttle of one trainee's known device (its token's row)."""
        return StoredThrottle(store.engine, PIN_DEVICE_SCOPE, str(device_id), self.policy, self.clock)

    def for_attempt(self, store: Store, name: str, address: str | None, device_token: str | None) -> list[Throttle]:
        """The stored throttles an attempt at ``name`` claims: the device's alone on a device
        the name's trainee signed in on; else the name's and the address's (when known)."""
        device_id = known_device(store, name, device_token, self.clock())
        if device_id is not None:
            return [self.for_device(store, device_id)]
        throttles: list[Throttle] = [self.for_key(store, throttle_key(name))]
        if address:
            throttles.append(self.for_address(store, address))
        return throttles


def name_throttles(clock: Clock = time.time) -> NameThrottles:
    """The per-name throttles (their state is in each store's database, not in this object)."""
    return NameThrottles(clock=clock)


def throttle_key(name: str) -> str:
    """The key a name is throttled under: its canonical form, the same as its account's."""
    return name_key(name)


def add_trainee(store: Store, name: str, pin: str, join_code: str | None = None) -> Trainee:
    """A new trainee with that name and PIN, both written in one transaction, in the store of
    ``join_code`` when one is given (``JoinCodeError`` for a code not usable: no trainee is
    added); without one, a self-study player.

    Raises ``NameRuleError`` (a ValueError) for a bad name, ``PinRuleError`` for a bad or weak
    PIN, both before any hashing, and ``NameTakenError`` when the name, or its canonical form,
    already has an account. A throttle left on the name by guesses at it is forgotten.
    """
    name = valid_name(name)
    check_new_pin(pin)
    pin_hash = hash_pin(pin)
    try:
        with store.engine.begin() as conn:
            trainee_id = store.insert_trainee(conn, name)
            conn.execute(insert(trainee_pins).values(trainee_id=trainee_id, pin_hash=pin_hash, updated_at=utc_now()))
            if join_code:
                redeem_on(store, conn, trainee_id, join_code, utc_now())
    except IntegrityError as error:
        raise NameTakenError(f"the name {name!r} is taken") from error
    if join_code:
        assignments_joined(store)
    name_throttles().for_key(store, throttle_key(name)).lift()
    found = store.find_trainee(name)
    assert found is not None
    return found


def set_pin(store: Store, trainee_id: int, pin: str, actor: Supervisor | None) -> None:
    """Give the trainee a new PIN (replacing any old one): a supervisor's reset (``actor``),
    or the server's ``set-pin`` (None), recorded in the audit log (``pin_reset``) in the same
    transaction. Lifts any lock-out of the name, and ends the trainee's other signed-in
    sessions (their ``credential_version`` changes). Raises ``PinRuleError`` for a bad or
    weak PIN, ``OutOfScopeError`` for a trainee ``actor`` does not see."""
    _refuse_unseen(store, actor, trainee_id)
    _replace_pin(store, trainee_id, pin, actor, audited=True)


def _replace_pin(store: Store, trainee_id: int, pin: str, actor: Supervisor | None, audited: bool) -> None:
    """The new PIN's hash stored, the name's lock-out lifted and, when ``audited``, the audit
    row written, in one transaction; every server told the credential changed."""
    check_new_pin(pin)
    pin_hash = hash_pin(pin)
    trainee = _trainee(store, trainee_id)
    with store.engine.begin() as conn:
        conn.execute(delete(trainee_pins).where(trainee_pins.c.trainee_id == trainee_id))
        conn.execute(insert(trainee_pins).values(trainee_id=trainee_id, pin_hash=pin_hash, updated_at=utc_now()))
        if trainee is not None:
            name_throttles().for_key(store, throttle_key(trainee.name)).lift(conn)
            if audited:
                record(conn, actor, "pin_reset", trainee.name, trainee.store_id)
        store.watches.notify(conn, CREDENTIALS, trainee_id)  # every server's kept credential_version, at commit
    store.watches.changed(CREDENTIALS, trainee_id)  # this server's at once


def has_pin(store: Store, trainee_id: int) -> bool:
    with store.engine.connect() as conn:
        found = conn.execute(select(trainee_pins.c.trainee_id).where(trainee_pins.c.trainee_id == trainee_id))
        return found.first() is not None


# Built once: every page run checks the PIN, and building a statement cost as much as running it.
_PIN_HASH_OF = select(trainee_pins.c.pin_hash).where(trainee_pins.c.trainee_id == bindparam("trainee_id"))


def credential_version(store: Store, trainee_id: int) -> str | None:
    """A short digest of the trainee's stored PIN hash (a fresh salt each time one is set), or
    None without a PIN: a signed-in session keeps it and is signed out when it changes.

    One primary-key lookup, kept in the server's memory while the database says the PIN did
    not change (``quiz.db.watches``: on PostgreSQL ``set_pin`` notifies every server at its
    commit, and this process at once; on SQLite any commit forgets it), so the PIN check of
    a click costs no query."""

    def read() -> str | None:
        with store.reads.connect() as conn:
            return _credential_version_on(conn, trainee_id)

    return store.watches.kept(CREDENTIALS).get(trainee_id, read)


def credential_guard(store: Store, trainee_id: int, signed_in_with: str | None) -> WriteGuard:
    """A write guard (``quiz.db.submissions.submit_answer``): on the connection that stores an
    answer, just before it is stored, it refuses with ``CredentialChangedError`` unless the
    trainee's credential is still ``signed_in_with``. So the PIN check of the click that gives
    an answer costs no connection of its own, and no answer is stored once the PIN change is
    known: read on that connection, or (on PostgreSQL) kept as ``credential_version`` keeps
    it, which a change made on another server reaches with its notice, milliseconds after its
    commit."""

    def guard(conn: Connection) -> None:
        current = store.watches.kept(CREDENTIALS).get(trainee_id, lambda: _credential_version_on(conn, trainee_id))
        if current != signed_in_with:
            raise CredentialChangedError(f"trainee {trainee_id}'s PIN changed since this session signed in")

    return guard


def _credential_version_on(conn: Connection, trainee_id: int) -> str | None:
    return _version(conn.execute(_PIN_HASH_OF, {"trainee_id": trainee_id}).scalar())


def _version(pin_hash: str | None) -> str | None:
    return None if pin_hash is None else hashlib.sha256(pin_hash.encode("utf-8")).hexdigest()[:16]


def sign_in(store: Store, name: str, pin: str, names: NameThrottles, session: LoginThrottle,
            address: str | None = None, device_token: str | None = None) -> SignIn:
    """The trainee when ``name`` (in any case or width) has an account whose PIN is ``pin``,
    unless throttled (or locked out, a lock made before locks ended). ``address``: the
    client's; ``device_token``: the token in the device's cookie, if any.

    A trainee without a PIN (made before PINs existed) cannot sign in until a supervisor
    sets one: an empty PIN must never open an account.
    """
    if _too_long(name, pin):
        return SignIn(None, too_long=True)
    found: list[tuple[Trainee, str]] = []

    def check() -> bool:
        trainee, stored = _account(store, name)
        matched = pin_matches(pin, stored if stored is not None else _dummy_hash())
        if matched and trainee is not None and stored is not None:
            found.append((trainee, stored))
            return True
        return False

    result = attempt(check, [session, *names.for_attempt(store, name, address, device_token)])
    if found:
        trainee, stored = found[0]
        return SignIn(trainee, credential=_version(stored))
    return SignIn(None, result.retry_after, result.throttled, result.locked)


def change_pin(store: Store, trainee: Trainee, current: str, new: str, names: NameThrottles,
               session: LoginThrottle, address: str | None = None, device_token: str | None = None) -> LoginResult:
    """Give ``trainee`` the PIN ``new`` when ``current`` is their PIN now (throttled like a
    sign-in, under the same name). Raises ``PinRuleError`` for a bad or weak new PIN, checked
    first; a ``current`` longer than any PIN is refused unchecked (``too_long``)."""
    check_new_pin(new)
    if len(current) > PIN_INPUT_MAX:
        return LoginResult(unlocked=False, too_long=True)

    def check() -> bool:
        with store.engine.connect() as conn:
            stored = conn.execute(select(trainee_pins.c.pin_hash)
                                  .where(trainee_pins.c.trainee_id == trainee.id)).scalar()
        matched = pin_matches(current, stored if stored is not None else _dummy_hash())
        return matched and stored is not None

    result = attempt(check, [session, *names.for_attempt(store, trainee.name, address, device_token)])
    if result.unlocked:
        _replace_pin(store, trainee.id, new, None, audited=False)  # the trainee's own change: not audited
    return result


def lockout_of(store: Store, trainee_id: int, names: NameThrottles | None = None) -> Lockout | None:
    """The lock-out of the trainee's name, or None when they can sign in (for the Team page)."""
    trainee = _trainee(store, trainee_id)
    if trainee is None:
        return None
    state = (names or name_throttles()).for_key(store, throttle_key(trainee.name)).state()
    if state is None or state.locked_at is None:
        return None
    return Lockout(state.failures, state.locked_at)


def lift_lockout(store: Store, trainee_id: int, actor: Supervisor, names: NameThrottles | None = None) -> bool:
    """Let the trainee sign in again after a lock-out (a supervisor's decision): forgets the
    name's wrong PINs and its lock, recorded in the audit log (``lock_lifted``) in the same
    transaction. Whether there was anything to lift (nothing is recorded otherwise).
    ``OutOfScopeError`` for a trainee ``actor`` does not see."""
    _refuse_unseen(store, actor, trainee_id)
    trainee = _trainee(store, trainee_id)
    if trainee is None:
        return False
    with store.engine.begin() as conn:
        lifted = (names or name_throttles()).for_key(store, throttle_key(trainee.name)).lift(conn)
        if lifted:
            record(conn, actor, "lock_lifted", trainee.name, trainee.store_id)
    return lifted


def _too_long(name: str, pin: str) -> bool:
    """Whether the input is longer than any name or PIN can be (checked before any work)."""
    return len(name) > NAME_INPUT_MAX or len(name.strip()) > NAME_MAX or len(pin) > PIN_INPUT_MAX


def _refuse_unseen(store: Store, actor: Supervisor | None, trainee_id: int) -> None:
    """A supervisor's action on a trainee of a store they do not see is refused (``actor``
    None: the server's console, every store)."""
    if actor is not None:
        with store.engine.connect() as conn:
            refuse_unseen(conn, actor.scope(), trainee_id)


def _trainee(store: Store, trainee_id: int) -> Trainee | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(trainees).where(trainees.c.id == trainee_id)).one_or_none()
    return Trainee(**row._mapping) if row is not None else None


def _account(store: Store, name: str) -> tuple[Trainee | None, str | None]:
    """The trainee of that name (``Store.find_trainee``) and their stored PIN hash (either may
    be None)."""
    trainee = store.find_trainee(name)
    if trainee is None:
        return None, None
    with store.engine.connect() as conn:
        stored = conn.execute(select(trainee_pins.c.pin_hash).where(trainee_pins.c.trainee_id == trainee.id)).scalar()
    return trainee, stored


def known_device(store: Store, name: str, token: str | None, now: float) -> int | None:
    """The row id of ``token`` when it is a device token of the trainee named ``name``, issued
    within ``KNOWN_DEVICE_DAYS`` (signed out, expired or under an older PIN: it still says
    the trainee signed in on this device); else None."""
    if not token or len(token) > DEVICE_TOKEN_MAX or "." not in token:
        return None
    row_id, _, secret = token.partition(".")
    if not row_id.isascii() or not row_id.isdigit() or len(row_id) > 18 or not secret:
        return None
    with store.engine.connect() as conn:
        row = conn.execute(select(trainee_devices.c.secret_digest, trainee_devices.c.created_at,
                                  trainee_name_keys.c.name_key)
                           .join(trainee_name_keys, trainee_name_keys.c.trainee_id == trainee_devices.c.trainee_id)
                           .where(trainee_devices.c.id == int(row_id))).first()
    digest = hashlib.sha256(secret.encode("utf-8")).hexdigest()
    if row is None or not hmac.compare_digest(row.secret_digest, digest) or row.name_key != name_key(name):
        return None
    if row.created_at < datetime.fromtimestamp(now, UTC) - timedelta(days=KNOWN_DEVICE_DAYS):
        return None
    return int(row_id)


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """A hash no PIN is checked against on purpose: unknown names cost the same work."""
    return hash_pin("no account has this PIN: " + "x" * 16)
