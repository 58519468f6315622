"""The supervisor's password: where it is configured, checking it, slowing down guessing.

The password comes from ``$QUIZ_SUPERVISOR_PASSWORD`` or the Streamlit secret
``supervisor_password`` (the page reads both and hands them here). It is compared in
constant time over UTF-8 bytes. Wrong attempts are slowed by ``LoginThrottle``: after each
failure the next attempt is refused for a delay that doubles with every further failure.
The page keeps one throttle per browser session and one for the whole process, so opening
new sessions does not reset the wait.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

PASSWORD_ENV = "QUIZ_SUPERVISOR_PASSWORD"
PASSWORD_SECRET = "supervisor_password"

Clock = Callable[[], float]


def configured_password(environ: Mapping[str, str], secrets: Mapping[str, Any]) -> str | None:
    """The password from the environment, else from the secrets; None when neither sets one.

    A blank value counts as not configured, so an empty variable never opens the page.
    """
    for value in (environ.get(PASSWORD_ENV), secrets.get(PASSWORD_SECRET)):
        if isinstance(value, str) and value.strip():
            return value
    return None


def password_matches(given: str, expected: str) -> bool:
    """Whether ``given`` equals ``expected``, compared in constant time over UTF-8 bytes."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def unlock_token(expected: str) -> str:
    """What a session keeps once unlocked: changing the password locks every session again."""
    return hashlib.sha256(b"quiz-supervisor:" + expected.encode("utf-8")).hexdigest()


class LoginThrottle:
    """Exponential backoff after wrong passwords (thread-safe).

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


@dataclass(frozen=True, slots=True)
class LoginResult:
    """The outcome of one attempt: unlocked, or refused with the wait before the next one.

    ``throttled`` is true when the attempt came too early and the password was not checked.
    """

    unlocked: bool
    retry_after: float = 0.0
    throttled: bool = False


def attempt_login(given: str, expected: str, throttles: Sequence[LoginThrottle]) -> LoginResult:
    """Check ``given`` unless a throttle still holds; record the outcome in every throttle."""
    waiting = max((t.wait() for t in throttles), default=0.0)
    if waiting > 0:
        return LoginResult(unlocked=False, retry_after=waiting, throttled=True)
    if password_matches(given, expected):
        for throttle in throttles:
            throttle.succeed()
        return LoginResult(unlocked=True)
    delays = [throttle.fail() for throttle in throttles]
    return LoginResult(unlocked=False, retry_after=max(delays, default=0.0))
