"""CSV downloads that open safely and correctly in spreadsheet apps."""

from __future__ import annotations

import io
import unicodedata

import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The table as UTF-8 CSV with a byte-order mark (so spreadsheet apps read Japanese right).

    Text cells (and headers) that a spreadsheet could run as a formula get a leading
    apostrophe: names come from trainees and authors. See ``runs_as_formula``. Numbers are
    written as numbers, negative ones too. Rows end in CRLF (RFC 4180), so that a cell
    holding a carriage return or a line feed is quoted: an unquoted one starts a new row in
    a spreadsheet, and the text after it a new cell that nothing above has checked.
    """
    safe = frame.copy()
    for name in safe.columns:
        if safe[name].dtype == object or pd.api.types.is_string_dtype(safe[name]):
            safe[name] = safe[name].map(_defuse)
    safe.columns = [_defuse(name) for name in safe.columns]
    buffer = io.StringIO()
    safe.to_csv(buffer, index=False, lineterminator="\r\n")
    return buffer.getvalue().encode("utf-8-sig")


def runs_as_formula(text: str) -> bool:
    """Whether a spreadsheet could read ``text`` as a formula.

    It starts with ``= + - @``, a tab or a carriage return; or does so once leading
    whitespace is trimmed (importers and people trim it, and a Japanese ideographic space
    is whitespace too); or starts with a full-width or other compatibility form of
    ``= + - @`` (``＝``, ``＋``, ``－``, ``＠``), which Japanese spreadsheet input turns into
    the ASCII sign.
    """
    if text.startswith(FORMULA_STARTS):
        return True
    trimmed = text.lstrip()
    return bool(trimmed) and unicodedata.normalize("NFKC", trimmed[0]).startswith(FORMULA_STARTS)


def _defuse(value: object) -> object:
    if isinstance(value, str) and runs_as_formula(value):
        return "'" + value
    return value
