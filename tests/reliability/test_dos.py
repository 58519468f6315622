"""Small inputs that used to crash or flood the server, and untrusted text that became links.

- A card file nested 100,000 levels deep (100 KB of ``[``) in the shipped cards folder: the
  server used to die with SIGSEGV when the first page loaded the content (libyaml's
  composer recursed without limit); now the file is a located problem and the rest loads.
- The server's upload limit and error details, read through Streamlit's own config module
  from the project's ``.streamlit/config.toml``; and the upload limit at work: bodies of
  3 and 20 MiB sent straight to an upload URL are refused (413), 1 MiB is taken.
- A flood of 2,000 rerun requests on one websocket: Streamlit started a script thread for
  each, and the health endpoint and every other tab waited seconds (minutes for bigger
  floods); now a session's reruns beyond a person's pace are held and only the latest runs
  (``quiz.ui.streamlit_internals.rerun_limit``), and both answer within a bound relative to a plain page run.
- Bare URLs and e-mail addresses in escaped text, rendered by a real Streamlit in a real
  Chromium: Streamlit's Markdown (remark-gfm) turned them into links; now no ``<a>``
  appears and the text reads the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import textwrap
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from quiz.content.loader import SCENARIOS_DIR
from quiz.content.uploads import MIB, UploadLimits
from tests.e2e import driver
from tests.e2e.configured_server import running
from tests.e2e.server import ROOT, AppServer

pytestmark = [pytest.mark.reliability, pytest.mark.timed]

WORD_JOINER = "\u2060"
LINK_TEXTS = (
    "https://evil.example/login",
    "HTTPS://EVIL.EXAMPLE/LOGIN",
    "http://evil.example",
    "www.evil.example/login",
    "WWW.evil.example",
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "mail bob@evil.example now",
    "mailto:bob@evil.example",
    "xmpp:bob@evil.example",
    "see http://a.example, then www.b.example.",
    "<https://evil.example>",
    "[click](https://evil.example)",
    "詳細は https://evil.example/ja を参照",
    "ftp://evil.example/file",
)


# --- config: uploads and error details --------------------------------------------------------


@pytest.fixture
def project_config(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Streamlit's config module, reading the project's .streamlit/config.toml (as `make run` does)."""
    from streamlit import config

    for name in list(os.environ):
        if name.startswith("STREAMLIT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(ROOT)
    config.get_config_options(force_reparse=True)
    yield config
    monkeypatch.undo()
    config.get_config_options(force_reparse=True)


def test_uploads_are_capped_at_what_a_pack_needs(project_config) -> None:
    limit_mb = project_config.get_option("server.maxUploadSize")  # Streamlit's default: 200 MB
    assert UploadLimits().upload_bytes <= limit_mb * MIB <= 5 * MIB, limit_mb


def test_visitors_get_no_exception_details(project_config) -> None:
    assert project_config.get_option("client.showErrorDetails") == "none"  # default "full": traceback to all


def test_no_full_garbage_collection_after_every_script_run(project_config) -> None:
    """Streamlit's default runs gc.collect(2) after every run: 86 % of a loaded server's time
    (docs/DEPLOYMENT.md, make capacity)."""
    assert project_config.get_option("runner.postScriptGC") is False


# Three PUTs, as a client that asked for an upload URL can send them whatever the page allows.
PUT_SIZES = """async ([url, token, sizes]) => {
    const statuses = [];
    for (const size of sizes) {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(size)]), 'pack.zip');
        const response = await fetch(url, {method: 'PUT', body: form, headers: {'X-Xsrftoken': token}});
        statuses.push(response.status);
    }
    return statuses;
}"""


@pytest.mark.e2e
def test_the_server_refuses_an_upload_over_the_limit(browser, markdown_server) -> None:
    """An upload URL from the page, then bodies of 1, 3 and 20 MiB sent to it directly."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=driver.VIEWPORT, locale="en-US", timezone_id="UTC")
    try:
        page = context.new_page()
        page.goto(markdown_server.url)
        expect(page.get_by_text("drawn", exact=True)).to_be_visible()
        driver.settle(page)
        with page.expect_request(lambda r: r.method == "PUT" and "/_stcore/upload_file/" in r.url) as put:
            page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
                {"name": "a.yaml", "mimeType": "text/yaml", "buffer": b"cards: []\n"})
        request = put.value
        statuses = page.evaluate(PUT_SIZES, [request.url, request.headers.get("x-xsrftoken", ""),
                                             [1 * MIB, 3 * MIB, 20 * MIB]])
    finally:
        context.close()
    assert statuses[0] in (200, 204), statuses  # a pack's size passes
    assert statuses[1:] == [413, 413], statuses  # before: 204, 204 (up to 200 MB, held in memory)


# --- nesting: the server survives a deep card file in the shipped cards folder --------------------


class DeepContentServer(AppServer):
    """The app with a shipped-cards folder that holds one card file nested 100,000 deep."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.scenarios = workdir / "scenarios"

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env["QUIZ_SCENARIOS_DIR"] = str(self.scenarios)
        return env


@pytest.mark.e2e
def test_a_deeply_nested_card_file_does_not_kill_the_server(tmp_path: Path, browser) -> None:
    from playwright.sync_api import expect

    server = DeepContentServer(tmp_path)
    shutil.copytree(SCENARIOS_DIR, server.scenarios)
    deep = server.scenarios / "yugioh-ocg" / "deep.yaml"
    deep.write_text("cards:\n  - " + "[" * 100_000 + "\n", encoding="utf-8")
    context = browser.new_context(viewport=driver.VIEWPORT, locale="en-US", timezone_id="UTC")
    try:
        server.start()
        page = context.new_page()
        try:
            driver.open_page(page, server.url, "", title="Practice", lang="en")  # the first run loads the content
        except AssertionError:
            exit_code = server.process.poll() if server.process is not None else None
            pytest.fail(f"the page was not drawn; server exit code {exit_code} (-11: SIGSEGV)\n{server.log_tail()}")
        assert server.running, server.log_tail()
        driver.open_page(page, server.url, "content", title="Content", lang="en")
        expect(driver.main(page).get_by_text("1 problem found.", exact=False)).to_be_visible()
        assert server.running, server.log_tail()
    finally:
        context.close()
        server.stop()


# --- links: escaped text renders without any link ---------------------------------------------------


class MarkdownServer(AppServer):
    """``streamlit run`` on a script that shows each of LINK_TEXTS through ``escape_markdown``."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.script = workdir / "links.py"
        self.script.write_text(textwrap.dedent(f"""\
            import sys
            sys.path.insert(0, {str(ROOT)!r})
            import streamlit as st
            from quiz.ui.markdown import escape_markdown, quote_block

            TEXTS = {LINK_TEXTS!r}
            with st.sidebar:
                for i, text in enumerate(TEXTS):
                    with st.container(key=f"side-{{i}}"):
                        st.markdown(escape_markdown(text))
            for i, text in enumerate(TEXTS):
                with st.container(key=f"text-{{i}}"):
                    st.markdown(escape_markdown(text))
                with st.container(key=f"heading-{{i}}"):
                    st.subheader("Progress of " + escape_markdown(text), anchor=False)
                with st.container(key=f"quote-{{i}}"):
                    st.markdown(quote_block(text))
            # for the size limit: the server's, not this widget's (this script installs no upload
            # quota, quiz.ui.streamlit_internals.upload_limit: its uploads are kept; tests/reliability/test_upload_quota.py)
            st.file_uploader("probe", key="probe")
            st.caption("drawn")
        """), encoding="utf-8")

    def command(self) -> list[str]:
        command = super().command()
        at = command.index("app.py")
        return [*command[:at], str(self.script), *command[at + 1:]]


@pytest.fixture(scope="module")
def markdown_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MarkdownServer]:
    server = MarkdownServer(tmp_path_factory.mktemp("links"))
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.mark.e2e
def test_urls_and_addresses_in_escaped_text_are_not_links(browser, markdown_server: MarkdownServer) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=driver.VIEWPORT, locale="en-US", timezone_id="UTC")
    try:
        page = context.new_page()
        page.goto(markdown_server.url)
        expect(page.get_by_text("drawn", exact=True)).to_be_visible()
        driver.settle(page)
        driver.assert_no_exception(page)
        shown = page.evaluate("""() => [...document.querySelectorAll('[class*="st-key-"]')].map(el => ({
            key: [...el.classList].find(c => c.startsWith('st-key-')).slice(7),
            links: [...el.querySelectorAll('a')].map(a => a.getAttribute('href')),
            text: el.innerText,
        }))""")
    finally:
        context.close()
    shown = [item for item in shown if item["key"].startswith(("side-", "text-", "heading-", "quote-"))]
    assert len(shown) == 4 * len(LINK_TEXTS)
    linked = {item["key"]: item["links"] for item in shown if item["links"]}
    assert linked == {}, linked  # before: 44 of the 56 blocks held an <a href="http://...">
    for item in shown:
        kind, index = item["key"].rsplit("-", 1)
        text = LINK_TEXTS[int(index)]
        expected = ("Progress of " + text) if kind == "heading" else text
        assert item["text"].replace(WORD_JOINER, "").strip() == expected, item  # reads the same


# --- rerun floods: thousands of rerun requests on one websocket -------------------------------------

FLOOD_MESSAGES = 2_000  # BackMsg.rerun_script of 11 bytes each, sent as fast as the socket takes them
FLOOD_FLOOR_RUNS = 3  # fresh sessions timed before the flood: the floor is the slowest of them
FLOOD_BOUND = 20  # how many floors the health endpoint and another tab may take while the flood is handled
FLOOD_QUERY = "lang=en"
FLOOD_QUIET = 1.0  # seconds of watching after the flooding session's first finished run after the flood


def _stream_url(base: str) -> str:
    return base.replace("http://", "ws://", 1) + "/_stcore/stream"


async def _fresh_session_run(base: str, timeout: float) -> float:
    """Seconds for a new tab: open the websocket, run the default page to its end."""
    from websockets.asyncio.client import connect
    from websockets.typing import Subprotocol

    from quizbench.capacity.protocol import Tab

    started = time.monotonic()
    async with connect(_stream_url(base), subprotocols=[Subprotocol("streamlit")], max_size=64 * 2**20, open_timeout=timeout,
                       proxy=None, ping_interval=None) as socket:
        await Tab(socket, FLOOD_QUERY, timeout).run()
    return time.monotonic() - started


def _poll_health(base: str, timeout: float, latencies: list[float], stop: threading.Event) -> None:
    """GET /_stcore/health every 50 ms until ``stop``; each answer's seconds (inf: none in ``timeout``)."""
    while not stop.is_set():
        started = time.monotonic()
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=timeout) as response:  # noqa: S310 - local
                response.read()
            latencies.append(time.monotonic() - started)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            latencies.append(float("inf"))
        stop.wait(0.05)  # the polling period, not a wait for the app


