"""What a load run is given and what it counts: its spec (``LoadSpec``), each session's tally
(``SessionTally``), the servers' samples (``Sample``), the state its sessions share (``RunState``)
and the result with its figures (``LoadResult``).

What counts:

- an answer is **acknowledged** when the run after its submit shows the right/wrong banner
  (practice: an alert of format SUCCESS or ERROR in the main area) or the exam's answered
  count goes up (exam: the progress bar's "N of M answered");
- **click to feedback** is the time from sending the submit to the end of the run that
  shows that acknowledgement (including any ``st.rerun``);
- while a session thinks, the page's auto-rerun fragments run on their timers, as a
  browser's would (the mock exam's countdown: one fragment run per second per exam);
- an answer **in flight** is one submitted when the connection dropped: it may or may not be
  stored, and is not acknowledged;
- the server processes' CPU seconds and RSS are read from /proc/<pid> (``server_pids``),
  their connected-session counts from ``/_stcore/metrics`` (``metrics_urls``).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Awaitable, Callable
from urllib.parse import urlsplit

from quizbench.capacity import procstat
from quizbench.capacity.stats import between, mean, per_minute, ratio, rounded, summary

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MIB = 1024


class SessionStuck(Exception):
    """The page showed neither a form to answer nor a way on."""


def require_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK and not host.startswith("127."):
        raise ValueError(f"load goes to this machine only (127.0.0.1), not {host!r}")


@dataclass
class LoadSpec:
    url: str  # http://127.0.0.1:PORT of a server, the floor or HAProxy
    trainees: list[str]  # one session each; every one has an account with ``pin``
    pin: str
    duration: float  # seconds from the start; no answer is started after it
    think: tuple[float, float] = (0.0, 0.0)  # seconds before each answer, drawn uniformly
    ramp: float = 0.0  # session starts spread evenly over this many seconds
    exam_share: float = 0.0  # fraction of the sessions taking mock exams instead of practising
    choice: str = "random"  # "random" or "first": which option every selectbox and radio gets
    seed: int = 1
    step_timeout: float = 60.0  # seconds for one run of the server (a busy, shared 2-core machine)
    max_answers: int | None = None  # per session (bounds the traffic whatever the machine)
    server_pids: list[int] = field(default_factory=list)
    metrics_urls: list[str] = field(default_factory=list)
    stats_url: str | None = None  # HAProxy's stats page: its view of the servers is sampled too
    sample_every: float = 0.5
    language: str = "en"
    max_reconnects: int = 30  # per session: connection attempts that may fail in a row
    # a floor call (its steps as buttons, then Rule): how many steps a session takes before it
    # rules, drawn uniformly (at most the open ones), each after this share of a think time
    floor_call_steps: tuple[int, int] = (2, 5)
    step_think_share: float = 0.25


@dataclass
class SessionTally:
    """What one session did and saw (times in seconds from the start of the run)."""

    trainee: str
    mode: str  # "practice" or "exam"
    acked_at: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # click to feedback, per acknowledged answer
    next_latencies: list[float] = field(default_factory=list)  # Next card to the next form
    tick_latencies: list[float] = field(default_factory=list)  # auto-rerun fragment runs (exam countdown)
    submit_runs: list[int] = field(default_factory=list)  # script runs per answer submitted
    next_runs: list[int] = field(default_factory=list)  # script runs per Next card / next question
    submit_full_runs: list[int] = field(default_factory=list)  # of those, runs of the whole script
    next_full_runs: list[int] = field(default_factory=list)  # (not only of the fragment clicked in)
    submit_forms: list[list[str]] = field(default_factory=list)  # the forms each answer's click drew
    step_latencies: list[float] = field(default_factory=list)  # a floor call's step: click to the run's end
    step_runs: list[int] = field(default_factory=list)  # script runs per step (and per Rule)
    step_full_runs: list[int] = field(default_factory=list)
    floor_calls: int = 0  # floor calls ruled (Rule pressed after the steps)
    sign_in_latencies: list[float] = field(default_factory=list)
    first_card: float | None = None
    servers: list[str] = field(default_factory=list)  # the server of each connection (LB cookie)
    drops: list[float] = field(default_factory=list)  # when a connection was lost
    rejoined: list[float] = field(default_factory=list)  # when signed in again after a drop
    connect_failures: int = 0
    connect_errors: list[str] = field(default_factory=list)  # why connecting failed, each time
    in_flight_lost: int = 0
    timeouts: int = 0
    exceptions: int = 0
    incomplete: int = 0  # submits the server answered with a warning (a part not filled)
    late: int = 0  # exam answers the server did not count (the exam had closed)
    exams_started: int = 0
    exams_resumed: int = 0
    exams_handed_in: int = 0
    exams_handed_in_unanswered: int = 0  # with questions left: the page offered nothing else
    exam_open: bool = False  # an exam is being taken (started or resumed, not handed in)
    errors: list[str] = field(default_factory=list)  # what stopped the session, if anything
    in_flight: bool = False
    signed_in: bool = False

    @property
    def acknowledged(self) -> int:
        return len(self.acked_at)


@dataclass
class Sample:
    t: float
    cpu: dict[int, float | None]
    rss_kib: dict[int, int | None]
    connected: int
    active_sessions: int | None = None


class RunState:
    """The clock, the stop signal and the samples shared by the sessions of one run."""

    def __init__(self, spec: LoadSpec) -> None:
        self.spec = spec
        self.started = time.monotonic()
        self.stop = asyncio.Event()
        self.connected = 0
        self.samples: list[Sample] = []
        self.events: list[dict] = []

    def now(self) -> float:
        return time.monotonic() - self.started

    def finishing(self) -> bool:
        return self.stop.is_set() or self.now() >= self.spec.duration

    def event(self, what: str, **details) -> None:
        self.events.append({"t": round(self.now(), 3), "what": what, **details})

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds`` or until the run stops; whether the run goes on."""
        remaining = self.spec.duration - self.now()
        wait = min(seconds, max(remaining, 0.0))
        if wait > 0:
            try:
                await asyncio.wait_for(self.stop.wait(), wait)
            except TimeoutError:
                pass
        return not self.finishing()


