"""Store names compared as trainee names are: each store keeps its name's canonical form
(``quiz.model.names.name_key``), unique, so ``storea`` and ``ＳｔｏｒｅＡ`` are not new stores
beside ``StoreA``. Existing stores get their key, the oldest first; a later store whose key
an older one has keeps none (it goes on working, and no new store can take that key)."""

from __future__ import annotations

from sqlalchemy import Column, Index, Integer, MetaData, String, Table, select, update

from quiz.db.migrate import add_missing_columns
from quiz.model.names import NAME_KEY_MAX, name_key

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_new = MetaData()
_stores = Table(
    "stores", _new,
    Column("id", Integer, primary_key=True),
    Column("name", String(200)),
    Column("name_key", String(NAME_KEY_MAX)),
)
_index = Index("ix_stores_name_key", _stores.c.name_key, unique=True)


def upgrade() -> None:
    from alembic import op
    from sqlalchemy import inspect

    add_missing_columns("stores", [Column("name_key", String(NAME_KEY_MAX))])
    bind = op.get_bind()
    taken: set[str] = set()
    for row in bind.execute(select(_stores.c.id, _stores.c.name, _stores.c.name_key).order_by(_stores.c.id)):
        key = row.name_key or name_key(row.name)
        if key in taken:
            key = None
        else:
            taken.add(key)
        bind.execute(update(_stores).where(_stores.c.id == row.id).values(name_key=key))
    if "ix_stores_name_key" not in {index["name"] for index in inspect(bind).get_indexes("stores")}:
        _index.create(bind)
