"""Stores and accounts: a store owns its trainees, supervisors (argon2 passwords, roles),
join codes, an audit log, onboarding assignments and content packs kept in the database;
the games each trainee studies, and the devices they stay signed in on.

A deployment from before stores becomes one store: every trainee joins it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from alembic import op
from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    inspect,
    select,
    update,
)

from quiz.db.migrate import create_missing

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

FIRST_STORE = "Store 1"  # an admin renames it
_AT = DateTime(timezone=True)
_NAME = 60
_KEY = 200
_new = MetaData()
_trainees = Table("trainees", _new, Column("id", Integer, primary_key=True), Column("store_id", Integer))
_problem_reports = Table("problem_reports", _new, Column("id", Integer, primary_key=True),
                         Column("trainee_id", Integer), Column("created_at", _AT))
_stores, *_rest = (
    Table(
        "stores",
        _new,
        Column("id", Integer, primary_key=True),
        Column("name", String(_NAME), nullable=False, unique=True),
        Column("created_at", _AT, nullable=False),
    ),

    Table(
        "supervisor_accounts",
        _new,
        Column("id", Integer, primary_key=True),
        Column("store_id", Integer, ForeignKey("stores.id")),  # None for an admin of every store
        Column("name", String(_NAME), nullable=False),
        Column("name_key", String(_KEY), nullable=False, unique=True),  # quiz.model.names.name_key
        Column("role", String(16), nullable=False),  # "supervisor" (their store) or "admin" (every store)
        Column("password_hash", String(200)),  # argon2id; None: signs in only through OpenID Connect
        Column("oidc_subject", String(255), unique=True),  # "<issuer> <sub>" of a linked OpenID Connect login
        Column("credential_version", String(32), nullable=False),  # changes with the password: sessions end
        Column("created_at", _AT, nullable=False),
        Column("disabled_at", _AT),
    ),

    Table(
        "join_codes",
        _new,
        Column("code", String(32), primary_key=True),
        Column("store_id", Integer, ForeignKey("stores.id"), nullable=False),
        Column("created_by", Integer, ForeignKey("supervisor_accounts.id")),
        Column("created_at", _AT, nullable=False),
        Column("expires_at", _AT, nullable=False),
        Column("revoked_at", _AT),
        Column("uses", Integer, nullable=False),
    ),

    Table(
        "audit_log",
        _new,
        Column("id", Integer, primary_key=True),
        Column("at", _AT, nullable=False),
        Column("account_id", Integer, ForeignKey("supervisor_accounts.id")),  # None: the system (a CLI, a migration)
        Column("actor", String(_NAME), nullable=False),  # the account's name then, kept if it is renamed
        Column("store_id", Integer, ForeignKey("stores.id")),  # the store acted in; None: every store
        Column("action", String(32), nullable=False),
        Column("target", String(200), nullable=False),  # a trainee's name, a pack, a report's id, ...
        Column("detail", JSON),
        Index("ix_audit_log_store_at", "store_id", "at"),
    ),

    Table(
        "assignments",
        _new,
        Column("id", Integer, primary_key=True),
        Column("store_id", Integer, ForeignKey("stores.id"), nullable=False),
        Column("created_by", Integer, ForeignKey("supervisor_accounts.id")),
        Column("created_at", _AT, nullable=False),
        Column("title", String(200), nullable=False),
        Column("plan", JSON, nullable=False),  # what to do: quiz.training.assignments.Plan.stored()
        Column("due", _AT, nullable=False),
        Column("archived_at", _AT),
        Index("ix_assignments_store_due", "store_id", "due"),
    ),

    Table(
        "assignment_members",
        _new,
        Column("assignment_id", Integer, ForeignKey("assignments.id"), primary_key=True, autoincrement=False),
        Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
        Column("completed_at", _AT),  # when the plan was first found done
        Index("ix_assignment_members_trainee", "trainee_id"),
    ),

    Table(
        "content_packs",
        _new,
        Column("id", Integer, primary_key=True),
        Column("name", String(64), nullable=False, unique=True),
        Column("store_id", Integer, ForeignKey("stores.id")),  # None: every store's trainees draw it
        Column("imported_at", _AT, nullable=False),
        Column("imported_by", Integer, ForeignKey("supervisor_accounts.id")),
        Column("removed_at", _AT),
    ),

    Table(
        "content_pack_files",
        _new,
        Column("pack_id", Integer, ForeignKey("content_packs.id"), primary_key=True, autoincrement=False),
        Column("path", String(255), primary_key=True),  # <ruleset id>/<file>.yaml, as staged
        Column("text", Text, nullable=False),
    ),

    Table(
        "content_pack_cards",
        _new,
        Column("card_id", String(120), primary_key=True),
        Column("pack_id", Integer, ForeignKey("content_packs.id"), nullable=False),
        Index("ix_content_pack_cards_pack", "pack_id"),
    ),

    Table(
        "trainee_games",
        _new,
        Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
        Column("rulesets", JSON, nullable=False),
        Column("updated_at", _AT, nullable=False),
    ),

    Table(
        "trainee_devices",
        _new,
        Column("id", Integer, primary_key=True),
        Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
        Column("secret_digest", String(64), nullable=False),
        Column("credential_version", String(32), nullable=False),
        Column("created_at", _AT, nullable=False),
        Column("expires_at", _AT, nullable=False),
        Column("revoked_at", _AT),
        Index("ix_trainee_devices_trainee", "trainee_id"),
    ),
)


def upgrade() -> None:
    create_missing((_stores,))
    if "store_id" not in {column["name"] for column in inspect(op.get_bind()).get_columns("trainees")}:
        if op.get_bind().dialect.name == "sqlite":  # adds a column's foreign key only with the column
            op.execute("ALTER TABLE trainees ADD COLUMN store_id INTEGER REFERENCES stores (id)")
        else:
            op.add_column("trainees", Column("store_id", Integer))
            op.create_foreign_key("trainees_store_id_fkey", "trainees", "stores", ["store_id"], ["id"])
    create_missing(_rest)
    index = Index("ix_trainees_store", _trainees.c.store_id)
    index.create(op.get_bind(), checkfirst=True)
    # a trainee's reports of the last day, counted by each report filed (quiz.db.problem_reports)
    Index("ix_problem_reports_trainee_created", _problem_reports.c.trainee_id,
          _problem_reports.c.created_at).create(op.get_bind(), checkfirst=True)
    _one_store_for_everyone()


def _one_store_for_everyone() -> None:
    """An existing deployment becomes one store, which every trainee joins."""
    bind = op.get_bind()
    if bind.execute(select(_trainees.c.id).limit(1)).first() is None:
        return
    store_id = bind.execute(select(_stores.c.id).order_by(_stores.c.id).limit(1)).scalar()
    if store_id is None:
        bind.execute(insert(_stores).values(name=FIRST_STORE, created_at=datetime.now(UTC)))
        store_id = bind.execute(select(_stores.c.id).where(_stores.c.name == FIRST_STORE)).scalar_one()
    bind.execute(update(_trainees).where(_trainees.c.store_id.is_(None)).values(store_id=store_id))
