"""Throttles a client cannot reset: a client speaking Streamlit's websocket protocol sends
``BackMsg.clear_cache`` (which empties ``st.cache_data``, ``st.cache_resource`` and the
session's state on the server) between its guesses, against real ``streamlit run`` servers.

The PIN throttle and the supervisor's throttle still hold: each wrong guess after a cleared
cache is answered with a longer wait (1 s, 2 s, 4 s), and the right PIN or password sent right
after is refused with a wait. Two servers on one database (a SQLite file, and PostgreSQL when
``QUIZ_TEST_DATABASE_URL`` is set) share both: guesses on one hold the other back.

Before the throttles moved to the database, every guess here got the first 1 s answer and
the right PIN or password then opened the account or the Team page (a 4-digit PIN
found after 251 guesses in 69 s).
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest

from quiz.access.accounts import add_trainee
from quiz.db.store import Store
from tests.databases import postgres_database, sqlite_url
from tests.e2e.configured_server import SUPERVISOR_NAME, SUPERVISOR_PASSWORD, SharedDatabaseServer
from tests.reliability.load_sessions import STEP_TIMEOUT, _StreamlitTab

pytestmark = [pytest.mark.reliability, pytest.mark.timed]

TRAINEE, PIN, WRONG = "Aiko Tanaka", "throttle-2468", "9999"
SIGN_IN_FORM, SUPERVISOR_FORM = "sign-in", "supervisor-login"
SECONDS = re.compile(r"(\d+) s\b")


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def servers(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list]:
    """Two app servers on one database where Aiko Tanaka has an account with a PIN."""
    if request.param == "sqlite":
        databases: Iterator[str] = iter([sqlite_url(tmp_path_factory.mktemp("throttle-db"))])
    else:
        databases = postgres_database()
    url = next(databases)
    store = Store(url)
    try:
        add_trainee(store, TRAINEE, PIN)
    finally:
        store.dispose()
    pair = [SharedDatabaseServer(tmp_path_factory.mktemp(f"throttle-{n}"), url) for n in (1, 2)]
    try:
        for server in pair:
            server.start()
        yield pair
    finally:
        for server in pair:
            server.stop()
        for _ in databases:  # drops a PostgreSQL database
            pass


@pytest.fixture(autouse=True)
def fresh_throttles(servers) -> None:
    """Each test starts without waits or failures left by the one before."""
    from quiz.db.tables import login_throttles

    store = Store(servers[0].database_url)
    try:
        with store.engine.begin() as conn:
            conn.execute(login_throttles.delete())
    finally:
        store.dispose()


class Tab(_StreamlitTab):
    """A session over the websocket, on one page of the app, that can clear the server's caches."""

    def __init__(self, socket, page: str = "") -> None:
        super().__init__(socket, urlencode({"lang": "en"}))
        self.page = page

    async def run(self, widgets=()) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        back = BackMsg()
        back.rerun_script.query_string = self.query
        back.rerun_script.page_name = self.page
        back.rerun_script.widget_states.widgets.extend(widgets)
        await self.socket.send(back.SerializeToString())
        elements: dict = {}
        while True:
            message = ForwardMsg()
            message.ParseFromString(await asyncio.wait_for(self.socket.recv(), STEP_TIMEOUT))
            kind = message.WhichOneof("type")
            if kind == "new_session":
                elements = {}
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                elements[tuple(message.metadata.delta_path)] = message.delta.new_element
            elif kind == "script_finished" and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                self.elements = elements
                return

    async def clear_cache(self) -> None:
        """What Streamlit's "Clear cache" menu item sends (any client can send it), then a plain
        run, as the page does, so the forms are there again (the session's state is gone)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        back = BackMsg()
        back.clear_cache = True
        await self.socket.send(back.SerializeToString())
        await self.run()

    async def submit(self, form_id: str, values: dict[str, str], button: str) -> list[str]:
        """Fill a form's text fields by label and press its button; the alerts then shown."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widgets = self.form(form_id)
        states = [WidgetState(id=widgets[label].id, string_value=value) for label, value in values.items()]
        states.append(WidgetState(id=widgets[button].id, trigger_value=True))
        await self.run(states)
        return [alert.body for alert in self.sidebar("alert") + self.main("alert")]

    @property
    def signed_in(self) -> bool:
        return bool(self.sidebar("button", "Sign out"))


