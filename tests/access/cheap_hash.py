"""argon2 with the smallest parameters, for tests that hash many passwords: the parameters
live in each hash, so a hash made either way is still checked right."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from quiz.access import supervisors

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


def cheap_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hash account passwords cheaply for the rest of the test."""
    monkeypatch.setattr(supervisors, "hasher", lambda: CHEAP)
