"""Where the timed tests live: `make test`'s timed pass (scripts/test-all.sh) collects only
``TIMED_FOLDER``, and its parallel pass leaves out every test marked ``timed``, so a timed test
anywhere else would run in neither."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

TIMED_FOLDER = "tests/reliability"


def timed_strays(items: Iterable[Any]) -> list[str]:
    """The node ids of the tests marked ``timed`` outside ``TIMED_FOLDER``."""
    return [item.nodeid for item in items
            if item.get_closest_marker("timed") is not None and not item.nodeid.startswith(f"{TIMED_FOLDER}/")]
