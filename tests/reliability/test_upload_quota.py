"""Uploads from a session no page armed fill no memory (quiz.ui.streamlit_internals.upload_limit).

A real ``streamlit run app.py``. An anonymous tab (a raw websocket that runs the default
page, as a browser would) asks for an upload URL, takes the XSRF cookie from
``/_stcore/health`` and PUTs 100 files of about 2 MB: to the id it was issued and to ids
made up. Before, each was answered 204 and kept in the server's memory until the session
ended (RSS up by about 200 MiB, held after the tab closed); now each is refused with 403 and
the server's RSS stays within ``RSS_BOUND`` of what it was before. A supervisor's upload on
the Content page: ``tests/e2e/test_content_packs.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from quiz.access.upload_quota import Refusal
from quiz.content.uploads import MIB
from quiz.ui.streamlit_internals import upload_limit
from tests.e2e.configured_server import running
from tests.e2e.server import AppServer

pytestmark = [pytest.mark.reliability, pytest.mark.timed]

PUTS = 100
FILE_BYTES = 2 * MIB - 4096  # about the largest file the endpoint takes (server.maxUploadSize counts the framing)
RSS_BOUND = 40 * MIB  # growth allowed: a few request bodies being read, not the files (before: about 200 MiB)
XSRF_COOKIE = "_streamlit_xsrf"
QUERY = "lang=en"


def rss(pid: int) -> int:
    """The resident memory of process ``pid``, in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")


@dataclass
class Probe:
    rss_before: int = 0
    rss_after: int = 0
    statuses: list[int] = field(default_factory=list)
    details: set[str] = field(default_factory=set)
    seconds: float = 0.0


def put_files(base: str, session_id: str, file_ids: list[str], probe: Probe) -> None:
    """The probe: the XSRF cookie from the health endpoint, then a PUT of FILE_BYTES per id."""
    import httpx

    body = b"\0" * FILE_BYTES
    with httpx.Client(base_url=base, timeout=30) as client:
        client.get("/_stcore/health").raise_for_status()
        token = client.cookies[XSRF_COOKIE]
        started = time.monotonic()
        for file_id in file_ids:
            response = client.put(f"/_stcore/upload_file/{session_id}/{file_id}", headers={"X-Xsrftoken": token},
                                  files={"file": ("pack.zip", body, "application/zip")})
            probe.statuses.append(response.status_code)
            probe.details.add(response.text)
        probe.seconds = time.monotonic() - started


async def anonymous_probe(server: AppServer) -> Probe:
    """An anonymous tab on the default page, and PUTS uploads to its session while it is open."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect
    from websockets.typing import Subprotocol

    assert server.process is not None
    probe = Probe()
    url = server.url.replace("http://", "ws://", 1) + "/_stcore/stream"
    async with connect(url, subprotocols=[Subprotocol("streamlit")], max_size=64 * 2**20, proxy=None,
                       ping_interval=None) as socket:
        back = BackMsg()
        back.rerun_script.query_string = QUERY
        await socket.send(back.SerializeToString())
        session_id, issued = "", ""
        while not issued:
            message = ForwardMsg()
            message.ParseFromString(await asyncio.wait_for(socket.recv(), 60))
            kind = message.WhichOneof("type")
            if kind == "new_session":
                session_id = message.new_session.initialize.session_id or session_id
            elif kind == "script_finished" and not issued:
                ask = BackMsg()  # what a browser's uploader sends when a file is picked
                ask.file_urls_request.request_id = "probe"
                ask.file_urls_request.file_names.append("pack.zip")
                await socket.send(ask.SerializeToString())
            elif kind == "file_urls_response":
                issued = message.file_urls_response.file_urls[0].file_id
        assert session_id, "the server named no session"
        drain = asyncio.create_task(_drain(socket))
        probe.rss_before = rss(server.process.pid)
        file_ids = [issued] + [str(uuid.uuid4()) for _ in range(PUTS - 1)]
        await asyncio.to_thread(put_files, server.url, session_id, file_ids, probe)
        await asyncio.sleep(1.0)  # let the server settle: bodies read and dropped
        probe.rss_after = rss(server.process.pid)
        drain.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await drain
    return probe


async def _drain(socket) -> None:
    async for _ in socket:  # read everything, so the server never drops the tab as slow
        pass


def test_an_anonymous_session_cannot_fill_the_servers_memory_with_uploads(tmp_path: Path) -> None:
    server = AppServer(tmp_path)
    with running(server):
        with ThreadPoolExecutor(max_workers=1) as runner:  # a browser test may hold this thread's event loop
            probe = runner.submit(asyncio.run, anonymous_probe(server)).result()
        log = server.log_path.read_text(encoding="utf-8", errors="replace")
    growth = probe.rss_after - probe.rss_before
    print(f"\n{PUTS} anonymous uploads of {FILE_BYTES / MIB:.2f} MiB in {probe.seconds:.1f} s: statuses "
          f"{sorted(set(probe.statuses))}; server RSS {probe.rss_before / MIB:.0f} -> {probe.rss_after / MIB:.0f} MiB "
          f"({growth / MIB:+.0f} MiB)")
    assert probe.statuses == [403] * PUTS, sorted(set(probe.statuses))  # before: 204 each, every file kept
    assert probe.details == {upload_limit.DETAIL[Refusal.NOT_ARMED]}, probe.details  # plain text
    assert growth <= RSS_BOUND, f"the server's RSS grew {growth / MIB:.0f} MiB (bound {RSS_BOUND / MIB:.0f} MiB)"
    assert log.count("refused (not_armed)") == 1, server.log_tail()  # logged once for the session
