"""N trainees answering cards at once over Streamlit's websocket, at a given pace.

Each session is a trainee with an account (name and PIN): it opens ``/_stcore/stream`` at
the given base URL (an app server, the floor app, or HAProxy in front of several servers),
signs in through the sidebar's sign-in form, and then either practises (answers the card's
form, reads the feedback, presses Next card; on a floor call it first takes a few of its
steps, each after a short think, and presses Rule, which opens the form) or takes mock exams (starts one, saves an
answer per question and moves on with Next, hands in, confirming when asked, starts the
next). Before each answer it waits a think time drawn from the given range. A session that
loses its connection (its server killed, say)
opens a new one the way a reloaded browser tab would, sending the cookies it was given
(HAProxy's sticky-session cookie), signs in again and goes on; an exam in progress is
resumed from the page's Resume button.

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

Every target must be on this machine (127.0.0.1): the tool refuses any other host.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Coroutine, TypeVar
from urllib.parse import urlencode, urlsplit

from quizbench.capacity import procstat
from quizbench.capacity.protocol import MAIN, Page, ScriptFailed, ServerGone, Tab, fill_form, press, text_values
from quizbench.capacity.stats import between, mean, per_minute, ratio, rounded, summary

LOOPBACK = ("127.0.0.1", "localhost", "::1")
SIGN_IN_FORM = "sign-in"
LB_COOKIE = "QUIZ_SERVER"  # the sticky-session cookie of scripts/haproxy.cfg.in
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


# --- one session ---------------------------------------------------------------------------------


def _ws_url(base: str) -> str:
    return base.rstrip("/").replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/_stcore/stream"


async def open_socket(spec: LoadSpec, jar: dict[str, str]):
    from websockets.asyncio.client import connect

    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else None
    socket = await connect(
        _ws_url(spec.url), subprotocols=["streamlit"], max_size=64 * 2**20, open_timeout=spec.step_timeout,
        additional_headers=headers, proxy=None, compression=None, ping_interval=None,
    )
    for header in socket.response.headers.get_all("Set-Cookie"):
        name, _, rest = header.partition("=")
        jar[name.strip()] = rest.split(";", 1)[0].strip()
    return socket


async def sign_in(tab: Tab, tally: SessionTally, pin: str) -> None:
    """Fill the sidebar's sign-in form (the password field gets the PIN, the other the name)."""
    from streamlit.proto.TextInput_pb2 import TextInput

    form = [w for w in tab.page.find(form=SIGN_IN_FORM)]
    inputs = [w for w in form if w.kind == "text_input"]
    submit = [w for w in form if w.is_submit]
    if not inputs or not submit:
        raise SessionStuck(f"no sign-in form on the page: {_describe(tab.page)}")
    values = {w.id: pin if w.proto.type == TextInput.PASSWORD else tally.trainee for w in inputs}
    seconds = await tab.run([*text_values(values), *press(submit[0])])
    if tab.page.find(form=SIGN_IN_FORM):
        bodies = [a.body for a in tab.page.alerts(root=1) + tab.page.alerts()]
        raise SessionStuck(f"not signed in: {bodies}")
    tally.sign_in_latencies.append(seconds)


def _describe(page: Page) -> str:
    return ", ".join(f"{w.kind}:{w.label or w.key or ''}"[:40] for w in page.widgets if w.root == MAIN)[:400]


def _next_button(page: Page):
    buttons = [w for w in page.find("button", root=MAIN) if not w.form_id]
    for test in (lambda w: (w.key or "").startswith("next-"), lambda w: w.label == "Next card",
                 lambda w: w.proto.type == "primary"):
        found = [w for w in buttons if test(w)]
        if found:
            return found[0]
    return None


async def _think(run: RunState, tab: Tab, tally: SessionTally, seconds: float) -> bool:
    """Wait the think time, running the page's auto-rerun fragments on their timers meanwhile
    (the exam's countdown ticks each second in a browser); whether the run goes on."""
    end = run.now() + seconds
    while True:
        interval = min(tab.auto_reruns.values(), default=None)
        remaining = end - run.now()
        if interval is None or remaining <= interval:
            return await run.pause(max(remaining, 0.0))
        if not await run.pause(interval):
            return False
        tally.tick_latencies.append(await tab.tick())
        tally.exceptions += tab.page.exceptions


