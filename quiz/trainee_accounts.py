"""Trainee accounts: adding a trainee with a PIN, signing in, and setting a new PIN.

Signing in answers alike for an unknown name and a wrong PIN (same message, same work:
an unknown name is checked against a dummy hash), so the form does not reveal who has an
account. Wrong attempts are throttled per name (``ThrottleBook``, shared by every session
of the process) and per browser session (the caller's throttle).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from quiz.attempt import utc_now
from quiz.errors import QuizError
from quiz.login import LoginResult, LoginThrottle, ThrottleBook, attempt
from quiz.pin import check_pin_rule, hash_pin, pin_matches
from quiz.store import Store, Trainee, valid_name
from quiz.tables import trainee_pins, trainees

NAME_CEILING = 60.0  # per name, across sessions: short, so guessing cannot lock a trainee out for long


class NameTakenError(QuizError, ValueError):
    """A new trainee was given a name that already has an account."""


@dataclass(frozen=True, slots=True)
class SignIn:
    """The outcome of a sign-in: the trainee, or None with the wait before the next try."""

    trainee: Trainee | None
    retry_after: float = 0.0
    throttled: bool = False


def name_throttles() -> ThrottleBook:
    """A fresh book of per-name throttles (the app keeps one for the whole process)."""
    return ThrottleBook(ceiling=NAME_CEILING)


def throttle_key(name: str) -> str:
    """The key a name is throttled under: stripped and case-folded, so variants share it."""
    return name.strip().casefold()


def add_trainee(store: Store, name: str, pin: str) -> Trainee:
    """A new trainee with that name and PIN, both written in one transaction.

    Raises ``ValueError`` for a bad name, ``PinRuleError`` for a bad PIN and
    ``NameTakenError`` when the name already exists.
    """
    name = valid_name(name)
    pin_hash = hash_pin(pin)
    try:
        with store.engine.begin() as conn:
            created = conn.execute(insert(trainees).values(name=name, created_at=utc_now()))
            trainee_id = int(created.inserted_primary_key[0])
            conn.execute(insert(trainee_pins).values(trainee_id=trainee_id, pin_hash=pin_hash, updated_at=utc_now()))
    except IntegrityError as error:
        raise NameTakenError(f"the name {name!r} is taken") from error
    found = store.find_trainee(name)
    assert found is not None
    return found


def set_pin(store: Store, trainee_id: int, pin: str) -> None:
    """Give the trainee a new PIN (replacing any old one)."""
    pin_hash = hash_pin(pin)
    with store.engine.begin() as conn:
        conn.execute(delete(trainee_pins).where(trainee_pins.c.trainee_id == trainee_id))
        conn.execute(insert(trainee_pins).values(trainee_id=trainee_id, pin_hash=pin_hash, updated_at=utc_now()))


def has_pin(store: Store, trainee_id: int) -> bool:
    with store.engine.connect() as conn:
        found = conn.execute(select(trainee_pins.c.trainee_id).where(trainee_pins.c.trainee_id == trainee_id))
        return found.first() is not None


def sign_in(store: Store, name: str, pin: str, book: ThrottleBook, session: LoginThrottle) -> SignIn:
    """The trainee when ``name`` has an account whose PIN is ``pin``, unless throttled.

    A trainee without a PIN (made before PINs existed) cannot sign in until a supervisor
    sets one: an empty PIN must never open an account.
    """
    found: list[Trainee] = []

    def check() -> bool:
        holder = _pin_holder(store, name, pin)
        if holder is not None:
            found.append(holder)
        return holder is not None

    result = attempt(check, [session, book.for_key(throttle_key(name))])
    return SignIn(found[0] if found else None, result.retry_after, result.throttled)


def change_pin(store: Store, trainee: Trainee, current: str, new: str, book: ThrottleBook,
               session: LoginThrottle) -> LoginResult:
    """Give ``trainee`` the PIN ``new`` when ``current`` is their PIN now (throttled like a
    sign-in, under the same name). Raises ``PinRuleError`` for a bad new PIN, checked first."""
    check_pin_rule(new)
    result = attempt(lambda: _pin_holder(store, trainee.name, current) is not None,
                     [session, book.for_key(throttle_key(trainee.name))])
    if result.unlocked:
        set_pin(store, trainee.id, new)
    return result


def _pin_holder(store: Store, name: str, pin: str) -> Trainee | None:
    """The trainee of that name when ``pin`` is their PIN. An unknown name, or one without a
    PIN, is checked against a dummy hash, so every answer costs the same work."""
    trainee, stored = _account(store, name)
    matched = pin_matches(pin, stored if stored is not None else _dummy_hash())
    return trainee if matched and stored is not None else None


def _account(store: Store, name: str) -> tuple[Trainee | None, str | None]:
    """The trainee of that name and their stored PIN hash (either may be None)."""
    query = (
        select(trainees, trainee_pins.c.pin_hash)
        .select_from(trainees.outerjoin(trainee_pins, trainee_pins.c.trainee_id == trainees.c.id))
        .where(trainees.c.name == name.strip())
    )
    with store.engine.connect() as conn:
        row = conn.execute(query).one_or_none()
    if row is None:
        return None, None
    values = dict(row._mapping)
    stored = values.pop("pin_hash")
    return Trainee(**values), stored


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """A hash no PIN is checked against on purpose: unknown names cost the same work."""
    return hash_pin("no account has this PIN: " + "x" * 16)
