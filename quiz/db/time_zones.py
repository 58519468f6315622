"""The time zone kept with each trainee: whose calendar days their statistics count.

A trainee's zone is first taken from their browser and can be changed; a supervisor viewing
a trainee's progress sees it in the trainee's own days.
"""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from quiz.db.store import Store
from quiz.db.tables import trainee_time_zones
from quiz.db.trainee_settings import TraineeSetting
from quiz.model.errors import TimeZoneError

DEFAULT_TIME_ZONE = "UTC"
TIME_ZONE = TraineeSetting(trainee_time_zones.c.time_zone)  # no row: none kept yet


@lru_cache(maxsize=1)
def time_zone_names() -> tuple[str, ...]:
    """Every IANA time zone name (from the tzdata package), sorted."""
    return tuple(sorted(available_timezones()))


def valid_time_zone(name: str | None) -> str | None:
    """``name`` when it is an IANA time zone, else None."""
    if not name or len(name) > 64:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def time_zone_of(store: Store, trainee_id: int) -> str | None:
    """The trainee's kept time zone, None when none is kept yet."""
    found = TIME_ZONE.read(store, trainee_id)
    return str(found) if found is not None else None


def set_time_zone(store: Store, trainee_id: int, name: str) -> str:
    """Keep ``name`` as the trainee's zone; ``TimeZoneError`` unless it is an IANA zone."""
    zone = valid_time_zone(name)
    if zone is None:
        raise TimeZoneError(f"{name[:64]!r} is not a time zone (an IANA name such as Asia/Tokyo)")
    TIME_ZONE.write(store, trainee_id, zone)
    return zone


def time_zone_for(store: Store, trainee_id: int, browser_zone: str | None) -> str:
    """The zone a trainee's figures use: the kept one; else the browser's, which is then kept;
    else UTC."""
    kept = time_zone_of(store, trainee_id)
    if kept is not None:
        return kept
    browser = valid_time_zone(browser_zone)
    if browser is None:
        return DEFAULT_TIME_ZONE
    return set_time_zone(store, trainee_id, browser)
