"""The whole capacity measurement behind ``CAPACITY_JSON=FILE make capacity``.

1. A cluster comes up (scripts/cluster.sh: a throwaway PostgreSQL, two app servers,
   HAProxy), and the floor app beside it.
2. **Floor and app in turns, one server**: the same saturating load (sessions answering
   practice cards with no think time) against the floor and against app server 1 directly,
   taken in turns (floor, app, floor, app, ...); the medians give answers/min per server,
   the ratio to the floor, and server CPU seconds per answer of each.
3. **Two servers behind HAProxy**: twice the sessions (as many per server as in 2), through
   HAProxy: the scale over one server.
4. **Human pace, one server each, side by side**: 200 sessions (a quarter of them in mock
   exams) answering one card every 20–40 s, for 2 minutes with all of them connected,
   against app server 1 directly, and at the same time 200 more against the floor app (whose
   exams have the app's clock, counted down in the browser): the app's click-to-feedback
   p95, exceptions, server RSS growth; each server's CPU per answer, their ratio, and the app
   servers 1,000 trainees need at the app's (``servers_for``). The two run side by side so
   that the machine's drift falls on both alike (taken one after the other, the floor's own
   figure moved by 17 % between two runs of the same code); each on one server, so that
   neither pays a second server's fixed cost (through HAProxy on two servers, the app's did).
   The load tool's CPU (``client_cpu_s``) is then the two loads' together.
5. **A server killed**: sessions answering at a brisk pace through HAProxy; once all are
   answering, app server 2 gets SIGKILL. Its sessions reconnect through HAProxy (to server
   1), sign in again and go on; exams resume.
6. Every acknowledged answer of every app run is compared with the ``attempts`` rows of its
   trainee in PostgreSQL; then the cluster goes down and the JSON is written.

Every phase's length and size can be shortened by environment variables for development
(``Settings.from_env``). Load goes to 127.0.0.1 only.
"""

from __future__ import annotations

import json
import math
import os
import platform
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Callable, Mapping

from quiz.ui.streamlit_internals.rerun_limit import SESSION_RATE
from quizbench.capacity.accounts import create_trainees, stored_answers
from quizbench.capacity.cluster import Cluster, kill_report, kill_when, running_cluster
from quizbench.capacity.load import run_load
from quizbench.capacity.load_run_state import LoadResult, LoadSpec, RunState, SessionTally
from quizbench.capacity.servers import FLOOR_APP, StreamlitServer
from quizbench.capacity.stats import losses, median, ratio, rounded

PIN = "capacity-2468"
REQUIRED_KEYS = (
    "per_server_answers_per_min", "floor_answers_per_min", "per_server_ratio_to_floor", "two_server_scale",
    "p95_click_to_feedback_s", "sessions", "answers_acknowledged", "answers_lost", "kill_answers_lost",
    "human_cpu_per_answer_s", "human_cpu_ratio_to_floor", "servers_for_1000", "floor_servers_for_1000",
)


# 1,000 trainees at the human pace, each using the server CPU a session of the human-pace
# phase used (its window's CPU seconds per second, over its sessions: answers, a floor call's
# steps, exams, Next card; a floor call takes longer than a card, so a count of answers alone
# overstated it); each server process uses at most one core (the GIL) and is kept under half
# busy, for a p95 well under a second; one server more, so that one can fail without the
# others going over.
EVENT_TRAINEES = 1000
SERVER_BUSY_SHARE = 0.5
SPARE_SERVERS = 1


def servers_for(trainees: int, cores_per_trainee: float | None) -> int | None:
    """App servers (a core each) for ``trainees`` at a human pace, one spare included."""
    if cores_per_trainee is None:
        return None
    cores = trainees * cores_per_trainee
    return max(math.ceil(cores / SERVER_BUSY_SHARE), 1) + SPARE_SERVERS


