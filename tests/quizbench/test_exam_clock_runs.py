"""The exam's clock asks the server for no run while a trainee thinks, in the app and in the
capacity floor app, which draws the same clock; the floor's exam loop is the app's to the
load tool (start, save, next, hand in).

The load tool keeps the auto-rerun timers a browser would (``Tab.auto_reruns``) and runs
them while a session thinks: a clock that ticked on the server every second would show here
as timers of one second and as ticks.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from quizbench.capacity.accounts import create_trainees
from quizbench.capacity.load import run_load
from quizbench.capacity.load_run_state import LoadSpec, RunState, SessionTally
from quizbench.capacity.servers import FLOOR_APP, StreamlitServer
from tests.e2e.configured_server import module_server
from tests.e2e.server import AppServer

pytestmark = pytest.mark.e2e

PIN = "clock-runs-2468"
LIMIT = 180.0  # seconds: the run's upper bound on a busy machine; it normally takes a few
THINK = (1.0, 1.5)  # seconds before each answer: long enough for a one-second timer to fire
ANSWERS = 3
EXAM_S = 30 * 60  # the custom exam's 30 minutes, as the load tool starts it

server = module_server("clock-runs")


def _exam_load(url: str, names: list[str]) -> tuple[dict, list[SessionTally]]:
    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        while not all(t.acknowledged >= ANSWERS and t.exams_started for t in tallies):
            await asyncio.sleep(0.1)  # watching the sessions, not waiting on the app
        run.stop.set()

    spec = LoadSpec(url=url, trainees=names, pin=PIN, duration=LIMIT, think=THINK, exam_share=1.0, choice="first")
    result = run_load(spec, control)
    return result.figures(), result.sessions


def _assert_clock_asks_for_no_run(figures: dict, tallies: list[SessionTally]) -> None:
    assert not [t.errors for t in tallies if t.errors]
    assert figures["exceptions"] == 0
    assert all(t.acknowledged >= ANSWERS for t in tallies), tallies
    assert figures["countdown_ticks"] == 0  # no fragment run while the trainees thought


def test_the_apps_exam_clock_asks_for_no_run_while_a_trainee_thinks(server: AppServer) -> None:
    names = ["clock-runs-app"]
    create_trainees(server.database_url, names, PIN)
    figures, tallies = _exam_load(server.url, names)
    _assert_clock_asks_for_no_run(figures, tallies)


def test_the_floor_app_sits_exams_with_the_same_clock(tmp_path: Path) -> None:
    floor = StreamlitServer(FLOOR_APP, tmp_path / "floor.log").start()
    try:
        figures, tallies = _exam_load(floor.url, ["clock-runs-floor"])
    finally:
        floor.stop()
    _assert_clock_asks_for_no_run(figures, tallies)
    assert figures["exams"]["started"] >= 1
