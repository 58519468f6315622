"""Limits on requests that cost the server work or give a guesser a try: kept in the database
(``login_throttles``), so every server shares them and nothing a client sends resets them.

Each limit is a ``StoredThrottle`` whose failures' weight halves every ``half_life``: a person
at a person's pace never waits long, a client that asks without pause settles at one request
per the wait it keeps renewing. An attempt claims every throttle that applies to it (the
person's, their client address's); the first that refuses says how long to wait, and the
claims already granted are undone.

- Pack checks (the Content page, anyone signed in): parsing and checking a pack costs up to
  about a second of the server's one Python core, so a person and an address get about ten checks
  in a row and then one every 11 s; and a server checks one pack at a time
  (``one_check_at_a_time``), so several checkers wait for each other, not other sessions.
- Join codes (the sidebar's New trainee form): a code is a secret; each try costs its session
  and its address, used or not.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from quiz.access.throttles import Claim, Clock, StoredThrottle, ThrottlePolicy
from quiz.db.store import Store

PACK_CHECK_SCOPE = "pack_check"
JOIN_CODE_SCOPE = "join_code"
# Waits of 0.1, 0.2, 0.4 ... s after each check, up to 60 s, each check's weight halving every
# minute: an author checking every 15 s never waits; a client checking without pause settles
# at one check per 11 s after about ten.
PACK_CHECK_POLICY = ThrottlePolicy(base=0.1, factor=2.0, ceiling=60.0, half_life=60.0)
# Three tries without a wait, then doubling up to 5 min; forgotten at a half-life of 10 min.
JOIN_CODE_POLICY = ThrottlePolicy(base=0.25, factor=2.0, ceiling=300.0, half_life=600.0)
CHECK_QUEUE_SECONDS = 30.0  # how long a check waits for the one running before giving up

_checking = threading.Lock()


@dataclass(frozen=True, slots=True)
class WorkClaim:
    """Whether a request may go ahead now; else the seconds to wait."""

    wait: float = 0.0

    @property
    def granted(self) -> bool:
        return self.wait <= 0


def claim(store: Store, scope: str, policy: ThrottlePolicy, subjects: list[str | None],
          clock: Clock = time.time) -> WorkClaim:
    """Claim one request of ``scope`` for every subject given (None: not counted)."""
    granted: list[tuple[StoredThrottle, Claim]] = []
    for subject in subjects:
        if subject is None:
            continue
        throttle = StoredThrottle(store.engine, scope, subject, policy, clock)
        answer = throttle.claim()
        if answer.refused:
            for earlier, earlier_claim in reversed(granted):
                earlier.cancel(earlier_claim)
            return WorkClaim(wait=answer.wait)
        granted.append((throttle, answer))
    return WorkClaim()


def claim_pack_check(store: Store, person: str, address: str | None, clock: Clock = time.time) -> WorkClaim:
    """A pack check for ``person`` (``trainee:<id>`` or ``supervisor:<id>``) from ``address``."""
    return claim(store, PACK_CHECK_SCOPE, PACK_CHECK_POLICY,
                 [person, f"address:{address}" if address else None], clock)


def claim_join_code(store: Store, session: str, address: str | None, clock: Clock = time.time) -> WorkClaim:
    """A try of a join code from the browser session ``session`` and ``address``."""
    return claim(store, JOIN_CODE_SCOPE, JOIN_CODE_POLICY,
                 [f"session:{session}", f"address:{address}" if address else None], clock)


@contextmanager
def one_check_at_a_time(timeout: float = CHECK_QUEUE_SECONDS) -> Iterator[bool]:
    """Whether this server's one pack check slot was had within ``timeout``; held inside."""
    had = _checking.acquire(timeout=timeout)
    try:
        yield had
    finally:
        if had:
            _checking.release()