def cores_per_session(phase: Mapping) -> float | None:
    """The server CPU seconds per second of one session in a load phase's window (every
    session connected in it), from the phase's figures; None without a server's CPU."""
    start, end = phase["window_s"]
    sessions = phase["sessions_connected_max"]
    cpu = sum(server["cpu_s_window"] or 0 for server in phase["servers"].values())
    if not phase["servers"] or end <= start or not sessions:
        return None
    return cpu / (end - start) / sessions


def cores_busy(phase: Mapping) -> dict[str, float | None]:
    """The cores a load phase kept busy: its servers' (CPU seconds per second of the window)
    and the load tool's own (over the run). Beside the machine's cores they say whether the
    machine, not the app, set a phase's pace (PostgreSQL and HAProxy come on top)."""
    start, end = phase["window_s"]
    servers = [server["cpu_s_window"] for server in phase["servers"].values()]
    server_cores = sum(servers) / (end - start) if servers and None not in servers and end > start else None
    client = phase.get("client_cpu_s")
    duration = phase.get("duration_s") or 0
    return {"servers": rounded(server_cores, 2),
            "load_client": rounded(client / duration, 2) if client is not None and duration else None}


def _pair(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


@dataclass
class Settings:
    """Sizes and lengths of the phases (environment variable ``CAPACITY_<NAME>`` each)."""

    turns: int = 2  # floor/app turns each
    turn_s: float = 40.0  # seconds of answering per turn (and for the two-server run)
    # sessions per server in the saturating runs: enough that each asks for fewer runs a
    # second than the app's per-session rerun limit (quiz/ui/streamlit_internals/rerun_limit.py: 10; 8 did not,
    # once the card became a fragment: their 2,512/min was the limit's)
    saturation_sessions: int = 16
    human_sessions: int = 200
    human_s: float = 120.0  # seconds with every session connected
    human_ramp_s: float = 60.0  # sessions arrive over this time (each signs in: a scrypt check)
    human_think: str = "20-40"
    human_exam_share: float = 0.25
    kill_sessions: int = 40
    kill_s: float = 60.0
    kill_think: str = "2-5"
    kill_exam_share: float = 0.25
    step_timeout: float = 60.0
    database_url: str = ""  # empty: a throwaway PostgreSQL
    cluster_dir: str = ""  # empty: a temporary folder

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        values = {}
        for spec in fields(cls):
            raw = env.get(f"CAPACITY_{spec.name.upper()}")
            if raw is None or raw == "":
                continue
            kind = type(getattr(cls(), spec.name))
            values[spec.name] = kind(raw)
        return cls(**values)


def _names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}-{n:03d}" for n in range(1, count + 1)]


def _brief(result: LoadResult, app: bool = True) -> dict:
    """The run's figures; for the app (the floor has no rerun limit), whether its per-session
    rerun limit set the pace."""
    figures = result.figures()
    figures.pop("events", None)
    figures["runs_per_session_s"] = runs_per_session_s(figures)
    figures["at_session_rerun_limit"] = app and at_rerun_limit(figures["runs_per_session_s"])
    return figures


def runs_per_session_s(figures: Mapping) -> float | None:
    """Script runs a second that each session asked for, on average (answers and moves on)."""
    sessions, rate = figures.get("sessions"), figures.get("answers_per_min")
    per_answer = (figures.get("script_runs_per_submit") or 0) + (figures.get("script_runs_per_next") or 0)
    if not sessions or rate is None:
        return None
    return rounded(rate / 60 / sessions * per_answer, 2)


def at_rerun_limit(runs_per_s: float | None) -> bool:
    """Whether the sessions ran at (90 % of) the app's per-session rerun limit: then the limit,
    not the server, set the pace, and the answers per minute say nothing of the server."""
    return runs_per_s is not None and runs_per_s >= 0.9 * SESSION_RATE.per_second


