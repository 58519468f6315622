"""The HAProxy configuration of the cluster, rendered from scripts/haproxy.cfg.in.

The template holds ``@NAME@`` placeholders: ``@BIND@`` and ``@PORT@`` (the front),
``@STATS_PORT@`` (the stats page, always on 127.0.0.1) and ``@SERVERS@`` (one ``server``
line per app server, each with its sticky-session cookie value and a health check).
"""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parents[2] / "scripts" / "haproxy.cfg.in"
PLACEHOLDER = re.compile(r"@([A-Z_]+)@")
NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


def server_lines(servers: list[tuple[str, str, int]], indent: str = "    ") -> str:
    """``server NAME HOST:PORT cookie NAME check`` for each (name, host, port)."""
    lines = []
    for name, host, port in servers:
        if not NAME.match(name):
            raise ValueError(f"a server name of letters, digits, '.', '_' and '-', not {name!r}")
        if not 0 < port < 65536:
            raise ValueError(f"no port {port}")
        lines.append(f"{indent}server {name} {host}:{port} cookie {name} check")
    return "\n".join(lines)


def render(template: str, *, port: int, stats_port: int, servers: list[tuple[str, str, int]],
           bind: str = "127.0.0.1") -> str:
    """The configuration text; every placeholder must be known and filled."""
    if not servers:
        raise ValueError("HAProxy needs at least one app server")
    values = {"BIND": bind, "PORT": str(port), "STATS_PORT": str(stats_port), "SERVERS": server_lines(servers)}
    unknown = sorted(set(PLACEHOLDER.findall(template)) - set(values))
    if unknown:
        raise ValueError(f"unknown placeholders in the template: {unknown}")
    missing = sorted(set(values) - set(PLACEHOLDER.findall(template)))
    if missing:
        raise ValueError(f"the template lacks placeholders: {missing}")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)
