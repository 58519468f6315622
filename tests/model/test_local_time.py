"""Times read in the reader's zone: a Tokyo trainee's 08:30 is not yesterday's 23:30 UTC."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from quiz.model.local_time import local_text, local_texts

MORNING_IN_TOKYO = dt.datetime(2026, 11, 30, 23, 30, tzinfo=dt.UTC)  # 08:30 on 1 December at UTC+9


def test_a_utc_time_is_read_in_the_given_zone() -> None:
    assert local_text(MORNING_IN_TOKYO, "Asia/Tokyo") == "2026-12-01 08:30"
    assert local_text(MORNING_IN_TOKYO, "UTC") == "2026-11-30 23:30"
    assert local_text(MORNING_IN_TOKYO, "America/New_York") == "2026-11-30 18:30"


def test_a_time_without_a_zone_is_utc_and_no_time_is_empty() -> None:
    assert local_text(MORNING_IN_TOKYO.replace(tzinfo=None), "Asia/Tokyo") == "2026-12-01 08:30"
    assert local_text(None, "Asia/Tokyo") == ""


def test_a_column_of_times_naive_or_aware() -> None:
    aware = pd.Series([MORNING_IN_TOKYO, MORNING_IN_TOKYO + dt.timedelta(hours=1)])
    naive = pd.Series([MORNING_IN_TOKYO.replace(tzinfo=None)])
    assert list(local_texts(aware, "Asia/Tokyo")) == ["2026-12-01 08:30", "2026-12-01 09:30"]
    assert list(local_texts(naive, "Asia/Tokyo")) == ["2026-12-01 08:30"]