def measure(json_path: Path | None, settings: Settings, log: Callable[[str], None] = print) -> dict:
    started = time.monotonic()
    run_id = time.strftime("%H%M%S")
    acked: dict[str, int] = {}  # every app run's acknowledged answers, per trainee
    figures: dict = {
        "settings": asdict(settings) | {"database_url": "given" if settings.database_url else "throwaway"},
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_start": [round(x, 2) for x in os.getloadavg()]},
    }
    with tempfile.TemporaryDirectory(prefix="quiz-capacity-") as tmp:
        os.chmod(tmp, 0o755)  # PostgreSQL runs as its own user and must reach its data folder
        folder = Path(settings.cluster_dir) if settings.cluster_dir else Path(tmp) / "cluster"
        content = Path(tmp) / "no-imported-content"  # the shipped cards only
        log(f"capacity: cluster up in {folder}")
        with running_cluster(folder, servers=2, port=0, database_url=settings.database_url or None,
                             content_dir=str(content)) as cluster:
            floor = StreamlitServer(FLOOR_APP, Path(tmp) / "floor.log").start()
            try:
                figures.update(_phases(cluster, floor, settings, run_id, acked, log))
            finally:
                floor.stop()
            log("capacity: counting stored answers")
            stored = stored_answers(cluster.database_url, sorted(acked))
            kill_names = [n for n in acked if n.startswith(f"k{run_id}-")]
            everything = losses(acked, stored)
            killed = losses({n: acked[n] for n in kill_names}, {n: stored[n] for n in kill_names})
            steady = losses({n: acked[n] for n in acked if n not in kill_names},
                            {n: stored[n] for n in acked if n not in kill_names})
            figures["answers_acknowledged"] = everything["acknowledged"]
            figures["answers_stored"] = everything["stored"]
            figures["answers_lost"] = everything["lost"]
            figures["answers_stored_unacknowledged_without_kill"] = steady["stored_unacknowledged"]
            figures["kill_answers_lost"] = killed["lost"]
            figures["kill_answers_stored_unacknowledged"] = killed["stored_unacknowledged"]
            log("capacity: cluster down")
    figures["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    figures["total_s"] = round(time.monotonic() - started, 1)
    missing = [key for key in REQUIRED_KEYS if key not in figures]
    if missing:
        raise RuntimeError(f"the figures lack {missing}")
    if json_path is not None:
        json_path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        log(f"capacity: figures in {json_path}")
    return figures


def _phases(cluster: Cluster, floor: StreamlitServer, settings: Settings, run_id: str, acked: dict[str, int],
            log: Callable[[str], None]) -> dict:
    app1, app2 = cluster.app_urls[0], cluster.app_urls[1]
    pid1, pid2 = cluster.app_pids
    n = settings.saturation_sessions
    out: dict = {}

    def load(url: str, names: list[str], pids: list[int], metrics: list[str], duration: float, *,
             think=(0.0, 0.0), ramp=0.0, exam_share=0.0, controller=None, app=True, max_answers=None,
             created=False) -> LoadResult:
        if app and not created:
            create_trainees(cluster.database_url, names, PIN)
        spec = LoadSpec(url=url, trainees=names, pin=PIN, duration=duration, think=think, ramp=ramp,
                        exam_share=exam_share, step_timeout=settings.step_timeout, server_pids=pids,
                        metrics_urls=metrics, max_answers=max_answers,
                        stats_url=cluster.stats_url if url == cluster.url else None)
        result = run_load(spec, controller)
        if app:
            for name, count in result.acknowledged_per_trainee().items():
                acked[name] = acked.get(name, 0) + count
        return result

    log("capacity: warm-up (content loaded and caches filled on every server)")
    for number, url in enumerate((app1, app2), start=1):
        load(url, _names(f"w{run_id}-{number}", 1), [], [], 60.0, max_answers=3)
    load(floor.url, _names(f"wf{run_id}", 1), [], [], 60.0, max_answers=3, app=False)

    turns: list[dict] = []
    for turn in range(1, settings.turns + 1):
        for kind in ("floor", "app"):
            log(f"capacity: turn {turn}, {kind}: {n} sessions, {settings.turn_s:.0f} s, no think time")
            if kind == "floor":
                result = load(floor.url, _names(f"f{run_id}-{turn}", n), [floor.pid], [floor.url], settings.turn_s,
                              app=False)
            else:
                result = load(app1, _names(f"a{run_id}-{turn}", n), [pid1], [app1], settings.turn_s)
            turns.append({"turn": turn, "kind": kind, "load_average": round(os.getloadavg()[0], 2),
                          **_brief(result, app=kind == "app")})
            log(f"capacity:   {turns[-1]['answers_per_min']} answers/min, "
                f"{turns[-1]['server_cpu_s_per_answer']} CPU s/answer, errors {turns[-1]['errors']}"
                + (" (AT THE PER-SESSION RERUN LIMIT: more sessions needed)" if turns[-1]["at_session_rerun_limit"]
                   else ""))
    floor_rates = [t["answers_per_min"] for t in turns if t["kind"] == "floor" and t["answers_per_min"]]
    app_rates = [t["answers_per_min"] for t in turns if t["kind"] == "app" and t["answers_per_min"]]
    floor_cpu = [t["server_cpu_s_per_answer"] for t in turns if t["kind"] == "floor" and t["server_cpu_s_per_answer"]]
    app_cpu = [t["server_cpu_s_per_answer"] for t in turns if t["kind"] == "app" and t["server_cpu_s_per_answer"]]
    out["floor_answers_per_min"] = rounded(median(floor_rates), 1)
    out["per_server_answers_per_min"] = rounded(median(app_rates), 1)
    out["per_server_ratio_to_floor"] = rounded(ratio(median(app_rates), median(floor_rates)), 3)
    out["floor_cpu_s_per_answer"] = rounded(median(floor_cpu), 4)
    out["per_server_cpu_s_per_answer"] = rounded(median(app_cpu), 4)
    out["cpu_per_answer_ratio_to_floor"] = rounded(ratio(median(app_cpu), median(floor_cpu)), 3)
    out["turns"] = turns
    out["saturation_at_rerun_limit"] = any(t["at_session_rerun_limit"] for t in turns)

    log(f"capacity: two servers behind HAProxy: {2 * n} sessions, {settings.turn_s:.0f} s, no think time")
    two = _brief(load(cluster.url, _names(f"t{run_id}", 2 * n), [pid1, pid2], [app1, app2], settings.turn_s))
    out["two_server_answers_per_min"] = two["answers_per_min"]
    out["two_server_scale"] = rounded(ratio(two["answers_per_min"], out["per_server_answers_per_min"]), 3)
    out["two_servers"] = two
    out["two_server_cores_busy"] = {**cores_busy(two), "machine": os.cpu_count()}
    log(f"capacity:   {two['answers_per_min']} answers/min, scale {out['two_server_scale']}; cores busy "
        f"{out['two_server_cores_busy']}"
        + (" (AT THE PER-SESSION RERUN LIMIT: more sessions needed)" if two["at_session_rerun_limit"] else ""))

    think = _pair(settings.human_think)
    log(f"capacity: human pace, app server 1 and the floor side by side: {settings.human_sessions} sessions each, "
        f"think {think[0]:.0f}-{think[1]:.0f} s, {settings.human_ramp_s:.0f} s ramp + {settings.human_s:.0f} s")
    human_names = _names(f"h{run_id}", settings.human_sessions)
    create_trainees(cluster.database_url, human_names, PIN)  # before either starts: both start together
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="quizbench-human") as pool:
        app_turn = pool.submit(load, app1, human_names, [pid1], [app1], settings.human_ramp_s + settings.human_s,
                               think=think, ramp=settings.human_ramp_s, exam_share=settings.human_exam_share,
                               created=True)
        floor_turn = pool.submit(load, floor.url, _names(f"hf{run_id}", settings.human_sessions), [floor.pid],
                                 [floor.url], settings.human_ramp_s + settings.human_s, think=think,
                                 ramp=settings.human_ramp_s, exam_share=settings.human_exam_share, app=False)
        human, floor_human = _brief(app_turn.result()), _brief(floor_turn.result(), app=False)
    # growth over the warm server's peak in the two-server run (content loaded, caches filled,
    # saturation_sessions sessions served): what 200 sessions add on top
    warm = {pid: s["rss_mib_peak"] or 0 for pid, s in two["servers"].items() if int(pid) == pid1}
    growth = {pid: rounded((s["rss_mib_peak"] or 0) - warm.get(pid, 0), 1) for pid, s in human["servers"].items()}
    human["rss_warm_peak_mib"] = warm
    human["rss_growth_over_warm_mib"] = growth
    human["rss_growth_mib_per_session"] = rounded(
        max(max(growth.values(), default=0), 0) / max(settings.human_sessions, 1), 3)
    out["human_pace"] = human
    out["sessions"] = human["sessions_connected_max"]
    out["p95_click_to_feedback_s"] = human["click_to_feedback_s"]["p95"]
    log(f"capacity:   app: {human['sessions_connected_max']} connected, p95 {out['p95_click_to_feedback_s']} s, "
        f"{human['answers_acknowledged']} answers, errors {human['errors']}, exceptions {human['exceptions']}, "
        f"{human['server_cpu_s_per_answer']} CPU s/answer")

    out["human_pace_floor"] = floor_human
    out["human_cpu_per_answer_s"] = human["server_cpu_s_per_answer"]
    out["human_floor_cpu_per_answer_s"] = floor_human["server_cpu_s_per_answer"]
    out["human_cpu_ratio_to_floor"] = rounded(ratio(human["server_cpu_s_per_answer"],
                                                    floor_human["server_cpu_s_per_answer"]), 3)
    per_trainee = cores_per_session(human)
    out["human_cores_per_trainee"] = rounded(per_trainee, 7)
    out["servers_for_1000"] = servers_for(EVENT_TRAINEES, per_trainee)
    # the same sizing for the floor, side by side: what this machine allows Streamlit itself
    # (on a slower machine the floor alone can need more servers than the target)
    floor_per_trainee = cores_per_session(floor_human)
    out["human_floor_cores_per_trainee"] = rounded(floor_per_trainee, 7)
    out["floor_servers_for_1000"] = servers_for(EVENT_TRAINEES, floor_per_trainee)
    log(f"capacity:   floor {floor_human['server_cpu_s_per_answer']} CPU s/answer "
        f"({floor_human['answers_acknowledged']} answers, errors {floor_human['errors']}); "
        f"app/floor {out['human_cpu_ratio_to_floor']}; {out['servers_for_1000']} app servers for "
        f"{EVENT_TRAINEES} trainees (the floor's own: {out['floor_servers_for_1000']})")

    think = _pair(settings.kill_think)
    log(f"capacity: kill: {settings.kill_sessions} sessions, think {think[0]:.0f}-{think[1]:.0f} s, "
        f"{settings.kill_s:.0f} s; app server 2 gets SIGKILL once every session answers")
    record: dict = {}
    kill_at = settings.kill_s / 3

    def ready(run: RunState, tallies: list[SessionTally]) -> bool:
        return run.now() >= kill_at and all(t.acknowledged > 0 for t in tallies)

    names = _names(f"k{run_id}", settings.kill_sessions)
    result = load(cluster.url, names, [pid1, pid2], [app1], settings.kill_s, think=think,
                  exam_share=settings.kill_exam_share, controller=kill_when(cluster, 1, ready, record))
    kill = _brief(result) | kill_report(result.sessions, record)
    out["kill"] = kill
    log(
        f"capacity:   {kill.get('sessions_on_killed_server')} sessions on the killed server, "
        f"{kill.get('sessions_signed_in_again')} signed in again, marked down after {kill.get('marked_down_after_s')} s"
    )
    return out