Controller = Callable[[RunState, list[SessionTally]], Awaitable[None]]


@dataclass
class LoadResult:
    spec: LoadSpec
    sessions: list[SessionTally]
    samples: list[Sample]
    events: list[dict]
    finished: float  # when the last session stopped
    client_cpu_s: float

    def acknowledged_per_trainee(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for tally in self.sessions:
            counts[tally.trainee] = counts.get(tally.trainee, 0) + tally.acknowledged
        return counts

    @property
    def all_connected(self) -> float | None:
        """When the last session got its first card: from then on every session was answering."""
        firsts = [s.first_card for s in self.sessions]
        return None if not firsts or any(f is None for f in firsts) else max(firsts)  # type: ignore[type-var]

    def window(self) -> tuple[float, float]:
        """The steady window: every session connected, up to the end of the answering time."""
        end = min(self.spec.duration, self.finished)
        start = self.all_connected
        if start is None or start >= end:
            return 0.0, end
        return start, end

    def cpu_between(self, pid: int, start: float, end: float) -> float | None:
        inside = [s for s in self.samples if start <= s.t <= end and s.cpu.get(pid) is not None]
        if len(inside) < 2:
            return None
        return inside[-1].cpu[pid] - inside[0].cpu[pid]  # type: ignore[operator]

    def figures(self) -> dict:
        """The run's figures, for JSON."""
        start, end = self.window()
        acked = [t for s in self.sessions for t in s.acked_at]
        in_window = between(acked, start, end)
        latencies = [x for s in self.sessions for x in s.latencies]
        servers = {}
        cpu_window_total = 0.0
        for pid in self.spec.server_pids:
            cpus = [s.cpu[pid] for s in self.samples if s.cpu.get(pid) is not None]
            rss = [s.rss_kib[pid] for s in self.samples if s.rss_kib.get(pid) is not None]
            window_cpu = self.cpu_between(pid, start, end)
            cpu_window_total += window_cpu or 0.0
            servers[str(pid)] = {
                "cpu_s": rounded(cpus[-1] - cpus[0] if len(cpus) > 1 else None, 2),
                "cpu_s_window": rounded(window_cpu, 2),
                "rss_mib_start": rounded(rss[0] / MIB if rss else None, 1),
                "rss_mib_peak": rounded(max(rss) / MIB if rss else None, 1),
                "rss_mib_end": rounded(rss[-1] / MIB if rss else None, 1),
                "alive_at_end": procstat.alive(pid),
            }
        actives = [s.active_sessions for s in self.samples if s.active_sessions is not None]
        window_answers_all = between(acked, start, end)
        tallies = self.sessions
        return {
            "url": self.spec.url,
            "sessions": len(tallies),
            "exam_sessions": sum(s.mode == "exam" for s in tallies),
            "duration_s": self.spec.duration,
            "think_s": list(self.spec.think),
            "window_s": [rounded(start, 1), rounded(end, 1)],
            "answers_acknowledged": len(acked),
            "answers_per_min": rounded(per_minute(in_window, end - start), 1),
            "answers_per_min_whole_run": rounded(per_minute(len(acked), end), 1),
            "click_to_feedback_s": summary(latencies),
            "next_card_s": summary([x for s in tallies for x in s.next_latencies]),
            "script_runs_per_submit": rounded(mean([x for s in tallies for x in s.submit_runs]), 2),
            "script_runs_per_next": rounded(mean([x for s in tallies for x in s.next_runs]), 2),
            "full_runs_per_submit": rounded(mean([x for s in tallies for x in s.submit_full_runs]), 2),
            "full_runs_per_next": rounded(mean([x for s in tallies for x in s.next_full_runs]), 2),
            "floor_calls_ruled": sum(s.floor_calls for s in tallies),
            "floor_call_steps": len([x for s in tallies for x in s.step_latencies]),
            "floor_call_step_s": summary([x for s in tallies for x in s.step_latencies]),
            "script_runs_per_step": rounded(mean([x for s in tallies for x in s.step_runs]), 2),
            "full_runs_per_step": rounded(mean([x for s in tallies for x in s.step_full_runs]), 2),
            "countdown_ticks": len([x for s in tallies for x in s.tick_latencies]),
            "countdown_tick_s": summary([x for s in tallies for x in s.tick_latencies]),
            "sign_in_s": summary([x for s in tallies for x in s.sign_in_latencies]),
            "sessions_per_server": dict(sorted(Counter(s.servers[0] for s in tallies if s.servers).items())),
            "sessions_connected_max": max((s.connected for s in self.samples), default=0),
            "sessions_signed_in": sum(bool(s.sign_in_latencies) for s in tallies),
            "sessions_with_answers": sum(s.acknowledged > 0 for s in tallies),
            "server_active_sessions_max": max(actives) if actives else None,
            "errors": sum(len(s.errors) for s in tallies),
            "error_samples": [f"{s.trainee}: {e}" for s in tallies for e in s.errors][:10],
            "exceptions": sum(s.exceptions for s in tallies),
            "incomplete_forms": sum(s.incomplete for s in tallies),
            "timeouts": sum(s.timeouts for s in tallies),
            "connection_drops": sum(len(s.drops) for s in tallies),
            "haproxy_changes": [e for e in self.events if e["what"] == "haproxy"][:20],
            "reconnected": sum(len(s.rejoined) for s in tallies),
            "connect_failures": sum(s.connect_failures for s in tallies),
            "connect_failure_kinds": dict(Counter(e for s in tallies for e in s.connect_errors).most_common(5)),
            "answers_in_flight_at_drop": sum(s.in_flight_lost for s in tallies),
            "exams": {
                "started": sum(s.exams_started for s in tallies),
                "resumed": sum(s.exams_resumed for s in tallies),
                "handed_in": sum(s.exams_handed_in for s in tallies),
                "handed_in_unanswered": sum(s.exams_handed_in_unanswered for s in tallies),
                "late_answers": sum(s.late for s in tallies),
            },
            "servers": servers,
            "server_cpu_s_per_answer": rounded(ratio(cpu_window_total, window_answers_all), 4)
            if self.spec.server_pids else None,
            "client_cpu_s": rounded(self.client_cpu_s, 2),
            "events": self.events,
        }
