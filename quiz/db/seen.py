"""Acting on the row a person saw, and on no other.

A page lists rows; a person picks one and presses a button. Between the run that drew the
list and the press, another tab, server or the command line may have changed that row. An
act therefore names its target by its key and carries what the person saw of it (``Seen``:
the values of the columns their decision rests on, such as a disabled flag or a name), and
``change_seen`` changes the row only while it still holds those values, in one statement,
in the caller's transaction: otherwise ``ChangedMeanwhileError`` and nothing is changed. No
act looks a row up by its place in a list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from sqlalchemy import Table, update
from sqlalchemy.engine import Connection

from quiz.model.errors import ChangedMeanwhileError


@dataclass(frozen=True, slots=True)
class Seen:
    """One row as a person saw it: its table, its key, and the values of the columns their
    decision rests on."""

    table: str
    key: int | str
    columns: tuple[tuple[str, Any], ...]

    def value(self, column: str) -> Any:
        """What the person saw in ``column``."""
        return dict(self.columns)[column]


def seen(table: Table, key: int | str, **columns: Any) -> Seen:
    """What a person sees of the row ``key`` of ``table``: the given columns' values."""
    for name in columns:
        table.c[name]  # a column the table has (KeyError otherwise)
    return Seen(table.name, key, tuple(sorted(columns.items())))


def change_seen(conn: Connection, table: Table, row: Seen, values: Mapping[str, Any]) -> None:
    """Set ``values`` on the row ``row`` names, when it still holds what was seen of it, in
    ``conn``'s transaction; ``ChangedMeanwhileError`` (nothing changed) when it does not or
    is gone."""
    if row.table != table.name:
        raise ValueError(f"a row of {row.table} given for {table.name}")
    (key,) = table.primary_key.columns
    held = [table.c[name].is_(None) if value is None else table.c[name] == value for name, value in row.columns]
    if not conn.execute(update(table).where(key == row.key, *held).values(**values)).rowcount:
        raise ChangedMeanwhileError(f"{table.name} {row.key!r} changed since it was shown")
