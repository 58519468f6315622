"""Starting the floor app, and waiting for servers and HAProxy to be healthy (loopback only)."""

from __future__ import annotations

import csv
import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from quizbench.capacity import procstat

ROOT = Path(__file__).resolve().parents[2]
FLOOR_APP = Path(__file__).resolve().parent / "floor_app.py"
START_TIMEOUT = 120.0  # seconds for a Streamlit server to answer its health check on a busy machine
STOP_TIMEOUT = 15.0
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def streamlit_command(script: Path | str, port: int) -> list[str]:
    return [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]


def floor_command(port: int) -> list[str]:
    return streamlit_command(FLOOR_APP, port)


def get(url: str, timeout: float = 5.0) -> tuple[int, bytes]:
    with _OPENER.open(url, timeout=timeout) as response:
        return response.status, response.read()


def healthy(url: str) -> bool:
    try:
        status, body = get(f"{url.rstrip('/')}/_stcore/health", timeout=3.0)
    except OSError:
        return False
    return status == 200 and body.strip() == b"ok"


def haproxy_states(stats_url: str) -> dict[str, str]:
    """Server name -> status ("UP", "DOWN", "UP 1/2", ...) of HAProxy's stats page, as CSV."""
    _, body = get(f"{stats_url.rstrip('/')};csv", timeout=3.0)
    text = body.decode("utf-8", "replace").lstrip("# ")
    states = {}
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("svname") not in ("FRONTEND", "BACKEND") and row.get("pxname") != "stats":
            states[row["svname"]] = row.get("status", "")
    return states


def wait_healthy(urls: list[str], stats_url: str | None = None, timeout: float = START_TIMEOUT,
                 pids: list[int] = ()) -> str | None:
    """Poll until every URL answers its health check (and HAProxy has every server UP);
    None when they do, else what is still wrong."""
    deadline = time.monotonic() + timeout
    problem = "not checked yet"
    while time.monotonic() < deadline:
        dead = [pid for pid in pids if not procstat.alive(pid)]
        if dead:
            return f"process {dead} exited while starting"
        waiting = [u for u in urls if not healthy(u)]
        if waiting:
            problem = f"no health from {waiting}"
        elif stats_url:
            try:
                states = haproxy_states(stats_url)
            except OSError as error:
                states, problem = {}, f"HAProxy stats: {error}"
            else:
                down = {name: state for name, state in states.items() if not state.startswith("UP")}
                problem = f"HAProxy has servers not UP: {down}" if down or not states else ""
            if not problem:
                return None
        else:
            return None
        time.sleep(0.25)  # polling health endpoints, not waiting on the app
    return f"after {timeout:.0f} s: {problem}"


def wait_state(stats_url: str, server: str, wanted: str, timeout: float) -> float | None:
    """Poll HAProxy until ``server``'s status starts with ``wanted``; the seconds it took, or None."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            if haproxy_states(stats_url).get(server, "").startswith(wanted):
                return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.1)  # polling HAProxy's stats page
    return None


class StreamlitServer:
    """A ``streamlit run`` of a script on 127.0.0.1 (the floor, or a single app server)."""

    def __init__(
        self, script: Path, log_path: Path, port: int | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.script, self.log_path = script, log_path
        self.port = port or free_port()
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> StreamlitServer:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                streamlit_command(self.script, self.port), cwd=ROOT, env={**os.environ, **self.env,
                                                                          "PYTHONUNBUFFERED": "1"},
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            )
        problem = wait_healthy([self.url], pids=[self.process.pid])
        if problem:
            self.stop()
            raise RuntimeError(f"{self.script.name} did not start: {problem}\n{self.log_tail()}")
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT)

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
