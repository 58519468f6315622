"""Profile a real server under the saturating load: py-spy samples the server process
(only threads holding the GIL: the server's Python work) while the load tool drives it.

``python -m quizbench.capacity profile --py-spy PATH [--target app|floor]`` starts what it
profiles itself: for ``app`` a one-server cluster (scripts/cluster.sh: a throwaway
PostgreSQL, one app server; no HAProxy needed but it comes along), for ``floor`` the floor
app. py-spy is not a dependency of the project: install it into a scratch virtualenv
(``python3 -m venv /tmp/spy && /tmp/spy/bin/pip install py-spy``) and pass its path.

Prints the top costs (self and inclusive, percent of the samples and milliseconds per
acknowledged answer) and keeps the raw profile (collapsed stacks) for a flame graph.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from collections import Counter
from pathlib import Path

from quizbench.capacity.accounts import create_trainees
from quizbench.capacity.cluster import running_cluster
from quizbench.capacity.load import run_load
from quizbench.capacity.load_run_state import LoadSpec
from quizbench.capacity.profiles import read_collapsed, top_costs
from quizbench.capacity.servers import FLOOR_APP, StreamlitServer

PIN = "profile-2468"
RATE = 100  # samples per second


def _profiled_load(py_spy: str, url: str, pid: int, names: list[str], seconds: float, raw: Path,
                   exam_share: float, think: tuple[float, float], gil_only: bool) -> tuple[dict, Counter]:
    warm = LoadSpec(url=url, trainees=names[:1], pin=PIN, duration=60.0, max_answers=3)
    run_load(warm)
    spy = subprocess.Popen(  # noqa: S603 - the py-spy the caller named
        [py_spy, "record", "--pid", str(pid), "--rate", str(RATE), "--duration", str(int(seconds)),
         *(["--gil"] if gil_only else ["--threads"]), "--format", "raw", "--output", str(raw)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.append(spy.stdout.read() if spy.stdout else b""))
    reader.start()
    spec = LoadSpec(url=url, trainees=names, pin=PIN, duration=seconds, server_pids=[pid], exam_share=exam_share,
                    think=think)
    figures = run_load(spec).figures()
    spy.wait(timeout=seconds + 120)
    reader.join(timeout=10)
    if not raw.exists():
        raise RuntimeError(f"py-spy wrote no profile: {b''.join(output).decode(errors='replace')[-2000:]}")
    return figures, read_collapsed(raw.read_text(encoding="utf-8"))


def profile(py_spy: str, target: str = "app", seconds: float = 45.0, sessions: int = 8, exam_share: float = 0.0,
            output: Path | None = None, think: tuple[float, float] = (0.0, 0.0), gil_only: bool = True) -> dict:
    """With ``gil_only`` py-spy samples the thread holding the GIL (the server's Python work);
    without it, every thread that is running, each stack under its thread, so that native work
    done without the GIL (compression, a driver's C code) shows at its Python caller."""
    with tempfile.TemporaryDirectory(prefix="quiz-profile-") as tmp:
        os.chmod(tmp, 0o755)
        raw = output or Path(tmp) / f"{target}.raw"
        names = [f"profile-{os.getpid()}-{n:03d}" for n in range(1, sessions + 1)]
        if target == "floor":
            floor = StreamlitServer(FLOOR_APP, Path(tmp) / "floor.log").start()
            try:
                figures, stacks = _profiled_load(py_spy, floor.url, floor.pid, names, seconds, raw, 0.0, think,
                                                 gil_only)
            finally:
                floor.stop()
        else:
            with running_cluster(Path(tmp) / "cluster", servers=1, port=0,
                                 content_dir=str(Path(tmp) / "no-imported-content")) as cluster:
                create_trainees(cluster.database_url, names, PIN)
                figures, stacks = _profiled_load(py_spy, cluster.app_urls[0], cluster.app_pids[0], names, seconds,
                                                 raw, exam_share, think, gil_only)
    answers = max(figures["answers_acknowledged"], 1)
    top = top_costs(stacks, limit=30)
    for section in ("self", "inclusive"):
        for row in top[section]:
            row["ms_per_answer"] = round(row["percent"] / 100 * top["samples"] / RATE / answers * 1000, 2)
    return {
        "target": target,
        "answers": figures["answers_acknowledged"],
        "answers_per_min": figures["answers_per_min"],
        "server_cpu_s_per_answer": figures["server_cpu_s_per_answer"],
        "countdown_ticks": figures["countdown_ticks"],
        "gil_samples": top["samples"],
        "gil_ms_per_answer": round(top["samples"] / RATE / answers * 1000, 1),
        "raw_profile": str(raw) if output else None,
        **{k: top[k] for k in ("self", "inclusive")},
    }
