"""Waiting on a state that another thread or process brings about (a listener connecting, a
notice arriving, a backend ending): poll it, and fail with what was awaited."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 10.0, every: float = 0.01) -> None:
    """Return once ``condition()`` holds, asking every ``every`` seconds (more for a condition
    that costs its server a request); fail after ``timeout`` seconds naming ``what``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(every)
