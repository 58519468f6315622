"""Pure arithmetic of the capacity figures: percentiles, rates, ratios, rounding for JSON."""

from __future__ import annotations

import math
from typing import Iterable, Sequence


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100) by linear interpolation between closest ranks (as
    numpy's default); None for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    ordered = sorted(values)
    if not ordered:
        return None
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = math.ceil(position)
    if low == high:
        return float(ordered[low])
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values: Sequence[float], digits: int = 3) -> dict[str, float | int | None]:
    """Count, p50, p95, p99 and max of latencies in seconds."""
    return {
        "n": len(values),
        "p50": rounded(percentile(values, 50), digits),
        "p95": rounded(percentile(values, 95), digits),
        "p99": rounded(percentile(values, 99), digits),
        "max": rounded(max(values), digits) if values else None,
    }


def per_minute(count: float, seconds: float) -> float | None:
    return None if seconds <= 0 else count / seconds * 60


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(float(value), digits)


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def median(values: Iterable[float]) -> float | None:
    return percentile(list(values), 50)


def between(times: Iterable[float], start: float, end: float) -> int:
    """How many of ``times`` fall in [start, end]."""
    return sum(start <= t <= end for t in times)


def losses(acknowledged: dict[str, int], stored: dict[str, int]) -> dict[str, int]:
    """Acknowledged answers against stored rows, per trainee: ``lost`` (acknowledged, not
    stored), ``unacknowledged`` (stored, not acknowledged: answers in flight when a server
    went away, or duplicates) and the two totals."""
    names = set(acknowledged) | set(stored)
    lost = sum(max(0, acknowledged.get(n, 0) - stored.get(n, 0)) for n in names)
    extra = sum(max(0, stored.get(n, 0) - acknowledged.get(n, 0)) for n in names)
    return {
        "acknowledged": sum(acknowledged.values()),
        "stored": sum(stored.get(n, 0) for n in names),
        "lost": lost,
        "stored_unacknowledged": extra,
    }
