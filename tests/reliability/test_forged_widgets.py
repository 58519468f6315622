"""Widget values no page sends are dropped with one line in the log (finding L7).

A real ``streamlit run app.py`` and a signed-in tab on a websocket. Before, a widget state
under an id that is not a widget's (``forged``) made Streamlit's session state raise a
``KeyError`` at the page's first widget, and a NaN in a number box broke it: each run drew the
sender an exception and wrote about 8.5 KB of traceback to the server's log. Now both are
dropped before the run (``quiz.ui.streamlit_internals.rerun_limit.drop_forged_widgets``): the page runs as if
they were not sent, and the log gets one line per message.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from quiz.access.accounts import add_trainee
from quiz.db.store import Store
from tests.e2e.configured_server import running
from tests.e2e.server import AppServer
from tests.reliability.test_pack_check_load import PIN, Tab, _sign_in_widgets

pytestmark = pytest.mark.reliability

RUNS = 5


async def forge(base: str) -> dict[str, int]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState
    from websockets.asyncio.client import connect

    url = base.replace("http://", "ws://", 1) + "/_stcore/stream"
    async with connect(url, subprotocols=["streamlit"], max_size=64 * 2**20, proxy=None) as socket:
        tab = Tab(socket)
        await tab.run()
        await tab.run(_sign_in_widgets(tab, "Forger"))
        await tab.run(page="progress")  # the daily goal is a number box
        boxes = tab.widgets("number_input")
        assert boxes, "no number box on the signed-in page"
        exceptions = {"forged": 0, "nan": 0}
        for _ in range(RUNS):
            await tab.run([WidgetState(id="forged", string_value="x")], page="progress")
            exceptions["forged"] += len(tab.widgets("exception"))
            await tab.run([WidgetState(id=boxes[0].id, double_value=float("nan"))], page="progress")
            exceptions["nan"] += len(tab.widgets("exception"))
        await tab.run(page="progress")
        assert tab.widgets("number_input")  # the page still draws
        return exceptions


def test_forged_widget_values_draw_no_exception_and_log_no_traceback(tmp_path: Path) -> None:
    server = AppServer(tmp_path)
    store = Store(server.database_url)
    try:
        add_trainee(store, "Forger", PIN)
    finally:
        store.dispose()
    with running(server):
        start = server.log_path.stat().st_size if server.log_path.exists() else 0
        with ThreadPoolExecutor(max_workers=1) as runner:
            exceptions = runner.submit(asyncio.run, forge(server.url)).result()
        log = server.log_path.read_bytes()[start:].decode("utf-8", "replace")
    lines = [line for line in log.splitlines() if "sent widget values no page sends" in line]
    print(f"\n{2 * RUNS} forged runs: exceptions {exceptions}; log {len(log)} bytes, {len(lines)} lines about them")
    assert exceptions == {"forged": 0, "nan": 0}
    assert "Traceback" not in log and "KeyError" not in log and "Error" not in log, log[-2000:]
    assert len(lines) == 2 * RUNS
    assert len(log) < 300 * 2 * RUNS + 2_000
