"""scripts/cluster.sh from Python: bring a cluster up, read its state, kill a server, take it down."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from quizbench.capacity.load_run_state import Controller, RunState, SessionTally
from quizbench.capacity.servers import ROOT, wait_state
from quizbench.capacity.stats import summary

SCRIPT = ROOT / "scripts" / "cluster.sh"
UNAVAILABLE = 3  # cluster.sh: haproxy or PostgreSQL cannot be had on this machine


class ClusterUnavailable(RuntimeError):
    """HAProxy or PostgreSQL is missing here and cannot be installed."""


def parse_state(text: str) -> dict[str, str]:
    """cluster.env: ``KEY='value'`` lines."""
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip():
            values[key.strip()] = value.strip().strip("'")
    return values


@dataclass
class Cluster:
    folder: Path
    url: str  # HAProxy
    stats_url: str
    database_url: str
    app_urls: list[str]
    app_pids: list[int]
    haproxy_pid: int

    @classmethod
    def read(cls, folder: Path) -> Cluster:
        state = parse_state((folder / "cluster.env").read_text(encoding="utf-8"))
        return cls(
            folder=folder, url=state["CLUSTER_URL"], stats_url=state["CLUSTER_STATS_URL"],
            database_url=state["CLUSTER_DATABASE_URL"], app_urls=state["CLUSTER_APP_URLS"].split(),
            app_pids=[int(p) for p in state["CLUSTER_APP_PIDS"].split()], haproxy_pid=int(state["CLUSTER_HAPROXY_PID"]),
        )

    @property
    def app_names(self) -> list[str]:
        return [f"app{n}" for n in range(1, len(self.app_urls) + 1)]  # as haproxy.py names them

    def kill(self, index: int) -> int:
        """SIGKILL the app server ``index`` (0-based); its PID."""
        pid = self.app_pids[index]
        os.kill(pid, signal.SIGKILL)
        return pid

    def logs(self) -> dict[str, str]:
        return {p.name: p.read_text(encoding="utf-8", errors="replace") for p in sorted(self.folder.glob("app*.log"))}


def _environment(folder: Path, servers: int, port: int, database_url: str | None,
                 content_dir: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("QUIZ_DATABASE_URL", None)  # only the database asked for here, never one from the caller's shell
    env.update(CLUSTER_DIR=str(folder), CLUSTER_SERVERS=str(servers), CLUSTER_PORT=str(port))
    if database_url:
        env["QUIZ_DATABASE_URL"] = database_url
    if content_dir:
        env["QUIZ_CONTENT_DIR"] = content_dir
    return env


def cluster_up(folder: Path, servers: int = 2, port: int = 0, database_url: str | None = None,
               content_dir: str | None = None, timeout: float = 600.0) -> Cluster:
    """``scripts/cluster.sh up``: raises ClusterUnavailable when a part cannot be had here."""
    result = subprocess.run(  # noqa: S603 - our own script
        ["bash", str(SCRIPT), "up"], cwd=ROOT, env=_environment(folder, servers, port, database_url, content_dir),
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, check=False,
    )
    if result.returncode == UNAVAILABLE:
        raise ClusterUnavailable(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "unavailable")
    if result.returncode != 0:
        raise RuntimeError(f"cluster.sh up failed ({result.returncode}):\n{result.stderr[-4000:]}")
    return Cluster.read(folder)


def cluster_down(folder: Path, timeout: float = 120.0) -> None:
    subprocess.run(  # noqa: S603 - our own script
        ["bash", str(SCRIPT), "down"], cwd=ROOT, env={**os.environ, "CLUSTER_DIR": str(folder)},
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, check=False,
    )


@contextmanager
def running_cluster(folder: Path, **options) -> Iterator[Cluster]:
    try:
        cluster = cluster_up(folder, **options)
    except BaseException:
        cluster_down(folder)
        raise
    try:
        yield cluster
    finally:
        cluster_down(folder)


def kill_when(cluster: Cluster, index: int | Callable[[list[SessionTally]], int],
              ready: Callable[[RunState, list[SessionTally]], bool], record: dict,
              down_timeout: float = 60.0) -> Controller:
    """A load controller: once ``ready`` holds, SIGKILL app server ``index`` (0-based, or
    chosen then from the sessions by a function) and time how long HAProxy takes to mark it
    DOWN (``record`` gets ``server``, ``pid``, ``kill_at_s`` and ``marked_down_after_s``)."""

    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        while not ready(run, tallies):
            await asyncio.sleep(0.1)  # checking the sessions' state, not waiting on the app
        chosen = index(tallies) if callable(index) else index
        name = cluster.app_names[chosen]
        record["pid"] = cluster.kill(chosen)
        record["kill_at_s"] = run.now()
        record["server"] = name
        run.event("kill", server=name, pid=record["pid"])
        after = await asyncio.to_thread(wait_state, cluster.stats_url, name, "DOWN", down_timeout)
        record["marked_down_after_s"] = after
        run.event("marked_down", server=name, after_s=None if after is None else round(after, 2))

    return control


def kill_report(tallies: list[SessionTally], record: dict) -> dict:
    """What the sessions of the killed server did: reconnected, signed in again, went on."""
    killed_at = record.get("kill_at_s")
    server = record.get("server")
    if killed_at is None:
        return {"killed": False}
    hit = [t for t in tallies if t.servers and t.servers[0] == server]
    gaps = []
    for tally in hit:
        drops = [d for d in tally.drops if d >= killed_at]
        rejoins = [r for r in tally.rejoined if drops and r >= drops[0]]
        if drops and rejoins:
            gaps.append(rejoins[0] - drops[0])
    return {
        "killed": True,
        "server": server,
        "kill_at_s": round(killed_at, 2),
        "marked_down_after_s": None if record.get("marked_down_after_s") is None
        else round(record["marked_down_after_s"], 2),
        "sessions_on_killed_server": len(hit),
        "sessions_dropped": sum(any(d >= killed_at for d in t.drops) for t in hit),
        "sessions_signed_in_again": sum(any(r >= killed_at for r in t.rejoined) for t in hit),
        "sessions_moved_to": sorted({t.servers[-1] for t in hit if len(t.servers) > 1}),
        "sessions_answering_after": sum(any(a > killed_at for a in t.acked_at) for t in hit),
        "exam_sessions_on_killed_server": sum(t.mode == "exam" for t in hit),
        "exams_resumed": sum(t.exams_resumed for t in hit),
        "answers_in_flight": sum(t.in_flight_lost for t in hit),
        "drop_to_signed_in_s": summary(gaps),
    }
