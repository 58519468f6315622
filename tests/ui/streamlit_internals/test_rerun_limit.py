"""The rerun limit in front of Streamlit's ``Runtime.handle_backmsg`` (quiz.ui.streamlit_internals.rerun_limit).

The first tests fail when Streamlit changes under the patch: another version than the one
pinned, another signature of ``Runtime.handle_backmsg``, a websocket handler that no longer
hands messages to it, or an ``AppSession`` that no longer starts a script thread per rerun
(then the patch may be needless, or in the wrong place). The others drive the wrapper with
a stand-in for Streamlit's method on a real event loop. The flood against a real server is
``tests/reliability/test_dos.py::test_a_rerun_flood_on_one_websocket_does_not_hold_the_server``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.runtime import Runtime
from streamlit.web.server.starlette import starlette_websocket

from quiz.access.rate_limit import RatePolicy, RerunGate
from quiz.ui.streamlit_internals import rerun_limit
from tests.ui.streamlit_internals.conftest import NOT_WRITTEN_FOR


def run_apart(coroutine) -> None:
    """Run a coroutine to its end on a thread of its own (a browser test before this one
    leaves Playwright's event loop running on the main thread, where asyncio.run refuses)."""
    with ThreadPoolExecutor(max_workers=1) as runner:
        runner.submit(asyncio.run, coroutine).result()


def test_written_for_the_pinned_streamlit() -> None:
    assert rerun_limit.check_internals() == []  # the version: test_version.py


def test_the_websocket_handler_hands_every_message_to_runtime_handle_backmsg() -> None:
    source = inspect.getsource(starlette_websocket.create_websocket_handler)
    assert rerun_limit.HANDOFF in source
    assert "except WebSocketDisconnect:" in source  # raised from handle_backmsg, it ends the session
    assert "client_context" in inspect.getsource(starlette_websocket.StarletteSessionClient)


def test_streamlit_starts_a_script_runner_per_rerun_request() -> None:
    """What the limit is for: with runner.fastReruns (on by default) every rerun request stops
    the running ScriptRunner and creates another (a thread)."""
    source = inspect.getsource(AppSession.request_rerun)
    assert 'config.get_option("runner.fastReruns")' in source
    assert "self._scriptrunner.request_stop()" in source
    assert "self._create_scriptrunner(rerun_data)" in source


def test_install_wraps_handle_backmsg_once() -> None:
    assert rerun_limit.install()
    gate = rerun_limit.installed_gate()
    assert gate is not None
    assert rerun_limit.install()
    assert rerun_limit.installed_gate() is gate  # not wrapped twice
    assert gate.session_policy == rerun_limit.SESSION_RATE
    assert Runtime.handle_backmsg.__wrapped__ is not None  # type: ignore[attr-defined]


def test_install_is_refused_under_another_streamlit(monkeypatch, another_streamlit, caplog) -> None:
    monkeypatch.setattr(rerun_limit, "installed_gate", lambda: None)
    monkeypatch.setattr(Runtime, "handle_backmsg", Runtime.handle_backmsg)  # whatever install would do, undone
    with caplog.at_level(logging.ERROR):
        assert not rerun_limit.install()
    assert f"is written for Streamlit {NOT_WRITTEN_FOR}" in caplog.text


def test_install_is_refused_with_a_log_error_on_other_internals(monkeypatch, caplog) -> None:
    monkeypatch.setattr(rerun_limit, "installed_gate", lambda: None)
    monkeypatch.setattr(Runtime, "handle_backmsg", Runtime.handle_backmsg)
    monkeypatch.setattr(rerun_limit, "HANDOFF", "runtime.handle_backmsg(somewhere_else)")
    with caplog.at_level(logging.ERROR, logger=rerun_limit.__name__):
        assert not rerun_limit.install()
    assert "rerun limits not installed: the websocket handler no longer hands each BackMsg" in caplog.text


def rerun(query: str = "lang=en", fragment: str = "") -> BackMsg:
    back = BackMsg()
    back.rerun_script.query_string = query
    back.rerun_script.fragment_id = fragment
    return back


def client(address: str | None) -> Any:
    return SimpleNamespace(client_context=SimpleNamespace(remote_ip=address))


class Recorder:
    """Stands in for Streamlit's ``Runtime.handle_backmsg``: records what reaches it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, BackMsg, Any]] = []

    def __call__(self, runtime: Any, session_id: str, msg: BackMsg, *, client: Any = None) -> None:
        self.calls.append((session_id, msg, client))


def test_client_addresses() -> None:
    assert rerun_limit.client_address(client("203.0.113.7")) == "203.0.113.7"
    assert rerun_limit.client_address(client("2001:db8::1")) == "2001:db8::1"
    assert rerun_limit.client_address(client("127.0.0.1")) is None  # this machine's own tools
    assert rerun_limit.client_address(client("::1")) is None
    assert rerun_limit.client_address(client(None)) is None
    assert rerun_limit.client_address(None) is None
    assert rerun_limit.client_address(client("testclient")) == "testclient"  # not an address: counted as is


def test_a_flood_reaches_streamlit_as_its_burst_and_then_its_latest_request() -> None:
    original = Recorder()
    gate: RerunGate[Any] = RerunGate(RatePolicy(burst=20, per_second=10.0), RatePolicy(burst=120, per_second=30.0))
    handle = rerun_limit.limited(original, gate)
    tab = client("203.0.113.7")

    async def flood() -> None:
        for i in range(2_000):
            handle(None, "tab", rerun(f"n={i}"), client=tab)
        assert len(original.calls) == 20
        await asyncio.sleep(0.3)  # the held request is released after 0.1 s

    run_apart(flood())
    assert len(original.calls) == 21
    session_id, last, its_client = original.calls[-1]
    assert (session_id, last.rerun_script.query_string, its_client) == ("tab", "n=1999", tab)


def test_other_messages_pass_untouched() -> None:
    original = Recorder()
    handle = rerun_limit.limited(original, RerunGate(RatePolicy(1, 0.001), RatePolicy(1, 0.001)))
    beat = BackMsg()
    beat.app_heartbeat = True

    async def send() -> None:
        handle(None, "tab", rerun(), client=None)
        handle(None, "tab", rerun(), client=None)  # held (and never released within the test)
        for _ in range(100):
            handle(None, "tab", beat, client=None)

    run_apart(send())
    assert [m.WhichOneof("type") for _, m, _ in original.calls] == ["rerun_script"] + ["app_heartbeat"] * 100


def test_the_first_hold_is_logged_once(caplog) -> None:
    original = Recorder()
    handle = rerun_limit.limited(original, RerunGate(RatePolicy(2, 10.0), RatePolicy(100, 100.0)))

    async def flood() -> None:
        for _ in range(50):
            handle(None, "tab", rerun(), client=client("198.51.100.4"))
        await asyncio.sleep(0.15)

    with caplog.at_level("WARNING", logger="quiz.ui.streamlit_internals.rerun_limit"):
        run_apart(flood())
    assert [r.getMessage() for r in caplog.records if "faster than" in r.getMessage()] == [
        "session tab (client 198.51.100.4) asks for reruns faster than 2 at once or 10 a second: "
        "holding them, only the latest runs"]
    assert len(original.calls) == 3


def test_a_held_request_for_a_closed_session_is_let_go() -> None:
    """Streamlit discards a message for a session that is gone; a failure there is not ours."""
    calls = []

    def failing(runtime: Any, session_id: str, msg: BackMsg, *, client: Any = None) -> None:
        calls.append(session_id)
        if len(calls) > 1:
            raise RuntimeError("Can't handle_backmsg (state=STOPPED)")

    handle = rerun_limit.limited(failing, RerunGate(RatePolicy(1, 20.0), RatePolicy(10, 10.0)))

    async def send() -> None:
        handle(None, "tab", rerun(), client=None)
        handle(None, "tab", rerun(), client=None)
        await asyncio.sleep(0.15)

    run_apart(send())
    assert calls == ["tab", "tab"]


def test_a_session_flooding_on_is_disconnected() -> None:
    """Raised into Streamlit's websocket handler, WebSocketDisconnect ends the session and
    the connection as if the client had left."""
    original = Recorder()
    handle = rerun_limit.limited(original, RerunGate(RatePolicy(1, 1.0), RatePolicy(10, 10.0), cut_after=100))

    async def flood() -> None:
        for _ in range(101):
            handle(None, "tab", rerun(), client=None)
        with pytest.raises(WebSocketDisconnect) as cut:
            handle(None, "tab", rerun(), client=None)
        assert cut.value.code == rerun_limit.POLICY_VIOLATION

    run_apart(flood())
    assert len(original.calls) == 1


def test_widget_values_no_page_sends_are_dropped():
    """Finding L7: an id that is not a widget's, or a number that is not finite."""
    msg = BackMsg()
    widgets = msg.rerun_script.widget_states.widgets
    widgets.add(id="$$ID-0123-goal", double_value=3.0)
    widgets.add(id="forged", string_value="x")
    widgets.add(id="$$ID-0124-goal", double_value=float("nan"))
    widgets.add(id="$$ID-0125-range").double_array_value.data.extend([1.0, float("inf")])
    widgets.add(id="$$ID-0126-name", string_value="Aiko")
    problems = rerun_limit.drop_forged_widgets(msg)
    assert sorted(problems) == ["a number that is not finite", "an id that is not a widget's",
                                "numbers that are not finite"]
    assert [w.id for w in msg.rerun_script.widget_states.widgets] == ["$$ID-0123-goal", "$$ID-0126-name"]
