"""Check and Next card run only the card (a Streamlit fragment) on a real server, as a browser
asks, and a mock exam's Save and Next only its question; such a run still does what
``app.py`` does around a full run.

The load tool speaks the browser's protocol: a click on a widget that a fragment drew asks
the server to run that fragment only. Here it signs a trainee in, and between the card being
drawn and Check being pressed, something changes underneath: the trainee's PIN is changed
in another session (the fragment's run must sign the trainee out, as the sidebar does on a
full run, and store nothing), or the database stops taking writes (the fragment's run must
say the answer was not saved, not show a traceback).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlencode

import pytest

from quiz.access.accounts import set_pin
from quiz.db.store import Store
from quizbench.capacity.accounts import create_trainees, stored_answers
from quizbench.capacity.load import run_in_own_loop
from quizbench.capacity.load_run_state import LoadSpec, SessionTally
from quizbench.capacity.protocol import MAIN, Page, Tab, fill_form, press
from quizbench.capacity.session import SIGN_IN_FORM, open_socket, sign_in
from tests.e2e.configured_server import module_server
from tests.e2e.server import AppServer

pytestmark = pytest.mark.e2e

PIN = "fragment-2468"
SIDEBAR = 1


server = module_server("fragment")


@asynccontextmanager
async def signed_in_tab(server: AppServer, name: str, mode: str) -> AsyncIterator[Tab]:
    """A tab of the app in English with ``name`` signed in, as the load tool's session."""
    spec = LoadSpec(url=server.url, trainees=[name], pin=PIN, duration=60.0)
    socket = await open_socket(spec, {})
    try:
        tab = Tab(socket, urlencode({"lang": "en"}), 60.0)
        await tab.run()
        await sign_in(tab, SessionTally(trainee=name, mode=mode), PIN)
        yield tab
    finally:
        await socket.close()


def rule_button(page: Page, prefix: str):
    """A floor call's Rule button (its key ``<form key>-rule``) on the page, or None."""
    found = [w for w in page.find("button", root=MAIN, key_prefix=prefix) if (w.key or "").endswith("-rule")]
    return found[0] if found else None


async def ruling_form(tab: Tab, prefix: str):
    """The answer form of the card on the page (its form's id starts with ``prefix``): a card
    dealt at random may be a floor call, whose investigation shows first and whose form opens
    once Rule is pressed (pressed here, as a trainee would before ruling); None if neither."""
    form = tab.page.answer_form(prefix=prefix)
    rule = rule_button(tab.page, prefix) if form is None else None
    if rule is not None:
        await tab.run(press(rule))
        form = tab.page.answer_form(prefix=prefix)
    return form


def check_after(server: AppServer, name: str, meanwhile: Callable[[], None]) -> Tab:
    """Sign ``name`` in, show a practice card, do ``meanwhile``, then press Check with an
    answer chosen; the tab after that click, with its count of runs made during it only."""

    async def session() -> Tab:
        async with signed_in_tab(server, name, "practice") as tab:
            form = await ruling_form(tab, "answer-")
            assert form is not None, "no practice card after signing in"
            meanwhile()
            tab.script_runs = tab.full_runs = 0
            await tab.run(fill_form(form[1], random.Random(1), "first"))
            return tab

    return run_in_own_loop(session())


def pin_changer(server: AppServer, name: str) -> Callable[[], None]:
    """What changes ``name``'s PIN as another session would."""

    def change_pin() -> None:
        store = Store(server.database_url)
        try:
            set_pin(store, store.trainee(name).id, "changed-1357", None)
        finally:
            store.dispose()

    return change_pin


def _texts(tab: Tab, root: int) -> list[str]:
    return [alert.body for alert in tab.page.alerts(root=root)]


def test_check_runs_only_the_card(server: AppServer) -> None:
    create_trainees(server.database_url, ["frag-plain"], PIN)
    tab = check_after(server, "frag-plain", lambda: None)
    assert (tab.script_runs, tab.full_runs) == (1, 0)  # the fragment ran, the sidebar did not
    assert tab.page.find(form=SIGN_IN_FORM) == []
    assert stored_answers(server.database_url, ["frag-plain"]) == {"frag-plain": 1}


def test_a_pin_changed_elsewhere_signs_out_at_the_next_check(server: AppServer) -> None:
    name = "frag-pin"
    create_trainees(server.database_url, [name], PIN)

    tab = check_after(server, name, pin_changer(server, name))
    assert tab.full_runs == 1  # the card's run asked for the whole app, whose sidebar signs out
    assert tab.page.find(form=SIGN_IN_FORM), "still signed in after the PIN changed"
    assert any("PIN was changed in another session" in text for text in _texts(tab, SIDEBAR))
    assert tab.page.answer_form(prefix="answer-") is None and rule_button(tab.page, "answer-") is None
    assert stored_answers(server.database_url, [name]) == {name: 0}  # nothing stored for a stale session