async def _click(tab: Tab, states: list, runs: list[int], full_runs: list[int]) -> float:
    """Send a click; note the script runs it cost, and how many of them ran the whole script."""
    before, full_before = tab.script_runs, tab.full_runs
    seconds = await tab.run(states)
    runs.append(tab.script_runs - before)
    full_runs.append(tab.full_runs - full_before)
    return seconds


async def _submit(tab: Tab, run: RunState, tally: SessionTally, widgets, rng: random.Random) -> float:
    states = fill_form(widgets, rng, run.spec.choice)
    tally.in_flight = True
    seconds = await _click(tab, states, tally.submit_runs, tally.submit_full_runs)
    tally.submit_forms.append(tab.forms_drawn)
    tally.in_flight = False
    tally.exceptions += tab.page.exceptions
    return seconds


def floor_call_buttons(page: Page, prefix: str = "answer-") -> tuple[list, Any]:
    """A floor call under investigation, on Practice (``prefix`` ``answer-``) or in an exam
    (``exam-``): its open steps' buttons (keys ``<form>-step-ID``) and its Rule button
    (``<form>-rule``); ([], None) on any other card."""
    buttons = [w for w in page.find("button", root=MAIN, key_prefix=prefix) if not w.form_id]
    rule = next((w for w in buttons if (w.key or "").endswith("-rule")), None)
    return [w for w in buttons if "-step-" in (w.key or "")], rule


async def _investigate(tab: Tab, run: RunState, tally: SessionTally, rng: random.Random,
                      prefix: str = "answer-") -> bool:
    """On a floor call: take a few of its steps, each after a short think (reading the reply),
    then press Rule, which opens the answer form. False when the card is not a floor call."""
    steps, rule = floor_call_buttons(tab.page, prefix)
    if rule is None:
        return False
    if tally.first_card is None:
        tally.first_card = run.now()
    low, high = run.spec.floor_call_steps
    think = run.spec.think
    for _ in range(rng.randint(low, high)):
        steps, rule = floor_call_buttons(tab.page, prefix)
        if not steps:
            break
        share = run.spec.step_think_share
        if not await _think(run, tab, tally, rng.uniform(think[0] * share, think[1] * share)):
            return True
        tally.step_latencies.append(await _click(tab, press(rng.choice(steps)), tally.step_runs,
                                                 tally.step_full_runs))
        tally.exceptions += tab.page.exceptions
    _, rule = floor_call_buttons(tab.page, prefix)
    if rule is None:
        raise SessionStuck(f"no Rule button after a floor call's steps: {_describe(tab.page)}")
    await _click(tab, press(rule), tally.step_runs, tally.step_full_runs)
    tally.exceptions += tab.page.exceptions
    tally.floor_calls += 1
    return True


async def _practice_step(tab: Tab, run: RunState, tally: SessionTally, rng: random.Random) -> bool:
    """One step of practice; False when the page offered nothing to do."""
    from streamlit.proto.Alert_pb2 import Alert

    form = tab.page.answer_form(prefix="answer-")  # the card's form, not the feedback's "report a problem" one
    if form is not None:
        if tally.first_card is None:
            tally.first_card = run.now()
        if not await _think(run, tab, tally, rng.uniform(*run.spec.think)):
            return True
        seconds = await _submit(tab, run, tally, form[1], rng)
        formats = tab.page.alert_formats()
        if formats & {Alert.SUCCESS, Alert.ERROR}:
            tally.acked_at.append(run.now())
            tally.latencies.append(seconds)
        elif Alert.WARNING in formats:
            tally.incomplete += 1
        else:
            raise SessionStuck(f"no feedback after the submit: {_describe(tab.page)}")
        return True
    if await _investigate(tab, run, tally, rng):
        return True
    following = _next_button(tab.page)
    if following is not None:
        seconds = await _click(tab, press(following), tally.next_runs, tally.next_full_runs)
        tally.exceptions += tab.page.exceptions
        tally.next_latencies.append(seconds)
        return True
    return False


