"""The supervisor's password: where it is configured, checking it, slowing down guessing.

The password comes from ``$QUIZ_SUPERVISOR_PASSWORD`` or the Streamlit secret
``supervisor_password`` (the page reads both and hands them here). It is compared in
constant time over UTF-8 bytes; a guess longer than ``PASSWORD_MAX`` is refused unread.

Wrong attempts are slowed by two throttles (``quiz.access.throttles``): one per browser session, and
``supervisor_throttle``, kept in the database, which every server shares and no client can
reset. Its failures fade (``SUPERVISOR_POLICY``: half-life 30 s), so a slow guesser cannot
keep the real supervisor out: a guess every 30 s holds the page for about 2 s of each 30,
where a plain doubling wait up to 30 s held it for good. The arithmetic is in
docs/RELIABILITY.md ("Accounts, throttles and names").
"""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from quiz.access.throttles import Clock, LoginResult, LoginThrottle, StoredThrottle, Throttle, ThrottlePolicy, attempt

if TYPE_CHECKING:
    from quiz.db.store import Store

__all__ = ["LoginResult", "LoginThrottle", "PASSWORD_MAX", "SUPERVISOR_POLICY", "attempt_login", "configured_password",
           "password_matches", "supervisor_throttle", "unlock_token"]

PASSWORD_ENV = "QUIZ_SUPERVISOR_PASSWORD"
PASSWORD_SECRET = "supervisor_password"
PASSWORD_MAX = 200  # characters: a longer guess is refused without being compared (the form's limit too)
SUPERVISOR_SCOPE = "supervisor"
# Every session together: doubling from 1 s up to 30 s, each failure's weight halving every 30 s.
SUPERVISOR_POLICY = ThrottlePolicy(base=1.0, factor=2.0, ceiling=30.0, half_life=30.0)


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


def supervisor_throttle(
    store: Store, clock: Clock = time.time, policy: ThrottlePolicy = SUPERVISOR_POLICY
) -> StoredThrottle:
    """The throttle of the supervisor password for every session of every server on ``store``."""
    return StoredThrottle(store.engine, SUPERVISOR_SCOPE, "", policy, clock)


def attempt_login(given: str, expected: str, throttles: Sequence[Throttle]) -> LoginResult:
    """Check ``given`` unless a throttle still holds; record the outcome in every throttle.
    A guess longer than ``PASSWORD_MAX`` is refused at once: not compared, not counted."""
    if len(given) > PASSWORD_MAX:
        return LoginResult(unlocked=False, too_long=True)
    return attempt(lambda: password_matches(given, expected), throttles)
