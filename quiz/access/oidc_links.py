"""Supervisor accounts linked to an OpenID Connect provider's subject: where the operator
configures a provider, an account may be linked to one subject (``link_oidc``, kept as
"<issuer> <sub>"); the provider's sign-in then opens that account (``account_for_oidc``),
unless it is disabled.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from quiz.access.scope import Supervisor
from quiz.access.supervisors import account_row, supervisor_of
from quiz.db.audit import record
from quiz.db.store import Store
from quiz.db.tables import supervisor_accounts
from quiz.model.errors import AccountError, NameTakenError

OIDC_SUBJECT_MAX = 255  # characters of "<issuer> <sub>", as the column holds


def oidc_subject(issuer: str, sub: str) -> str:
    """The stored form of a provider's subject: the issuer names the provider, ``sub`` is
    unique only within it."""
    return f"{issuer.strip()} {sub.strip()}"


def link_oidc(store: Store, account_name: str, issuer: str, sub: str, actor: Supervisor | None) -> Supervisor:
    """Link the account named ``account_name`` to the provider subject (``issuer``, ``sub``),
    replacing any link it had, with its audit row (``account_linked``) in one transaction.

    Raises ``AccountError`` for an unknown account or an empty issuer or subject, and
    ``NameTakenError`` when another account has that subject.
    """
    if not issuer.strip() or not sub.strip() or " " in issuer.strip():
        raise AccountError("oidc", "an OpenID Connect link needs an issuer URL and a subject")
    subject = oidc_subject(issuer, sub)
    if len(subject) > OIDC_SUBJECT_MAX:
        raise AccountError("oidc", "the issuer and subject are too long to store")
    row = account_row(store, account_name)
    if row is None:
        raise AccountError("unknown", f"no account {account_name!r}")
    linked = supervisor_of(row)
    try:
        with store.engine.begin() as conn:
            conn.execute(update(supervisor_accounts).where(supervisor_accounts.c.id == linked.id)
                         .values(oidc_subject=subject))
            record(conn, actor, "account_linked", linked.name, linked.store_id, {"subject": subject})
    except IntegrityError as error:
        raise NameTakenError(f"another account is linked to {subject!r}") from error
    return linked


def account_for_oidc(store: Store, issuer: str, sub: str) -> Supervisor | None:
    """The enabled account linked to the provider subject (``issuer``, ``sub``), or None."""
    with store.engine.connect() as conn:
        row = conn.execute(select(supervisor_accounts).where(
            supervisor_accounts.c.oidc_subject == oidc_subject(issuer, sub))).one_or_none()
    if row is None or row.disabled_at is not None:
        return None
    return supervisor_of(row._mapping)
