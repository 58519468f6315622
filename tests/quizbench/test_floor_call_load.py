"""The load tool investigates floor calls as a trainee would: on a floor call it takes a few
steps (each one script run of the card's fragment alone), presses Rule and answers the form
that opens; the capacity floor app deals floor calls in the app's proportion."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from streamlit.proto.Button_pb2 import Button

from quizbench.capacity.accounts import create_trainees
from quizbench.capacity.load import run_load
from quizbench.capacity.load_run_state import LoadSpec, RunState, SessionTally
from quizbench.capacity.protocol import MAIN, SIDEBAR, Page, Widget
from quizbench.capacity.servers import FLOOR_APP, StreamlitServer
from quizbench.capacity.session import floor_call_buttons
from tests.e2e.configured_server import module_server
from tests.e2e.server import AppServer


def _button(place: tuple[int, ...], key: str, label: str = "", form: str = "") -> Widget:
    return Widget(place, "button", Button(id=f"$$ID-{len(key)}-{key}", label=label, form_id=form))


def test_a_floor_calls_steps_and_rule_are_found_among_the_buttons() -> None:
    page = Page([
        _button((SIDEBAR, 1), "sign-out", "Sign out"),
        _button((MAIN, 4, 0), "answer-3-step-kimura-what", "Tell me what happened."),
        _button((MAIN, 4, 1), "answer-3-step-hand", "Count the hand."),
        _button((MAIN, 5), "answer-3-rule", "Rule"),
        _button((MAIN, 6), "answer-3-dont-know", "I don't know"),
    ])
    steps, rule = floor_call_buttons(page)
    assert [w.key for w in steps] == ["answer-3-step-kimura-what", "answer-3-step-hand"]
    assert rule is not None and rule.key == "answer-3-rule"
    assert floor_call_buttons(Page([_button((MAIN, 6), "next-3", "Next card")])) == ([], None)


def test_an_exams_floor_call_is_found_by_the_exams_keys() -> None:
    """In a mock exam the floor call's form key is the exam's (``exam-<id>-<question>``); the
    exam's own buttons (flag, Next, Hand in) are neither steps nor Rule."""
    page = Page([
        _button((MAIN, 3, 0), "exam-7-4-step-kimura-what", "Tell me what happened."),
        _button((MAIN, 4), "exam-7-4-rule", "Rule"),
        _button((MAIN, 5), "exam-flag-7-4", "Flag"),
        _button((MAIN, 6), "exam-next", "Next"),
        _button((MAIN, 7), "exam-hand-in", "Hand in"),
    ])
    steps, rule = floor_call_buttons(page, prefix="exam-")
    assert [w.key for w in steps] == ["exam-7-4-step-kimura-what"]
    assert rule is not None and rule.key == "exam-7-4-rule"
    assert floor_call_buttons(page) == ([], None)  # Practice's keys: none here


@pytest.mark.e2e
def test_the_floor_app_deals_floor_calls_whose_steps_run_the_card_alone(tmp_path: Path) -> None:
    floor = StreamlitServer(FLOOR_APP, tmp_path / "floor.log").start()

    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        while not all(t.floor_calls >= 1 and t.acknowledged >= 9 for t in tallies):
            await asyncio.sleep(0.1)  # watching the sessions, not waiting on the app
        run.stop.set()

    try:
        spec = LoadSpec(url=floor.url, trainees=["floor-calls"], pin="floor-2468", duration=180.0, choice="first")
        result = run_load(spec, control)
    finally:
        floor.stop()
    figures = result.figures()
    assert not [t.errors for t in result.sessions if t.errors]
    assert figures["exceptions"] == 0
    assert figures["floor_calls_ruled"] >= 1 and figures["floor_call_steps"] >= 2  # then ruled and answered
    assert figures["script_runs_per_step"] == 1 and figures["full_runs_per_step"] == 0  # the card's fragment alone
    assert figures["script_runs_per_submit"] == 1 and figures["script_runs_per_next"] == 1


server = module_server("floor-call-load")


@pytest.mark.e2e
def test_the_apps_floor_calls_are_investigated_a_step_a_run(server: AppServer) -> None:
    names = ["floor-call-load"]
    create_trainees(server.database_url, names, "floor-2468")

    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        while not all(t.floor_calls >= 1 and t.in_flight is False for t in tallies):
            await asyncio.sleep(0.1)  # Practice deals a floor call about one card in eight
        run.stop.set()

    spec = LoadSpec(url=server.url, trainees=names, pin="floor-2468", duration=240.0, choice="first")
    figures = run_load(spec, control).figures()
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["exceptions"] == 0
    assert figures["floor_calls_ruled"] >= 1 and figures["floor_call_steps"] >= 2
    assert figures["script_runs_per_step"] == 1 and figures["full_runs_per_step"] == 0  # the card's fragment alone


def _exam_floor_calls(url: str, names: list[str], pin: str) -> dict:
    """One session taking mock exams until it has investigated and ruled two floor calls."""

    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        while not all(t.floor_calls >= 2 and t.in_flight is False for t in tallies):
            await asyncio.sleep(0.1)  # an exam's questions are floor calls about one in eight
        run.stop.set()

    spec = LoadSpec(url=url, trainees=names, pin=pin, duration=300.0, exam_share=1.0, choice="first")
    return run_load(spec, control).figures()


@pytest.mark.e2e
def test_an_exams_floor_calls_are_investigated_and_answered_not_handed_in_unanswered(server: AppServer) -> None:
    """Before, an exam session met a floor call's steps with no form and handed the exam in
    unanswered, then started another: the app's exam sessions did more (and other) work than
    the floor's, whose exam had no floor calls."""
    names = ["exam-floor-calls"]
    create_trainees(server.database_url, names, "floor-2468")
    figures = _exam_floor_calls(server.url, names, "floor-2468")
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["exceptions"] == 0
    assert figures["floor_calls_ruled"] >= 2 and figures["floor_call_steps"] >= 4
    assert figures["exams"]["handed_in_unanswered"] == 0
    assert figures["script_runs_per_step"] == 1 and figures["full_runs_per_step"] == 0


@pytest.mark.e2e
def test_the_floor_apps_exam_deals_floor_calls_as_the_app_does(tmp_path: Path) -> None:
    floor = StreamlitServer(FLOOR_APP, tmp_path / "floor.log").start()
    try:
        figures = _exam_floor_calls(floor.url, ["floor-exam"], "floor-2468")
    finally:
        floor.stop()
    assert not figures["errors"] and figures["exceptions"] == 0
    assert figures["floor_calls_ruled"] >= 2 and figures["exams"]["handed_in_unanswered"] == 0
    assert figures["script_runs_per_step"] == 1 and figures["full_runs_per_step"] == 0