def run(scenario):
    """Run an async scenario to its end on a loop of its own, in a thread of its own: the test
    process may already hold a sync Playwright (the e2e fixtures), whose loop runs here."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="throttle-client") as pool:
        return pool.submit(asyncio.run, scenario()).result(timeout=300)


async def opened(server, page: str = ""):
    from websockets.asyncio.client import connect

    url = server.url.replace("http://", "ws://", 1) + "/_stcore/stream"
    socket = await connect(url, subprotocols=["streamlit"], max_size=16 * 2**20, open_timeout=STEP_TIMEOUT)
    tab = Tab(socket, page)
    await tab.run()
    return tab


async def guess_pin(tab: Tab, pin: str) -> list[str]:
    return await tab.submit(SIGN_IN_FORM, {"Name": TRAINEE, "PIN": pin}, "Sign in")


async def guess_password(tab: Tab, password: str) -> list[str]:
    return await tab.submit(SUPERVISOR_FORM, {"Account name": SUPERVISOR_NAME, "Password": password}, "Sign in")


def waits(alerts: list[str]) -> list[int]:
    return [int(found) for alert in alerts for found in SECONDS.findall(alert)]


async def build_up(tab: Tab, guess, wrong: str, refused: str) -> list[int]:
    """Three wrong guesses, each after the last wait is over and the caches are cleared; the
    waits they were answered with (the last one still running on return)."""
    seen: list[int] = []
    for guess_number in range(3):
        if guess_number:
            await asyncio.sleep(seen[-1] + 0.2)  # the wait the server gave, then a little: a client keeping to it
        await tab.clear_cache()
        alerts = await guess(tab, wrong)
        assert any(refused in alert for alert in alerts), alerts
        seen.extend(waits(alerts))
    return seen


def test_the_pin_throttle_holds_when_the_client_clears_the_cache_between_guesses(servers) -> None:
    async def scenario() -> None:
        tab = await opened(servers[0])
        try:
            assert await build_up(tab, guess_pin, WRONG, "do not match") == [1, 2, 4]
            await tab.clear_cache()
            alerts = await guess_pin(tab, PIN)  # the right PIN, at once
            assert not tab.signed_in
            assert any("Too many wrong tries" in a for a in alerts), alerts
        finally:
            await tab.socket.close()

    run(scenario)


def test_a_burst_of_guesses_with_cleared_caches_is_checked_once(servers) -> None:
    """Twenty guesses as fast as the server answers, each after a cleared cache: the first is
    checked, the rest are held back (before: all twenty were checked)."""
    async def scenario() -> tuple[int, float]:
        tab = await opened(servers[0])
        checked, started = 0, time.monotonic()
        try:
            for _ in range(20):
                await tab.clear_cache()
                alerts = await guess_pin(tab, WRONG)
                checked += any("do not match" in a for a in alerts)
        finally:
            await tab.socket.close()
        return checked, time.monotonic() - started

    checked, elapsed = run(scenario)
    # the k-th checked guess can come no sooner than 2**(k-1) - 1 s after the first
    allowed = 1 + int(math.log2(elapsed + 1))
    print(f"\n20 guesses with clear_cache between them in {elapsed:.1f} s: {checked} checked")
    assert 1 <= checked <= allowed


def test_the_supervisor_throttle_holds_when_the_client_clears_the_cache_between_guesses(servers) -> None:
    async def scenario() -> None:
        tab = await opened(servers[0], "team")
        try:
            assert await build_up(tab, guess_password, "a-guess", "do not match") == [1, 2, 4]
            await tab.clear_cache()
            alerts = await guess_password(tab, SUPERVISOR_PASSWORD)
            assert any("Too many wrong attempts" in a for a in alerts), alerts
            assert not tab.main("tabs") and not tab.main("arrow_data_frame")
        finally:
            await tab.socket.close()

    run(scenario)


def test_two_servers_on_one_database_share_both_throttles(servers) -> None:
    async def scenario() -> None:
        first, second = await opened(servers[0]), await opened(servers[1])
        first_team, second_team = await opened(servers[0], "team"), await opened(servers[1], "team")
        try:
            await guess_pin(first, WRONG)
            await asyncio.sleep(1.2)
            assert waits(await guess_pin(first, WRONG)) == [2]  # a 2 s wait from the second wrong PIN
            alerts = await guess_pin(second, PIN)  # the other server, at once, the right PIN
            assert not second.signed_in
            assert any("Too many wrong tries" in a for a in alerts), alerts

            await guess_password(first_team, "a-guess")
            await asyncio.sleep(1.2)
            assert waits(await guess_password(first_team, "b-guess")) == [2]
            alerts = await guess_password(second_team, SUPERVISOR_PASSWORD)
            assert any("Too many wrong attempts" in a for a in alerts), alerts
        finally:
            for tab in (first, second, first_team, second_team):
                await tab.socket.close()

    run(scenario)
