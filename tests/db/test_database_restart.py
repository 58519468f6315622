"""A PostgreSQL restart under a running store (a server of the test's own, restarted with
``pg_ctl restart -m fast``): the next click costs nothing but a reconnect, and the PIN
checks kept in memory (``quiz.db.watches``) are read from the database until the server
listens for notices again, then kept again."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from typing import Iterator

import pytest

from quiz.access.accounts import CREDENTIALS, add_trainee, credential_guard, credential_version
from quiz.db.answers import save_answer
from quiz.db.store import Store
from tests.databases import OwnPostgres
from tests.db.test_answers import T0, answer
from tests.waiting import wait_until

pytestmark = pytest.mark.postgres
WAIT = 60.0  # the listener connects again after 1, 2, 4 ... s while the server is down


@pytest.fixture
def server() -> Iterator[OwnPostgres]:
    own = OwnPostgres()
    try:
        yield own.start()
    finally:
        own.close()


def test_after_a_database_restart_the_next_click_works_and_pin_changes_are_heard_again(server):
    store = Store(server.url)
    try:
        aiko = add_trainee(store, "Aiko", "2468")
        watch = store.watches.kept(CREDENTIALS)
        wait_until(lambda: watch.live, "the server listens for PIN changes", WAIT)
        signed_in_with = credential_version(store, aiko.id)
        guard = credential_guard(store, aiko.id, signed_in_with)
        save_answer(store, answer(aiko.id, True, T0), guard)

        server.restart()  # every pooled connection and the listener's are ended

        # the next click: its PIN check, its answer and the figures, with no error
        assert credential_version(store, aiko.id) == signed_in_with
        save_answer(store, answer(aiko.id, False, T0 + timedelta(days=1)), guard)
        assert len(store.attempts()) == 2

        wait_until(lambda: watch.live, "the server listens again", WAIT)
        assert credential_version(store, aiko.id) == signed_in_with
        done = subprocess.run([sys.executable, "-m", "quiz", "set-pin", "Aiko", "--database-url", server.url],
                              input="8051\n8051\n", capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        wait_until(lambda: credential_version(store, aiko.id) != signed_in_with,
                   "a PIN set elsewhere after the restart is heard", WAIT)
    finally:
        store.dispose()
