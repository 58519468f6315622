"""Passwords and PINs hashed with the smallest costs, in every test of this process (an autouse
fixture in tests/conftest.py) but those marked ``real_hash_costs``: each hash keeps its own
parameters, so a hash made either way is still checked right, by this process or by a server
the test started (which hashes at the real costs). At the real costs one argon2 hash takes
about 0.12 s and one scrypt PIN 0.05 s: a sixth of the in-process tests' time went to them."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from quiz.access import pins, supervisors

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
CHEAP_PIN_COST = 2**8  # scrypt's N (the real one is pins.COST_N)


def cheap_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hash account passwords and PINs cheaply for the rest of the test."""
    monkeypatch.setattr(supervisors, "hasher", lambda: CHEAP)
    monkeypatch.setattr(pins, "COST_N", CHEAP_PIN_COST)
