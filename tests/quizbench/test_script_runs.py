"""Each click of an answer costs one script run on a real server, as the floor app's does,
and that run draws no answer form only to replace it; in practice, it runs only the card.

Under load, server time is script runs: checking an answer used to take two (the check,
then an ``st.rerun`` to draw the feedback), and so did Next card, saving an exam answer and
each move to another question. The load tool speaks Streamlit's protocol to a real server
and counts the full runs each click starts; a page that goes back to ``st.rerun`` after an
answer fails here. Every acknowledged answer must also be stored, once.
"""

from __future__ import annotations

import asyncio

import pytest

from quizbench.capacity.accounts import create_trainees, stored_answers
from quizbench.capacity.load import run_load
from quizbench.capacity.load_run_state import LoadSpec, RunState, SessionTally
from tests.e2e.configured_server import module_server
from tests.e2e.server import AppServer

pytestmark = pytest.mark.e2e

PIN = "runs-2468"
NAMES = ["runs-practice", "runs-exam"]
ANSWERS = 4  # per session, then the run stops
LIMIT = 180.0  # seconds: the run's upper bound on a busy machine; it normally takes a few


server = module_server("runs")


def test_an_answer_and_a_move_on_each_take_one_script_run(server: AppServer) -> None:
    create_trainees(server.database_url, NAMES, PIN)

    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        while not all(t.acknowledged >= ANSWERS and len(t.next_runs) >= ANSWERS - 1 for t in tallies):
            await asyncio.sleep(0.1)  # watching the sessions, not waiting on the app
        run.stop.set()

    spec = LoadSpec(url=server.url, trainees=NAMES, pin=PIN, duration=LIMIT, exam_share=0.5, choice="first")
    result = run_load(spec, control)
    figures = result.figures()

    assert not [t.errors for t in result.sessions if t.errors]
    assert figures["exceptions"] == 0
    modes = {t.mode: t for t in result.sessions}
    assert set(modes) == {"practice", "exam"}
    for tally in result.sessions:
        assert tally.acknowledged >= ANSWERS, tally
        assert set(tally.submit_runs) == {1}, (tally.mode, tally.submit_runs)  # Check / Save answer
        assert set(tally.next_runs) == {1}, (tally.mode, tally.next_runs)  # Next card / next question
    assert figures["script_runs_per_submit"] == 1 and figures["script_runs_per_next"] == 1
    # Practice's card is a fragment: Check and Next card run it alone, not the sidebar around it
    practice = modes["practice"]
    assert set(practice.submit_full_runs) == {0} and set(practice.next_full_runs) == {0}, practice
    # ... and draws no form it does not show: the answer is read before the run (in the submit
    # button's callback), so the form answered is not drawn again only to be replaced.
    practice_forms = [[f for f in forms if f.startswith("answer-")] for forms in modes["practice"].submit_forms]
    assert practice_forms == [[]] * len(practice_forms), practice_forms  # the feedback replaces the form
    exam_forms = [[f for f in forms if f.startswith("exam-")] for forms in modes["exam"].submit_forms]
    assert all(len(forms) == 1 for forms in exam_forms), exam_forms  # the new form, with the answer saved
    assert stored_answers(server.database_url, NAMES) == result.acknowledged_per_trainee()
