"""A process's CPU seconds and memory, from /proc (Linux)."""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def parse_cpu_seconds(stat_line: str, ticks: int = TICKS) -> float:
    """User plus system CPU seconds from a /proc/<pid>/stat line (fields 14 and 15; the
    command name in parentheses may hold spaces, so fields are counted after its ')')."""
    after = stat_line[stat_line.rindex(")") + 2:].split()
    utime, stime = int(after[11]), int(after[12])
    return (utime + stime) / ticks


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds the process used so far; None once it is gone."""
    try:
        return parse_cpu_seconds(Path(f"/proc/{pid}/stat").read_text())
    except (OSError, ValueError, IndexError):
        return None


def memory_kib(pid: int, field: str = "VmRSS") -> int | None:
    """A memory figure of /proc/<pid>/status in KiB (VmRSS, VmHWM, ...); None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2:].split()[0] != "Z"
