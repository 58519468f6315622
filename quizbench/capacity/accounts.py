"""The load's trainees in the app's database: made up front, counted afterwards.

Each trainee gets an account with the load's PIN, as ``quiz.access.accounts.add_trainee``
writes one (a ``trainees`` row and a ``trainee_pins`` row in one transaction). The PIN is
hashed once for all of them: hashing takes most of a second (scrypt), and a salt shared by
the load's own accounts weakens nothing that matters to a benchmark.
"""

from __future__ import annotations

from sqlalchemy import func, insert, select

from quiz.access.pins import hash_pin
from quiz.db.store import Store
from quiz.db.tables import attempts, trainee_pins, trainees
from quiz.model.attempt import utc_now


def create_trainees(database_url: str, names: list[str], pin: str) -> None:
    """Accounts for these names with ``pin`` (names that exist already are left alone)."""
    store = Store(database_url)  # creates the schema on an empty database, as a server would
    try:
        pin_hash = hash_pin(pin)
        with store.engine.begin() as conn:
            taken = set(conn.execute(select(trainees.c.name).where(trainees.c.name.in_(names))).scalars())
            for name in names:
                if name in taken:
                    continue
                created = conn.execute(insert(trainees).values(name=name, created_at=utc_now()))
                trainee_id = int(created.inserted_primary_key[0])
                conn.execute(insert(trainee_pins).values(trainee_id=trainee_id, pin_hash=pin_hash,
                                                         updated_at=utc_now()))
    finally:
        store.dispose()


def stored_answers(database_url: str, names: list[str]) -> dict[str, int]:
    """The rows of ``attempts`` per trainee name (0 for a trainee without any)."""
    store = Store(database_url)
    try:
        query = (
            select(trainees.c.name, func.count(attempts.c.id))
            .select_from(trainees.outerjoin(attempts, attempts.c.trainee_id == trainees.c.id))
            .where(trainees.c.name.in_(names))
            .group_by(trainees.c.name)
        )
        with store.engine.connect() as conn:
            counts = {name: int(count) for name, count in conn.execute(query)}
    finally:
        store.dispose()
    return {name: counts.get(name, 0) for name in names}
