"""Times as a person reads them: in their own time zone, to the minute.

Times are stored in UTC. Whoever looks at one (a trainee at UTC+9, a supervisor in their
browser's zone) reads it in a zone: ``zone`` is an IANA name such as ``Asia/Tokyo``.
A time without a zone (as SQLite gives them back) is taken to be UTC.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

if TYPE_CHECKING:  # the practice page loads without pandas (tests/ui/test_practice_imports.py)
    import pandas as pd

TIME_FORMAT = "%Y-%m-%d %H:%M"


def local_time(when: dt.datetime, zone: str) -> dt.datetime:
    """``when`` in ``zone`` (a naive ``when`` is UTC)."""
    aware = when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)
    return aware.astimezone(ZoneInfo(zone))


def local_text(when: dt.datetime | None, zone: str) -> str:
    """``when`` as "YYYY-MM-DD HH:MM" in ``zone``; "" for no time."""
    return "" if when is None else local_time(when, zone).strftime(TIME_FORMAT)


def local_texts(times: pd.Series, zone: str) -> pd.Series:
    """A column of times as "YYYY-MM-DD HH:MM" in ``zone`` (missing times stay missing)."""
    import pandas as pd
    moments = pd.to_datetime(times)
    if moments.dt.tz is None:
        moments = moments.dt.tz_localize("UTC")
    return moments.dt.tz_convert(zone).dt.strftime(TIME_FORMAT)
