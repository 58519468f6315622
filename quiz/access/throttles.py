"""Slowing down guessing: a doubling wait after each wrong attempt, a lock-out after too many,
and one attempt checked against several throttles at once.

Two kinds of throttle, with the same methods:

- ``LoginThrottle`` lives in memory: one per browser session (kept in its session state).
  It is a courtesy to the person at the keyboard, not a defence: a client resets it by opening
  a new session or sending ``BackMsg.clear_cache`` (which also empties the session's state).
- ``StoredThrottle`` lives in the database (``quiz.db.tables.login_throttles``): one per trainee
  name and one per supervisor account. Every server of a deployment shares it, and
  nothing a client sends resets it (no ``st.cache_data``/``st.cache_resource``, no process
  memory). These are the throttles that bound guessing.

An attempt first *claims* every throttle: a claim is refused while a wait or a lock-out holds,
and otherwise records a failure at once (the wait it imposes is in force before the secret is
checked). A right secret then clears the throttles. So attempts sent at the same moment from
many sessions or servers are checked one at a time, never all before the first failure counts.

Used by supervisor accounts (``quiz.access.supervisors``) and trainee PINs
(``quiz.access.accounts``).
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Callable, Protocol, Sequence

from sqlalchemy import Connection, Engine, and_, delete, insert, not_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnElement

from quiz.db.tables import THROTTLE_SUBJECT_MAX, login_throttles

Clock = Callable[[], float]
FORGET_AFTER = 24 * 3600.0  # seconds without a wrong attempt after which a throttle's failures are forgotten
CLAIM_TRIES = 3  # two servers creating the same subject's row at once: the loser tries again
SLACK = 0.001  # seconds: a wait this short is over (stored times have microseconds, clocks are floats)


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    """How a throttle answers failures.

    After a failure the wait is ``min(base * factor ** (weight - 1), ceiling)`` seconds,
    where ``weight`` counts the failures in a row. With a ``half_life``, each failure's weight
    halves every ``half_life`` seconds, so failures spread out in time stop adding up; without
    one the weight is the plain count. ``lock_after`` failures in a row lock the throttle until
    it is lifted (``StoredThrottle.lift``): no attempt is checked meanwhile, whatever the wait.
    """

    base: float = 1.0
    factor: float = 2.0
    ceiling: float = 300.0
    half_life: float | None = None
    lock_after: int | None = None

    def __post_init__(self) -> None:
        if self.base <= 0 or self.factor < 1 or self.ceiling < self.base:
            raise ValueError("need base > 0, factor >= 1 and ceiling >= base")
        if self.half_life is not None and self.half_life <= 0:
            raise ValueError("a half-life must be positive")
        if self.lock_after is not None and self.lock_after < 1:
            raise ValueError("a lock-out needs at least one failure")

    def delay(self, weight: float) -> float:
        """The wait imposed by failures of this total weight."""
        if weight <= 0:
            return 0.0
        return min(self.base * self.factor ** (weight - 1), self.ceiling)

    def weight_after(self, weight: float, quiet: float) -> float:
        """The weight once ``quiet`` seconds passed since the last failure, and one more failure."""
        if self.half_life is not None:
            weight *= 2.0 ** (-max(quiet, 0.0) / self.half_life)
        return weight + 1.0


@dataclass(frozen=True, slots=True)
class Claim:
    """A throttle's answer to an attempt.

    Refused (``wait`` > 0, or ``locked``): the secret must not be checked. Granted: a failure
    is already recorded, imposing ``delay``, and ``locks`` says whether it set off the lock-out;
    a right secret clears it (``succeed``), a refused attempt elsewhere undoes it (``cancel``).
    """

    wait: float = 0.0
    locked: bool = False
    delay: float = 0.0
    locks: bool = False
    undo: Any = field(default=None, compare=False, repr=False)

    @property
    def refused(self) -> bool:
        return self.wait > 0 or self.locked


class Throttle(Protocol):
    def claim(self) -> Claim: ...

    def cancel(self, claim: Claim) -> None: ...

    def succeed(self) -> None: ...


class LoginThrottle:
    """Exponential backoff after wrong attempts, in memory (thread-safe).

    After the ``n``-th consecutive failure, no attempt is accepted for
    ``min(base * factor ** (n - 1), ceiling)`` seconds. A success resets it.
    """

    def __init__(
        self, clock: Clock = time.monotonic, base: float = 1.0, factor: float = 2.0, ceiling: float = 300.0
    ) -> None:
        self.policy = ThrottlePolicy(base=base, factor=factor, ceiling=ceiling)
        self._clock = clock
        self.base, self.factor, self.ceiling = base, factor, ceiling
        self.failures = 0
        self._not_before = 0.0
        self._lock = threading.Lock()

    def wait(self) -> float:
        """Seconds until an attempt is accepted again (0.0 when it is accepted now)."""
        with self._lock:
            return max(0.0, self._not_before - self._clock())

    def delay_after(self, failures: int) -> float:
        """The wait imposed after ``failures`` consecutive failures."""
        return self.policy.delay(failures)

    def fail(self) -> float:
        """Record a wrong attempt; the wait it imposes."""
        with self._lock:
            return self._fail()

    def _fail(self) -> float:
        self.failures += 1
        delay = self.delay_after(self.failures)
        self._not_before = self._clock() + delay
        return delay

    def claim(self) -> Claim:
        with self._lock:
            wait = self._not_before - self._clock()
            if wait > 0:
                return Claim(wait=wait)
            undo = (self.failures, self._not_before)
            return Claim(delay=self._fail(), undo=undo)

    def cancel(self, claim: Claim) -> None:
        if claim.undo is not None:
            with self._lock:
                self.failures, self._not_before = claim.undo

    def succeed(self) -> None:
        """Record a right attempt: no more waiting."""
        with self._lock:
            self.failures = 0
            self._not_before = 0.0


@dataclass(frozen=True, slots=True)
class ThrottleState:
    """A stored throttle's row: its failures in a row, when the last was, and any lock-out."""

    failures: int
    weight: float
    last_failure_at: datetime
    not_before: datetime
    locked_at: datetime | None

    @property
    def locked(self) -> bool:
        return self.locked_at is not None


