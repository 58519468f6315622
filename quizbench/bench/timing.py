"""Timing helpers: medians of repeated runs, and the process's peak memory."""

from __future__ import annotations

import resource
import statistics
import sys
import time
from typing import Callable


def median_seconds(action: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``repeats`` calls of ``action``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def alternating_medians(first: Callable[[], object], second: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Medians of two actions timed in turn, so both see the same machine load."""
    a, b = [], []
    for _ in range(repeats):
        for action, into in ((first, a), (second, b)):
            start = time.perf_counter()
            action()
            into.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def peak_rss_mb() -> float:
    """Peak resident memory of this process (and its waited-for children), in MiB."""
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    return own / (1024 * 1024)