@dataclass
class FloodRun:
    floor: float  # seconds: the slowest of the fresh sessions' first runs before the flood
    sent_in: float = 0.0  # seconds to send the flood
    second_session: float = float("inf")  # seconds for a new tab's first run, started as the flood ends
    health: list[float] = field(default_factory=list)  # latencies of /_stcore/health from the flood's start
    runs_started: int = 0  # runs the flooding session was given (new_session messages it got)
    finished_after_flood: bool = False  # the flooding session got a finished run after its last message

    @property
    def bound(self) -> float:
        return FLOOD_BOUND * self.floor


async def _rerun_flood(base: str) -> FloodRun:
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect
    from websockets.typing import Subprotocol

    await _fresh_session_run(base, 60)  # the first run loads the content (and installs the limit)
    run = FloodRun(floor=max([await _fresh_session_run(base, 60) for _ in range(FLOOD_FLOOR_RUNS)]))
    back = BackMsg()
    back.rerun_script.query_string = FLOOD_QUERY
    flood_message = back.SerializeToString()
    flood_sent = asyncio.Event()

    finished = asyncio.Event()

    async def read(socket) -> None:  # the flooder reads everything, so the server never drops it as slow
        async for frame in socket:
            message = ForwardMsg()
            message.ParseFromString(frame)
            kind = message.WhichOneof("type")
            run.runs_started += kind == "new_session"
            if (kind == "script_finished" and message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY
                    and flood_sent.is_set()):
                run.finished_after_flood = True
                finished.set()

    stop = threading.Event()
    poller = threading.Thread(target=_poll_health, args=(base, run.bound, run.health, stop), daemon=True)
    async with connect(_stream_url(base), subprotocols=[Subprotocol("streamlit")], max_size=64 * 2**20, proxy=None,
                       ping_interval=None) as socket:
        reader = asyncio.create_task(read(socket))
        poller.start()
        started = time.monotonic()
        try:
            for _ in range(FLOOD_MESSAGES):
                await socket.send(flood_message)
            flood_sent.set()
            run.sent_in = time.monotonic() - started
            with contextlib.suppress(TimeoutError):
                run.second_session = await asyncio.wait_for(_fresh_session_run(base, run.bound), run.bound)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(finished.wait(), run.bound)
            await asyncio.sleep(FLOOD_QUIET)  # runs still to come are counted, the health endpoint still polled
        finally:
            stop.set()
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            await asyncio.to_thread(poller.join, run.bound + 5)
    return run


