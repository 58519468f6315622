"""CSV downloads that open safely and correctly in spreadsheet apps."""

from __future__ import annotations

import io

import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The table as UTF-8 CSV with a byte-order mark (so spreadsheet apps read Japanese right).

    Text cells that a spreadsheet would run as a formula (starting with ``= + - @``, a tab
    or a carriage return) get a leading apostrophe: names come from trainees and authors.
    """
    safe = frame.copy()
    for name in safe.columns:
        if safe[name].dtype == object or pd.api.types.is_string_dtype(safe[name]):
            safe[name] = safe[name].map(_defuse)
    buffer = io.StringIO()
    safe.to_csv(buffer, index=False)
    return buffer.getvalue().encode("utf-8-sig")


def _defuse(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
