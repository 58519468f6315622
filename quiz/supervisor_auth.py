"""The supervisor's password: where it is configured, checking it, slowing down guessing.

The password comes from ``$QUIZ_SUPERVISOR_PASSWORD`` or the Streamlit secret
``supervisor_password`` (the page reads both and hands them here). It is compared in
constant time over UTF-8 bytes. Wrong attempts are slowed by ``quiz.login.LoginThrottle``:
the page keeps one throttle per browser session and one for the whole process, so opening
new sessions does not reset the wait.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, Mapping, Sequence

from quiz.login import LoginResult, LoginThrottle, attempt

__all__ = ["LoginResult", "LoginThrottle", "attempt_login", "configured_password", "password_matches", "unlock_token"]

PASSWORD_ENV = "QUIZ_SUPERVISOR_PASSWORD"
PASSWORD_SECRET = "supervisor_password"


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


def attempt_login(given: str, expected: str, throttles: Sequence[LoginThrottle]) -> LoginResult:
    """Check ``given`` unless a throttle still holds; record the outcome in every throttle."""
    return attempt(lambda: password_matches(given, expected), throttles)
