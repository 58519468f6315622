"""The recommended deployment, run for real: two app servers behind HAProxy on one
PostgreSQL database, one of them killed with SIGKILL while trainees answer.

``scripts/cluster.sh`` brings the cluster up exactly as docs/DEPLOYMENT.md describes it
(HAProxy from Debian, installed when missing; the database is a fresh one on the server
of ``QUIZ_TEST_DATABASE_URL`` when ``make test`` gives one, else a throwaway PostgreSQL of
the script's own). Six websocket sessions (``quizbench.capacity.session``), two of them in
mock exams, sign in through HAProxy and answer. Once every session has three answers
acknowledged and every exam session is inside an exam, the server holding an exam session
is killed. Its sessions must reconnect through HAProxy to the other server, sign in again,
resume their exam and go on; every session must answer three more times; HAProxy must
mark the server DOWN; and every acknowledged answer must be in PostgreSQL (at most the
answers in flight at the kill may be stored without an acknowledgement).

The run stops as soon as all of that has happened: it waits on states, never on fixed
sleeps, and only its limits are in seconds (generous ones, for a busy 2-core machine).
Timings are printed (``-s``), never asserted. Skips with the reason where HAProxy or
PostgreSQL cannot be had.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from quizbench.capacity.accounts import create_trainees, stored_answers
from quizbench.capacity.cluster import Cluster, ClusterUnavailable, cluster_down, cluster_up, kill_report, kill_when
from quizbench.capacity.load import run_load
from quizbench.capacity.load_run_state import LoadSpec, RunState, SessionTally
from tests.databases import POSTGRES_VARIABLE, postgres_database

pytestmark = [pytest.mark.reliability, pytest.mark.timed]

SESSIONS = 6
EXAM_SESSIONS = 2
PIN = "cluster-2468"
THINK = (0.3, 1.0)  # seconds before each answer: a brisk trainee, a few answers a second in all
ANSWERS_BEFORE = 3  # per session, acknowledged before the kill
ANSWERS_AFTER = 3  # per session, acknowledged after it: then the run stops (about 30 s in all)
LIMIT = 300.0  # seconds: the run's upper bound; it normally stops after ~30 s
STEP_TIMEOUT = 120.0  # seconds for one script run on a busy, shared 2-core machine


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="quiz-cluster-test-"))
    os.chmod(folder, 0o755)  # a throwaway PostgreSQL runs as its own user and must reach its folder
    databases = postgres_database() if os.environ.get(POSTGRES_VARIABLE) else None
    try:
        database_url = next(databases) if databases is not None else None
        try:
            running = cluster_up(folder / "cluster", servers=2, port=0, database_url=database_url,
                                 content_dir=str(folder / "no-imported-content"))
        except ClusterUnavailable as missing:
            pytest.skip(f"no cluster here: {missing}")
        try:
            yield running
        finally:
            cluster_down(folder / "cluster")
    finally:
        if databases is not None:
            databases.close()  # drops the database
        shutil.rmtree(folder, ignore_errors=True)


def _server_with_an_exam(tallies: list[SessionTally]) -> int:
    """The server (0-based) that holds an exam session, preferring one that also holds a practice one."""
    on: dict[str, set[str]] = {}
    for tally in tallies:
        on.setdefault(tally.servers[-1], set()).add(tally.mode)
    ranked = sorted(on, key=lambda name: ("exam" in on[name], len(on[name])), reverse=True)
    return int(ranked[0].removeprefix("app")) - 1


def test_two_servers_behind_haproxy_survive_a_kill(cluster: Cluster) -> None:
    names = [f"cluster-{n}" for n in range(1, SESSIONS + 1)]
    create_trainees(cluster.database_url, names, PIN)
    record: dict = {}

    def ready(run: RunState, tallies: list[SessionTally]) -> bool:
        return all(t.acknowledged >= ANSWERS_BEFORE and t.signed_in for t in tallies) and all(
            t.exam_open for t in tallies if t.mode == "exam")

    kill = kill_when(cluster, _server_with_an_exam, ready, record)

    async def control(run: RunState, tallies: list[SessionTally]) -> None:
        await kill(run, tallies)
        while not all(sum(a > record["kill_at_s"] for a in t.acked_at) >= ANSWERS_AFTER for t in tallies):
            await asyncio.sleep(0.1)  # watching the sessions, not waiting on the app
        run.stop.set()

    spec = LoadSpec(url=cluster.url, trainees=names, pin=PIN, duration=LIMIT, think=THINK,
                    exam_share=EXAM_SESSIONS / SESSIONS, step_timeout=STEP_TIMEOUT,
                    server_pids=list(cluster.app_pids), metrics_urls=list(cluster.app_urls))
    result = run_load(spec, control)
    stored = stored_answers(cluster.database_url, names)
    report = kill_report(result.sessions, record)
    figures = result.figures()
    print(f"\ncluster: {figures['answers_acknowledged']} answers acknowledged, {sum(stored.values())} stored; "
          f"sessions per server {figures['sessions_per_server']}; killed {report.get('server')} at "
          f"{report.get('kill_at_s')} s, marked DOWN after {report.get('marked_down_after_s')} s; "
          f"drop to signed in again {report.get('drop_to_signed_in_s')}; run {result.finished:.1f} s; "
          f"click to feedback {figures['click_to_feedback_s']}")
    logs = cluster.logs()

    failed = {t.trainee: t.errors for t in result.sessions if t.errors}
    assert not failed, failed
    assert report["killed"], "the server was never killed: " + str({t.trainee: t.acknowledged for t in result.sessions})
    assert figures["exceptions"] == 0
    assert set(figures["sessions_per_server"]) == {"app1", "app2"}  # HAProxy spread the sessions
    killed = report["server"]
    hit = [t for t in result.sessions if t.servers[0] == killed]
    assert hit and report["sessions_on_killed_server"] == len(hit)
    for tally in hit:  # reconnected through HAProxy to the other server, signed in again, went on
        assert tally.drops and tally.rejoined, tally
        assert tally.servers[-1] != killed, tally.servers
        if tally.mode == "exam":
            assert tally.exams_resumed >= 1, tally
    for tally in result.sessions:
        after = sum(a > record["kill_at_s"] for a in tally.acked_at)
        assert after >= ANSWERS_AFTER, f"{tally.trainee} answered {after} times after the kill"
        if tally.servers[0] != killed:
            assert not tally.drops, f"{tally.trainee} lost its connection to the surviving server"
    assert report["marked_down_after_s"] is not None, "HAProxy never marked the killed server DOWN"

    acked = result.acknowledged_per_trainee()
    in_flight = {t.trainee: t.in_flight_lost for t in result.sessions}
    for name in names:  # nothing acknowledged is lost; only answers in flight at the kill may be extra
        assert acked[name] <= stored[name] <= acked[name] + in_flight[name], (name, acked[name], stored[name])

    survivor = cluster.app_names.index(killed) ^ 1
    assert "Traceback" not in logs[f"app{survivor + 1}.log"], logs[f"app{survivor + 1}.log"][-3000:]
