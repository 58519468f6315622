"""``python -m quizbench.capacity COMMAND``: event-day capacity tools.

Commands:

- ``load``: N sessions against one URL (a server, the floor or HAProxy); figures as JSON.
- ``measure``: the whole capacity measurement (``make capacity``): cluster up, floor and
  app in turns, two servers, 200 sessions at a human pace, a server killed, cluster down.
- ``floor``: serve the floor app (``streamlit run`` of quizbench/capacity/floor_app.py).
- ``haproxy-config``: render scripts/haproxy.cfg.in for given servers (used by scripts/cluster.sh).
- ``wait-healthy``: wait until URLs answer /_stcore/health and HAProxy says every server is UP.
- ``trainees``: make accounts for the load in a database.
- ``top-costs``: the top functions of a py-spy ``--format raw`` profile (collapsed stacks).
- ``profile``: profile the app (or the floor) under the saturating load with py-spy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def _pair(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-" if "-" in text else ",")
    return float(low), float(high or low)


def _load(args: argparse.Namespace) -> int:
    from quizbench.capacity.accounts import create_trainees
    from quizbench.capacity.load import run_load
    from quizbench.capacity.load_run_state import LoadSpec

    names = [f"{args.prefix}-{n:03d}" for n in range(1, args.sessions + 1)]
    if args.database_url:
        create_trainees(args.database_url, names, args.pin)
    spec = LoadSpec(
        url=args.url, trainees=names, pin=args.pin, duration=args.duration, think=args.think, ramp=args.ramp,
        exam_share=args.exam_share, choice=args.choice, seed=args.seed, step_timeout=args.step_timeout,
        max_answers=args.max_answers, server_pids=args.server_pid or [], metrics_urls=args.metrics_url or [],
    )
    result = run_load(spec)
    figures = result.figures()
    if args.database_url:
        from quizbench.capacity.accounts import stored_answers
        from quizbench.capacity.stats import losses

        figures["stored"] = losses(result.acknowledged_per_trainee(), stored_answers(args.database_url, names))
    text = json.dumps(figures, indent=2)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


def _measure(args: argparse.Namespace) -> int:
    from quizbench.capacity.measure import Settings, measure

    settings = Settings.from_env(os.environ)
    figures = measure(
        Path(args.json) if args.json else None, settings, log=lambda m: print(m, file=sys.stderr, flush=True)
    )
    print(json.dumps(figures, indent=2))
    return 0


def _floor(args: argparse.Namespace) -> int:
    from quizbench.capacity.servers import floor_command

    os.execv(sys.executable, floor_command(args.port))
    return 0


def _haproxy_config(args: argparse.Namespace) -> int:
    from quizbench.capacity.haproxy import TEMPLATE, render

    servers = []
    for number, address in enumerate(args.server, start=1):
        host, _, port = address.rpartition(":")
        servers.append((f"app{number}", host, int(port)))
    text = render(Path(args.template or TEMPLATE).read_text(encoding="utf-8"), port=args.port,
                  stats_port=args.stats_port, servers=servers, bind=args.bind)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _wait_healthy(args: argparse.Namespace) -> int:
    from quizbench.capacity.servers import wait_healthy

    problem = wait_healthy(args.url, stats_url=args.stats_url, timeout=args.timeout, pids=args.pid or [])
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


def _trainees(args: argparse.Namespace) -> int:
    from quizbench.capacity.accounts import create_trainees

    names = [f"{args.prefix}-{n:03d}" for n in range(1, args.count + 1)]
    create_trainees(args.database_url, names, args.pin)
    print("\n".join(names))
    return 0


def _top_costs(args: argparse.Namespace) -> int:
    from quizbench.capacity.profiles import read_collapsed, top_costs

    stacks = read_collapsed(Path(args.profile).read_text(encoding="utf-8"))
    print(json.dumps(top_costs(stacks, limit=args.limit, focus=args.focus), indent=2))
    return 0


def _profile(args: argparse.Namespace) -> int:
    from quizbench.capacity.profile_run import profile

    result = profile(args.py_spy, target=args.target, seconds=args.seconds, sessions=args.sessions,
                     exam_share=args.exam_share, output=Path(args.output) if args.output else None,
                     think=args.think, gil_only=not args.all_threads)
    text = json.dumps(result, indent=2)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m quizbench.capacity", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    load = commands.add_parser("load", help="N sessions answering cards against one URL")
    load.add_argument("--url", required=True, help="http://127.0.0.1:PORT (a server, the floor or HAProxy)")
    load.add_argument("--sessions", type=int, default=10)
    load.add_argument("--duration", type=float, default=60.0, help="seconds of answering")
    load.add_argument("--think", type=_pair, default=(0.0, 0.0), help="think time range in seconds, e.g. 20-40")
    load.add_argument("--ramp", type=float, default=0.0, help="seconds over which the sessions start")
    load.add_argument("--exam-share", type=float, default=0.0, help="fraction of sessions taking mock exams")
    load.add_argument("--choice", choices=("random", "first"), default="random")
    load.add_argument("--seed", type=int, default=1)
    load.add_argument("--step-timeout", type=float, default=60.0)
    load.add_argument("--max-answers", type=int, default=None, help="per session")
    load.add_argument("--pin", default="load-pin-2468")
    load.add_argument("--prefix", default="load", help="trainee names: PREFIX-001 ...")
    load.add_argument("--database-url", help="make the trainees there first, and count their stored answers after")
    load.add_argument("--server-pid", type=int, action="append", help="a server process to read /proc of")
    load.add_argument("--metrics-url", action="append", help="a server's base URL to read /_stcore/metrics of")
    load.add_argument("--json", help="write the figures to this file")
    load.set_defaults(func=_load)

    measure = commands.add_parser("measure", help="the whole capacity measurement (make capacity)")
    measure.add_argument("--json", default=os.environ.get("CAPACITY_JSON"))
    measure.set_defaults(func=_measure)

    floor = commands.add_parser("floor", help="serve the floor app")
    floor.add_argument("--port", type=int, default=8580)
    floor.set_defaults(func=_floor)

    haproxy = commands.add_parser("haproxy-config", help="render the HAProxy configuration")
    haproxy.add_argument("--port", type=int, required=True)
    haproxy.add_argument("--stats-port", type=int, required=True)
    haproxy.add_argument("--bind", default="127.0.0.1")
    haproxy.add_argument("--server", action="append", required=True, help="HOST:PORT of an app server")
    haproxy.add_argument("--template")
    haproxy.add_argument("--output")
    haproxy.set_defaults(func=_haproxy_config)

    wait = commands.add_parser("wait-healthy", help="wait until servers (and HAProxy) are healthy")
    wait.add_argument("url", nargs="+")
    wait.add_argument("--stats-url")
    wait.add_argument("--pid", type=int, action="append", help="fail at once if this process exits")
    wait.add_argument("--timeout", type=float, default=120.0)
    wait.set_defaults(func=_wait_healthy)

    trainees = commands.add_parser("trainees", help="make accounts for the load")
    trainees.add_argument("--database-url", required=True)
    trainees.add_argument("--count", type=int, required=True)
    trainees.add_argument("--prefix", default="load")
    trainees.add_argument("--pin", default="load-pin-2468")
    trainees.set_defaults(func=_trainees)

    top = commands.add_parser("top-costs", help="top functions of a py-spy raw profile")
    top.add_argument("profile")
    top.add_argument("--limit", type=int, default=25)
    top.add_argument("--focus", help="only stacks through a frame containing this text")
    top.set_defaults(func=_top_costs)

    prof = commands.add_parser("profile", help="profile the app or the floor under load with py-spy")
    prof.add_argument("--py-spy", required=True, help="the py-spy executable (e.g. from a scratch virtualenv)")
    prof.add_argument("--target", choices=("app", "floor"), default="app")
    prof.add_argument("--seconds", type=float, default=45.0)
    prof.add_argument("--sessions", type=int, default=8)
    prof.add_argument("--exam-share", type=float, default=0.0)
    prof.add_argument("--think", type=_pair, default=(0.0, 0.0), help="think time range in seconds")
    prof.add_argument("--all-threads", action="store_true",
                      help="sample every running thread, not only the one holding the GIL")
    prof.add_argument("--output", help="keep the raw profile (collapsed stacks) here")
    prof.add_argument("--json", help="write the top costs to this file")
    prof.set_defaults(func=_profile)

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
