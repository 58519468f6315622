"""The audit log as a page shows it: each act, its store and its detail in the reader's
words (the stored codes, ``account_made`` or ``role=admin``, are for the database and its
CSV in ``quiz.db.audit.entries_frame``), and a search over the rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import pandas as pd

from quiz.db.audit import AuditEntry
from quiz.model.local_time import local_text
from quiz.model.words import t

COLUMNS = ("at", "actor", "action", "target", "store", "detail")
NOTHING = "—"  # a value the row does not have


def audit_table(found: Sequence[AuditEntry], language: str, store_names: Mapping[int, str], zone: str) -> pd.DataFrame:
    """One row per entry, newest first as given, every cell in ``language``; times in ``zone``."""
    return pd.DataFrame({
        "at": [local_text(entry.at, zone) for entry in found],
        "actor": [entry.actor for entry in found],
        "action": [t(f"audit.action.{entry.action}", language) for entry in found],
        "target": [entry.target for entry in found],
        "store": [t("gate.every_store", language) if entry.store_id is None
                  else store_names.get(entry.store_id, NOTHING) for entry in found],
        "detail": [detail_words(entry.detail or {}, language, zone) for entry in found],
    }, columns=list(COLUMNS))


def detail_words(detail: Mapping[str, object], language: str, zone: str) -> str:
    """An entry's detail in words: "Role: Admin (every store)", not ``role=admin``."""
    return " · ".join(f"{t(f'audit.detail.{key}', language)}: {_value(key, value, language, zone)}"
                      for key, value in detail.items())


def _value(key: str, value: object, language: str, zone: str) -> str:
    if value is None or value == "":
        return NOTHING
    if key == "role":
        return t(f"stores.role_{value}", language)
    if key == "due" and isinstance(value, str):
        try:
            return local_text(datetime.fromisoformat(value), zone)
        except ValueError:
            return value
    return str(value)


def search_rows(table: pd.DataFrame, text: str) -> pd.DataFrame:
    """The rows with ``text`` in any cell (case and width ignored: ``ａｂｃ`` finds ``abc``)."""
    wanted = _folded(text.strip())
    if not wanted:
        return table
    hit = table.astype(str).apply(lambda column: column.map(lambda cell: wanted in _folded(cell))).any(axis=1)
    return table[hit]


def _folded(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", text).casefold()
