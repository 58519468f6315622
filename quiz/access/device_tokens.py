"""Staying signed in on a device: a token its browser keeps, so a reload does not sign out.

Phone browsers reload background tabs all the time, and a reload starts a new Streamlit
session: without this, a trainee was signed out mid-exam. A token is
``<row id>.<secret>``: 32 random bytes, of which the database keeps only a SHA-256 digest
(a stolen database signs nobody in), compared in constant time. It is bound to the PIN the
trainee had when it was issued (``credential_version``): a new PIN, set on any device or by a
supervisor, ends every token at once. It ends too when it expires (``DEVICE_DAYS``) or when
the trainee signs out on that device (``revoke``). The PIN itself is never kept anywhere.

A token that no longer signs in still says whose device it was: when that trainee has an
exam running, the signed-out page says so (``Resumed.exam_running``), to that device only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Row, insert, select, update

from quiz.access.accounts import credential_version
from quiz.db.exams import open_exam
from quiz.db.sql import inserted_id
from quiz.db.store import Store, Trainee
from quiz.db.tables import trainee_devices, trainees

DEVICE_DAYS = 14  # a device stays signed in this long after signing in there
TOKEN_MAX = 100  # characters: a longer value is not a token and is refused unread


@dataclass(frozen=True, slots=True)
class Resumed:
    """What a device's token gives: the trainee and their credential version, or nobody;
    ``exam_running``: nobody, but the token's trainee has an exam running."""

    trainee: Trainee | None
    credential: str | None = None
    exam_running: bool = False


def issue(store: Store, trainee_id: int, now: datetime) -> str:
    """A new token for one device of the trainee, valid ``DEVICE_DAYS`` under their current PIN."""
    credential = credential_version(store, trainee_id)
    if credential is None:
        raise ValueError("a trainee without a PIN cannot stay signed in")
    secret = secrets.token_urlsafe(32)
    with store.engine.begin() as conn:
        row_id = inserted_id(conn.execute(insert(trainee_devices).values(
            trainee_id=trainee_id, secret_digest=_digest(secret), credential_version=credential,
            created_at=now, expires_at=now + timedelta(days=DEVICE_DAYS))))
    return f"{row_id}.{secret}"


def resume(store: Store, token: str | None, now: datetime) -> Resumed:
    """Who ``token`` signs in, checked against its digest, expiry, revocation and the PIN."""
    found = _row(store, token)
    if found is None:
        return Resumed(None)
    row, trainee = found
    current = credential_version(store, trainee.id)
    if row.revoked_at is None and row.expires_at > now and current is not None and hmac.compare_digest(
            row.credential_version, current):
        return Resumed(trainee, current)
    if row.revoked_at is not None:  # signed out on this device: nothing to tell
        return Resumed(None)
    return Resumed(None, exam_running=open_exam(store, trainee.id, now) is not None)


def revoke(store: Store, token: str | None, now: datetime) -> None:
    """End ``token`` (signing out on its device); an unknown or forged token changes nothing."""
    found = _row(store, token)
    if found is not None:
        with store.engine.begin() as conn:
            conn.execute(update(trainee_devices).where(trainee_devices.c.id == found[0].id,
                                                       trainee_devices.c.revoked_at.is_(None)).values(revoked_at=now))


def _row(store: Store, token: str | None) -> tuple[Row[Any], Trainee] | None:
    """The token's row and trainee when its secret matches the kept digest; else None."""
    if not token or len(token) > TOKEN_MAX or "." not in token:
        return None
    row_id, _, secret = token.partition(".")
    if not row_id.isascii() or not row_id.isdigit() or len(row_id) > 18 or not secret:
        return None
    with store.reads.connect() as conn:
        row = conn.execute(
            select(trainee_devices, trainees.c.name, trainees.c.created_at.label("trainee_created_at"),
                   trainees.c.store_id)
            .join(trainees, trainees.c.id == trainee_devices.c.trainee_id)
            .where(trainee_devices.c.id == int(row_id))
        ).first()
    if row is None or not hmac.compare_digest(row.secret_digest, _digest(secret)):
        return None
    return row, Trainee(row.trainee_id, row.name, row.trainee_created_at, row.store_id)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