async def _exam_step(tab: Tab, run: RunState, tally: SessionTally, rng: random.Random) -> bool:
    """One step of a mock exam; False when the page offered nothing to do."""
    from streamlit.proto.Alert_pb2 import Alert

    page = tab.page
    resume = page.find("button", root=MAIN, key="exam-resume")
    if resume:
        await tab.run(press(resume[0]))
        tally.exams_resumed += 1
        tally.exam_open = True
        return True
    confirm = page.find("button", root=MAIN, key="exam-hand-in-confirm")
    if confirm:  # handing in with questions unanswered asks once more
        tally.exam_open = False
        await tab.run(press(confirm[0]))
        tally.exams_handed_in += 1
        tally.exams_handed_in_unanswered += 1
        return True
    form = page.answer_form(prefix="exam-")
    counts = page.progress_counts()
    if form is not None and Alert.INFO in page.alert_formats():  # answered (its saved answer shown): go on
        following = page.find("button", root=MAIN, key="exam-next")
        if following and not following[0].proto.disabled:
            await _click(tab, press(following[0]), tally.next_runs, tally.next_full_runs)
            return True
        form = None  # the last question: hand in below
    if form is not None:
        tally.exam_open = True
        if tally.first_card is None:
            tally.first_card = run.now()
        if not await _think(run, tab, tally, rng.uniform(*run.spec.think)):
            return True
        form = tab.page.answer_form(prefix="exam-")  # a tick may have closed the exam (time up)
        if form is None:
            return True
        seconds = await _submit(tab, run, tally, form[1], rng)
        after = tab.page.progress_counts()
        if counts is not None and after is not None and after[0] > counts[0]:
            tally.acked_at.append(run.now())
            tally.latencies.append(seconds)
        elif Alert.WARNING in tab.page.alert_formats() and tab.page.answer_form(prefix=form[0]) is not None:
            tally.incomplete += 1
        else:
            tally.late += 1  # the exam closed (time ran out) before the answer counted
        return True
    if await _investigate(tab, run, tally, rng, prefix="exam-"):  # a floor call: investigated, then its form
        return True
    hand_in = page.find("button", root=MAIN, key="exam-hand-in")
    if hand_in and (counts is None or counts[0] >= counts[1]):
        tally.exam_open = False
        await tab.run(press(hand_in[0]))
        tally.exams_handed_in += 1
        return True
    back = page.find("button", root=MAIN, key="exam-back")
    if back:
        await tab.run(press(back[0]))
        return True
    starts = page.find("button", root=MAIN, key_prefix="exam-start-")
    if starts:
        custom = [w for w in starts if w.key == "exam-start-custom"]
        await tab.run(press((custom or starts)[0]))
        tally.exams_started += 1
        return True
    if hand_in:  # a saved question shown, nothing left to answer from here
        tally.exam_open = False
        await tab.run(press(hand_in[0]))
        tally.exams_handed_in += 1
        return True
    return False


async def _signed_in_session(socket, run: RunState, tally: SessionTally, rng: random.Random) -> None:
    spec = run.spec
    tab = Tab(socket, urlencode({"lang": spec.language}), spec.step_timeout)
    await tab.run()
    await sign_in(tab, tally, spec.pin)
    tally.signed_in = True
    run.connected += 1
    try:
        if tally.drops:
            tally.rejoined.append(run.now())
        if tally.mode == "exam":
            await tab.run(page="exam")
        step = _exam_step if tally.mode == "exam" else _practice_step
        idle = 0
        while not run.finishing() and (spec.max_answers is None or tally.acknowledged < spec.max_answers):
            if await step(tab, run, tally, rng):
                idle = 0
                continue
            idle += 1
            if idle > 3:
                raise SessionStuck(f"nothing to do on the page: {_describe(tab.page)}")
            await tab.run(page="exam" if tally.mode == "exam" else "")
    finally:
        tally.signed_in = False
        tally.exam_open = False  # known again once this session's page shows the exam
        run.connected -= 1


async def _session(run: RunState, tally: SessionTally, index: int, start_at: float) -> None:
    from websockets.exceptions import InvalidHandshake

    spec = run.spec
    rng = random.Random(spec.seed * 100_003 + index)
    jar: dict[str, str] = {}
    if start_at > 0 and not await run.pause(start_at):
        return
    failures = 0
    while not run.finishing():
        try:
            socket = await open_socket(spec, jar)
        except (TimeoutError, OSError, InvalidHandshake) as error:
            tally.connect_failures += 1
            tally.connect_errors.append(f"{type(error).__name__}: {error}"[:120])
            failures += 1
            if failures > spec.max_reconnects:
                tally.errors.append(f"could not connect {failures} times: {type(error).__name__}: {error}")
                return
            await run.pause(min(0.2 * failures, 2.0))  # a browser's reconnect back-off
            continue
        failures = 0
        tally.servers.append(jar.get(LB_COOKIE, "direct"))
        try:
            async with socket:
                await _signed_in_session(socket, run, tally, rng)
            return
        except ServerGone:
            tally.drops.append(run.now())
        except TimeoutError:
            tally.timeouts += 1
            tally.drops.append(run.now())
        except (ScriptFailed, SessionStuck) as error:
            tally.errors.append(f"{type(error).__name__}: {error}")
            return
        except Exception as error:  # noqa: BLE001 - reported with the session's name
            tally.errors.append(f"{type(error).__name__}: {error}")
            return
        if tally.in_flight:
            tally.in_flight_lost += 1
            tally.in_flight = False