def test_a_rerun_flood_on_one_websocket_does_not_hold_the_server(tmp_path: Path) -> None:
    """2,000 rerun requests sent at once on one websocket: the health endpoint and
    a new tab answer within 20 times the time of a plain page run measured just before. Before
    the limit (quiz.ui.streamlit_internals.rerun_limit) Streamlit started a script thread per message: the health
    endpoint and the new tab waited 5.7 s, over 100 such floors."""
    server = AppServer(tmp_path)
    with running(server):
        # on a thread of its own: a browser test before this one leaves Playwright's event loop on this thread
        with ThreadPoolExecutor(max_workers=1) as runner:
            run = runner.submit(asyncio.run, _rerun_flood(server.url)).result()
        log = server.log_path.read_text(encoding="utf-8", errors="replace")
    worst_health = max(run.health, default=float("inf"))
    print(f"\nrerun flood: floor {run.floor:.3f} s, bound {run.bound:.2f} s; {FLOOD_MESSAGES} messages sent in "
          f"{run.sent_in:.2f} s; second session's run {run.second_session:.2f} s; health worst {worst_health:.3f} s "
          f"over {len(run.health)} polls; the flooding session was given {run.runs_started} runs")
    assert run.second_session <= run.bound, f"another tab took {run.second_session:.2f} s (bound {run.bound:.2f} s)"
    assert worst_health <= run.bound, f"the health endpoint took {worst_health:.2f} s (bound {run.bound:.2f} s)"
    assert run.finished_after_flood, "the flooding session's last request never ran"  # held, not dropped
    assert log.count("asks for reruns faster than") == 1, server.log_tail()  # logged once, for that session
