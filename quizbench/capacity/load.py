"""A load run: N trainees answering cards at once over Streamlit's websocket, at a given pace.

The run starts one session per trainee (``session.run_session``), spread evenly over the ramp;
meanwhile it samples the servers (CPU seconds and RSS from /proc, connected sessions from
``/_stcore/metrics``, HAProxy's view of the servers from its stats page) and lets a controller
act on the run if given one. It waits for the sessions to end (each stops by itself, at the latest
once the answering time is over; one still running long after is cancelled) and returns what
each did (``load_run_state.LoadResult``).

Every target must be on this machine (127.0.0.1): the tool refuses any other host.
"""

from __future__ import annotations

import asyncio
import os
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Coroutine, TypeVar

from quizbench.capacity import procstat
from quizbench.capacity.load_run_state import (
    Controller,
    LoadResult,
    LoadSpec,
    RunState,
    Sample,
    SessionTally,
    require_loopback,
)
from quizbench.capacity.session import run_session


def active_sessions(url: str, timeout: float = 5.0) -> int | None:
    """A server's count of connected sessions (Streamlit's /_stcore/metrics); None if it does not answer.

    Only that family is asked for: the whole page also walks every session's state from a
    thread of its own, which fails now and then while a script run changes that state
    ("dictionary changed size during iteration" in the server's log), and costs the server
    CPU the load would be measured with."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url.rstrip('/')}/_stcore/metrics?families=active_sessions", timeout=timeout) as response:
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
    sessions = [asyncio.create_task(run_session(run, t, i, offsets[i])) for i, t in enumerate(tallies)]
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