# --- the run -------------------------------------------------------------------------------------


def active_sessions(url: str, timeout: float = 5.0) -> int | None:
    """A server's count of connected sessions (Streamlit's /_stcore/metrics); None if it does not answer."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url.rstrip('/')}/_stcore/metrics", timeout=timeout) as response:
            for line in response.read().decode("utf-8").splitlines():
                if line.startswith("active_sessions "):
                    return int(float(line.split()[1]))
    except OSError:
        return None
    return None


def _haproxy_states(stats_url: str) -> dict[str, str]:
    from quizbench.capacity.servers import haproxy_states

    try:
        return haproxy_states(stats_url)
    except OSError:
        return {}


async def _sample(run: RunState) -> None:
    spec = run.spec
    last_metrics = -10.0
    seen: dict[str, str] = {}
    while True:
        active = None
        if (spec.metrics_urls or spec.stats_url) and run.now() - last_metrics >= 2.0:  # one request each 2 s
            last_metrics = run.now()
            counts = await asyncio.gather(*(asyncio.to_thread(active_sessions, u) for u in spec.metrics_urls))
            active = sum(c for c in counts if c is not None) if spec.metrics_urls else None
            if spec.stats_url:
                for name, status in (await asyncio.to_thread(_haproxy_states, spec.stats_url)).items():
                    status = status.split()[0] if status else status
                    if seen.get(name, "UP") != status:
                        run.event("haproxy", server=name, status=status)
                    seen[name] = status
        run.samples.append(Sample(
            run.now(),
            {pid: procstat.cpu_seconds(pid) for pid in spec.server_pids},
            {pid: procstat.memory_kib(pid) for pid in spec.server_pids},
            run.connected,
            active,
        ))
        await asyncio.sleep(spec.sample_every)  # a sampling period, not a wait for the app


Controller = Callable[[RunState, list[SessionTally]], Awaitable[None]]


async def _run(spec: LoadSpec, controller: Controller | None) -> LoadResult:
    require_loopback(spec.url)
    for url in spec.metrics_urls:
        require_loopback(url)
    n = len(spec.trainees)
    exams = round(n * spec.exam_share)
    tallies = [SessionTally(name, "exam" if i < exams else "practice") for i, name in enumerate(spec.trainees)]
    client_cpu = procstat.cpu_seconds(os.getpid()) or 0.0
    run = RunState(spec)
    sampler = asyncio.create_task(_sample(run))
    control = asyncio.create_task(controller(run, tallies)) if controller is not None else None
    offsets = [spec.ramp * i / n for i in range(n)] if n else []
    sessions = [asyncio.create_task(_session(run, t, i, offsets[i])) for i, t in enumerate(tallies)]
    limit = spec.duration + spec.ramp + 3 * spec.step_timeout
    done, pending = await asyncio.wait(sessions, timeout=limit)
    for task in pending:
        task.cancel()
    for tally, task in zip(tallies, sessions):
        if task in pending:
            tally.errors.append(f"still running {limit:.0f} s after the start")
    finished = run.now()
    await asyncio.sleep(0)
    sampler.cancel()
    if control is not None:
        control.cancel()
    await asyncio.gather(sampler, *([control] if control else []), *pending, return_exceptions=True)
    used = (procstat.cpu_seconds(os.getpid()) or 0.0) - client_cpu
    return LoadResult(spec, tallies, run.samples, run.events, finished, used)


def run_load(spec: LoadSpec, controller: Controller | None = None) -> LoadResult:
    """Run the load and return what every session did."""
    return run_in_own_loop(_run(spec, controller))


T = TypeVar("T")


def run_in_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` in a thread with its own event loop (the caller's thread may have one
    running already: Playwright's sync API keeps one in a test process)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="quizbench-load") as pool:
        return pool.submit(asyncio.run, coroutine).result()
