"""Event-day capacity: answers per minute per server, against a floor, and behind HAProxy.

- ``load``: the load tool (N websocket sessions answering cards at a pace): the run;
- ``session``: one session of it (sign in, practise or take exams, reconnect after a drop);
- ``load_run_state``: what a run is given and what it counts (spec, tallies, samples, figures);
- ``floor_app.py``: the floor, the same sign-in and card form with constant content;
- ``servers``: starting the floor and waiting for servers and HAProxy to be healthy;
- ``cluster``: scripts/cluster.sh from Python (a throwaway PostgreSQL, K servers, HAProxy);
- ``measure``: the whole measurement behind ``make capacity``;
- ``haproxy``: the HAProxy configuration rendered from scripts/haproxy.cfg.in;
- ``stats``, ``profiles``: the pure arithmetic (percentiles, losses, profile top costs).

Run ``python -m quizbench.capacity --help``.
"""