def test_a_database_failure_in_the_cards_run_says_the_answer_was_not_saved(server: AppServer) -> None:
    name = "frag-db"
    create_trainees(server.database_url, [name], PIN)
    database = Path(server.database_url.removeprefix("sqlite:///"))

    def break_writes() -> None:  # the table answers are written to is gone
        with sqlite3.connect(database) as connection:
            connection.execute("ALTER TABLE attempts RENAME TO attempts_away")

    tab = check_after(server, name, break_writes)
    with sqlite3.connect(database) as connection:  # back, for the next test
        connection.execute("ALTER TABLE attempts_away RENAME TO attempts")
    assert (tab.script_runs, tab.full_runs) == (1, 0)
    assert tab.page.exceptions == 0  # no traceback box
    errors = _texts(tab, MAIN)
    assert any("Your answer was not saved." in text for text in errors), errors
    assert stored_answers(server.database_url, [name]) == {name: 0}


Click = tuple[Page, int, int, list[float]]  # the page drawn, its script runs, full runs, timers armed


def exam_clicks(server: AppServer, name: str, meanwhile: Callable[[], None] = lambda: None) -> list[Click]:
    """Sign ``name`` in, start a custom mock exam, do ``meanwhile``, then Save an answer to
    question 1, press Next, Hand in and Hand in anyway (stopping once the tab is signed out):
    after each click, the page drawn, the script runs and full runs that click cost, and the
    auto-rerun timers (seconds) the tab then keeps, as a browser would."""

    async def session() -> list[Click]:
        async with signed_in_tab(server, name, "exam") as tab:
            await tab.run(page="exam")
            await tab.run(press(tab.page.find("button", root=MAIN, key="exam-start-custom")[0]))
            form = await ruling_form(tab, "exam-")
            assert form is not None, "no exam question after starting one"
            meanwhile()
            seen = []

            async def click(states: list) -> None:
                tab.script_runs = tab.full_runs = 0
                await tab.run(states)
                seen.append((tab.page, tab.script_runs, tab.full_runs, sorted(tab.auto_reruns.values())))

            await click(fill_form(form[1], random.Random(1), "first"))
            for key in ("exam-next", "exam-hand-in", "exam-hand-in-confirm"):
                buttons = tab.page.find("button", root=MAIN, key=key)
                if not buttons:
                    break
                await click(press(buttons[0]))
            return seen

    return run_in_own_loop(session())


def test_an_exams_save_and_next_run_only_its_question(server: AppServer) -> None:
    name = "frag-exam"
    create_trainees(server.database_url, [name], PIN)
    (saved, save_runs, save_full, timers), (moved, next_runs, next_full, _), (_, ask_runs, ask_full, _), (
        handed_in, _, hand_in_full, _) = exam_clicks(server, name)
    assert (save_runs, save_full) == (1, 0)  # Save ran the question's fragment, not the sidebar
    assert len(timers) == 1 and 29 * 60 < timers[0] <= 30 * 60 + 1  # the clock's run at the deadline, still armed
    assert saved.progress_counts() == (1, 20)
    assert stored_answers(server.database_url, [name]) == {name: 1}
    assert (next_runs, next_full) == (1, 0)  # and Next
    assert moved.answer_form(prefix="exam-") is not None or rule_button(moved, "exam-") is not None  # question 2
    assert (ask_runs, ask_full) == (1, 0)  # Hand in, with 19 unanswered, asks once more
    assert hand_in_full == 1  # handing in runs the whole page: the results
    assert handed_in.find("button", root=MAIN, key="exam-back")
    assert handed_in.answer_form(prefix="exam-") is None and rule_button(handed_in, "exam-") is None


def test_a_pin_changed_elsewhere_signs_out_at_the_next_exam_save(server: AppServer) -> None:
    name = "frag-exam-pin"
    create_trainees(server.database_url, [name], PIN)

    (page, _, full_runs, _), *_ = exam_clicks(server, name, pin_changer(server, name))
    assert full_runs == 1  # the question's run asked for the whole app, whose sidebar signs out
    assert page.find(form=SIGN_IN_FORM), "still signed in after the PIN changed"
    assert page.answer_form(prefix="exam-") is None and rule_button(page, "exam-") is None
    assert stored_answers(server.database_url, [name]) == {name: 0}  # nothing stored for a stale session