class StoredThrottle:
    """A throttle kept in the database: one row of ``login_throttles`` per (scope, subject).

    ``clock`` gives seconds since the epoch (wall time, which every server shares).
    ``keep_locks``, when given, selects the subjects whose lock-outs are kept however old
    (accounts); other locked rows are forgotten with the unlocked ones, a day after their last
    failure (made-up names).
    """

    def __init__(self, engine: Engine, scope: str, subject: str, policy: ThrottlePolicy,
                 clock: Clock = time.time, keep_locks: Select | None = None) -> None:
        self.engine, self.scope, self.policy = engine, scope, policy
        self.subject = stored_subject(subject)
        self._clock = clock
        self._keep_locks = keep_locks
        self._where = and_(login_throttles.c.scope == scope, login_throttles.c.subject == self.subject)

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self._clock(), UTC)

    def state(self) -> ThrottleState | None:
        """The row as it is, or None when nothing holds (no failure since the last success)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(*_STATE_COLUMNS).where(self._where)).one_or_none()
        return ThrottleState(**row._mapping) if row is not None else None

    def wait(self) -> float:
        """Seconds until an attempt is checked again: 0.0 now, ``math.inf`` while locked out."""
        state = self.state()
        if state is None:
            return 0.0
        if state.locked:
            return math.inf
        return max(0.0, (state.not_before - self._now()).total_seconds())

    def claim(self) -> Claim:
        for tries_left in reversed(range(CLAIM_TRIES)):
            try:
                return self._claim_once()
            except IntegrityError:  # another server made the row first: it is there now
                if not tries_left:
                    raise
        raise AssertionError("unreachable")

    def _claim_once(self) -> Claim:
        now = self._now()
        with self.engine.begin() as conn:
            # The first statement writes, so it takes the row's lock (PostgreSQL) or the database's
            # write lock (SQLite) until the commit: claims of one subject run one after another.
            touched = conn.execute(update(login_throttles).where(self._where)
                                   .values(failures=login_throttles.c.failures)).rowcount
            if not touched:
                self._forget_stale(conn, now)
                conn.execute(insert(login_throttles).values(
                    scope=self.scope, subject=self.subject, failures=0, weight=0.0,
                    last_failure_at=now, not_before=now, locked_at=None))
            row = ThrottleState(**conn.execute(select(*_STATE_COLUMNS).where(self._where)).one()._mapping)
            if row.locked:
                return Claim(locked=True)
            wait = (row.not_before - now).total_seconds()
            if wait > SLACK:
                return Claim(wait=wait)
            quiet = (now - row.last_failure_at).total_seconds()
            failures, weight = (row.failures, row.weight) if quiet < FORGET_AFTER else (0, 0.0)
            failures += 1
            weight = self.policy.weight_after(weight, quiet)
            delay = self.policy.delay(weight)
            locks = self.policy.lock_after is not None and failures >= self.policy.lock_after
            conn.execute(update(login_throttles).where(self._where).values(
                failures=failures, weight=weight, last_failure_at=now,
                not_before=now + timedelta(seconds=delay), locked_at=now if locks else None))
        return Claim(delay=delay, locks=locks, undo=(row, failures, now))

    def cancel(self, claim: Claim) -> None:
        """Undo a granted claim whose attempt was refused by another throttle (unless another
        failure was recorded meanwhile)."""
        if claim.undo is None:
            return
        before, failures, at = claim.undo
        with self.engine.begin() as conn:
            conn.execute(update(login_throttles).where(
                self._where, login_throttles.c.failures == failures, login_throttles.c.last_failure_at == at,
            ).values(failures=before.failures, weight=before.weight, last_failure_at=before.last_failure_at,
                     not_before=before.not_before, locked_at=before.locked_at))

    def succeed(self) -> None:
        """A right attempt: the subject starts afresh."""
        self.lift()

    def lift(self, conn: Connection | None = None) -> bool:
        """Forget every failure and any lock-out; whether there was anything to forget. Given a
        connection, in its transaction (a lift recorded in the audit log with it)."""
        if conn is not None:
            return bool(conn.execute(delete(login_throttles).where(self._where)).rowcount)
        with self.engine.begin() as own:
            return bool(own.execute(delete(login_throttles).where(self._where)).rowcount)

    def _forget_stale(self, conn: Any, now: datetime) -> None:
        """Delete rows a day past their last failure (not lock-outs of ``keep_locks``): run when
        a new row is made, so a flood of made-up names cannot grow the table for good."""
        table = login_throttles
        kept: ColumnElement[bool] = table.c.locked_at.is_not(None)
        if self._keep_locks is not None:
            kept = and_(kept, or_(table.c.scope != self.scope, table.c.subject.in_(self._keep_locks)))
        cutoff = now - timedelta(seconds=FORGET_AFTER)
        conn.execute(delete(table).where(table.c.last_failure_at < cutoff, not_(kept)))


def remember(engine: Engine, scope: str, subject: str, clock: Clock = time.time) -> None:
    """Note that ``subject`` succeeded now (a row of ``scope`` with no failure), for
    ``remembered``; forgotten with other quiet rows a day later."""
    now = datetime.fromtimestamp(clock(), UTC)
    where = and_(login_throttles.c.scope == scope, login_throttles.c.subject == stored_subject(subject))
    with engine.begin() as conn:
        if not conn.execute(update(login_throttles).where(where).values(last_failure_at=now)).rowcount:
            try:
                with conn.begin_nested():
                    conn.execute(insert(login_throttles).values(
                        scope=scope, subject=stored_subject(subject), failures=0, weight=0.0,
                        last_failure_at=now, not_before=now, locked_at=None))
            except IntegrityError:  # noted meanwhile by another server
                pass


def remembered(engine: Engine, scope: str, subject: str, within: float, clock: Clock = time.time) -> bool:
    """Whether ``remember`` noted ``subject`` within the last ``within`` seconds."""
    since = datetime.fromtimestamp(clock() - within, UTC)
    with engine.connect() as conn:
        return conn.execute(select(login_throttles.c.last_failure_at).where(
            login_throttles.c.scope == scope, login_throttles.c.subject == stored_subject(subject),
            login_throttles.c.last_failure_at >= since)).first() is not None


_STATE_COLUMNS = tuple(login_throttles.c[name] for name in ThrottleState.__slots__)


def stored_subject(subject: str) -> str:
    """The subject as stored: itself, or a digest of it when longer than the column."""
    if len(subject) <= THROTTLE_SUBJECT_MAX:
        return subject
    return "sha256:" + hashlib.sha256(subject.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class LoginResult:
    """The outcome of one attempt: accepted, or refused with the wait before the next one.

    ``throttled`` is true when the attempt came too early (or during a lock-out) and the secret
    was not checked; ``locked`` when a lock-out holds (set off by this attempt, or earlier);
    ``too_long`` when the input was longer than any secret and nothing was done with it.
    """

    unlocked: bool
    retry_after: float = 0.0
    throttled: bool = False
    locked: bool = False
    too_long: bool = False


def attempt(check: Callable[[], bool], throttles: Sequence[Throttle]) -> LoginResult:
    """Run ``check`` unless a throttle refuses; a right answer clears every throttle, a wrong
    one leaves the failure each claim recorded."""
    claims: list[tuple[Throttle, Claim]] = []
    for throttle in throttles:
        claim = throttle.claim()
        if claim.refused:
            for granted, earlier in reversed(claims):
                granted.cancel(earlier)
            return LoginResult(unlocked=False, retry_after=claim.wait if not claim.locked else 0.0,
                               throttled=True, locked=claim.locked)
        claims.append((throttle, claim))
    if check():
        for throttle in throttles:
            throttle.succeed()
        return LoginResult(unlocked=True)
    return LoginResult(unlocked=False, retry_after=max((c.delay for _, c in claims), default=0.0),
                       locked=any(c.locks for _, c in claims))
