"""What the tests of kept values share (``quiz.db.watches`` and the modules under it): a
counting ``read``, a watch that listens, a change committed as another server commits it."""

from __future__ import annotations

from sqlalchemy import text

from quiz.db.kept_values import KeptValues
from quiz.db.store import Store
from tests.waiting import wait_until

CHANNEL = "quiz_test_values"


class Reads:
    """A ``read`` for ``KeptValues.get`` that counts its calls and returns the value set."""

    def __init__(self, value: str) -> None:
        self.value, self.count = value, 0

    def __call__(self) -> str:
        self.count += 1
        return self.value


def live_watch(store: Store) -> KeptValues[str]:
    """The store's watch of ``CHANNEL``, once it keeps values (on PostgreSQL: its listener listens)."""
    watch = store.watches.kept(CHANNEL)
    wait_until(lambda: watch.live, "the listener listens")
    return watch


def notify_from(store: Store, key: int) -> None:
    """A change committed with its notice, as another server commits it (no ``changed`` in
    the store watched)."""
    with store.engine.begin() as conn:
        store.watches.notify(conn, CHANNEL, key)


def commit_a_change(store: Store) -> None:
    """A commit on one of the store's pooled connections (not a watch's own)."""
    with store.engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS scratch (n INTEGER)"))
        conn.execute(text("INSERT INTO scratch VALUES (1)"))
