"""Slowing down guessing: a doubling wait after each wrong attempt, and one attempt checked
against several throttles at once (one per browser session, one per account or process).

Used by the supervisor password (``quiz.supervisor_auth``) and trainee PINs
(``quiz.trainee_accounts``).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from quiz.lru import LruCache

Clock = Callable[[], float]


class LoginThrottle:
    """Exponential backoff after wrong attempts (thread-safe).

    After the ``n``-th consecutive failure, no attempt is accepted for
    ``min(base * factor ** (n - 1), ceiling)`` seconds. A success resets it.
    """

    def __init__(
        self, clock: Clock = time.monotonic, base: float = 1.0, factor: float = 2.0, ceiling: float = 300.0
    ) -> None:
        if base <= 0 or factor < 1 or ceiling < base:
            raise ValueError("need base > 0, factor >= 1 and ceiling >= base")
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
        if failures <= 0:
            return 0.0
        return min(self.base * self.factor ** (failures - 1), self.ceiling)

    def fail(self) -> float:
        """Record a wrong attempt; the wait it imposes."""
        with self._lock:
            self.failures += 1
            delay = self.delay_after(self.failures)
            self._not_before = self._clock() + delay
            return delay

    def succeed(self) -> None:
        """Record a right attempt: no more waiting."""
        with self._lock:
            self.failures = 0
            self._not_before = 0.0


class ThrottleBook:
    """One ``LoginThrottle`` per key (an account name), made on first use (thread-safe).

    At most ``capacity`` throttles are kept, the least recently used going first, so a
    flood of made-up names cannot fill the memory.
    """

    def __init__(self, capacity: int = 10_000, **throttle_options: Any) -> None:
        self._throttles: LruCache[str, LoginThrottle] = LruCache(capacity)
        self._options = throttle_options

    def __len__(self) -> int:
        return len(self._throttles)

    def for_key(self, key: str) -> LoginThrottle:
        return self._throttles.get_or_create(key, lambda: LoginThrottle(**self._options))


@dataclass(frozen=True, slots=True)
class LoginResult:
    """The outcome of one attempt: accepted, or refused with the wait before the next one.

    ``throttled`` is true when the attempt came too early and the secret was not checked.
    """

    unlocked: bool
    retry_after: float = 0.0
    throttled: bool = False


def attempt(check: Callable[[], bool], throttles: Sequence[LoginThrottle]) -> LoginResult:
    """Run ``check`` unless a throttle still holds; record the outcome in every throttle."""
    waiting = max((t.wait() for t in throttles), default=0.0)
    if waiting > 0:
        return LoginResult(unlocked=False, retry_after=waiting, throttled=True)
    if check():
        for throttle in throttles:
            throttle.succeed()
        return LoginResult(unlocked=True)
    delays = [throttle.fail() for throttle in throttles]
    return LoginResult(unlocked=False, retry_after=max(delays, default=0.0))
