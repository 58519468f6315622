"""A real ``streamlit run app.py`` in a subprocess, on a free port and its own SQLite file."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0  # seconds until /_stcore/health must answer "ok"
STOP_TIMEOUT = 10.0  # seconds between terminate and kill


def free_port() -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AppServer:
    """The app served by Streamlit; ``restart`` keeps the port and the database."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.database = workdir / "e2e.db"
        self.log_path = workdir / "streamlit.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def database_url(self) -> str:
        return f"sqlite:///{self.database}"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.port", str(self.port),
            "--server.address", "127.0.0.1",  # not reachable from other machines during the test run
            "--server.headless", "true",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",  # edits made while the tests run must not rerun the app
        ]

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env["QUIZ_DATABASE_URL"] = self.database_url
        env["QUIZ_CONTENT_DIR"] = str(self.workdir / "no-imported-content")  # the shipped cards only
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def start(self) -> None:
        if self.running:
            return
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start {self.starts}: {' '.join(self.command())}\n".encode())
            self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                self.command(), cwd=ROOT, env=self.environment(),
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            )
        self._wait_until_healthy()

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

    def restart(self) -> None:
        """Stop the server and start a new one on the same port and database."""
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 60) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        health = f"{self.url}/_stcore/health"
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                self.process = None
                raise RuntimeError(f"streamlit exited with code {code} while starting:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(health, timeout=2) as response:  # noqa: S310 - our local server
                    if response.status == 200 and response.read().strip() == b"ok":
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)  # polling the health endpoint, not waiting on the page
        self.stop()
        raise RuntimeError(f"streamlit did not answer {health} within {START_TIMEOUT:.0f} s:\n{self.log_tail()}")
