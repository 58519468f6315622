"""Top costs of a sampling profile in collapsed-stack form (``py-spy record --format raw``).

Each line is ``outer;...;inner COUNT``; a frame reads ``function (path:line)``. Line numbers
are dropped, so a function's samples add up wherever in it they fell. ``self`` is the share
of samples whose innermost frame is the function, ``inclusive`` the share of samples with
the function anywhere on the stack (counted once per stack).
"""

from __future__ import annotations

import re
from collections import Counter

LINE_NUMBER = re.compile(r":\d+\)$")
LIBRARY = (re.compile(r"^.*/site-packages/"), re.compile(r"^.*/lib/python3\.\d+/"))


def frame_name(frame: str) -> str:
    """``function (path)`` without the line number, and with the path from site-packages on."""
    frame = LINE_NUMBER.sub(")", frame.strip())
    name, _, where = frame.partition(" (")
    if where:
        for prefix in LIBRARY:
            if prefix.match(where):
                where = prefix.sub("", where)
                break
        where = re.sub(r"^.*?/work/main/", "", where)
        return f"{name} ({where}"
    return name


def read_collapsed(text: str) -> Counter:
    """Stack (a tuple of frame names, outermost first) -> samples."""
    stacks: Counter = Counter()
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        stacks[tuple(frame_name(f) for f in stack.split(";"))] += int(count)
    return stacks


def top_costs(stacks: Counter, limit: int = 25, focus: str | None = None) -> dict:
    """The functions with the most samples, self and inclusive, as percentages of all samples
    (of the stacks through a frame containing ``focus``, when given)."""
    if focus:
        stacks = Counter({s: n for s, n in stacks.items() if any(focus in f for f in s)})
    total = sum(stacks.values())
    own: Counter = Counter()
    inclusive: Counter = Counter()
    for stack, count in stacks.items():
        if not stack:
            continue
        own[stack[-1]] += count
        for frame in set(stack):
            inclusive[frame] += count

    def share(n: int) -> float:
        return round(100 * n / total, 1) if total else 0.0

    return {
        "samples": total,
        "focus": focus,
        "self": [{"function": f, "percent": share(n)} for f, n in own.most_common(limit)],
        "inclusive": [{"function": f, "percent": share(n)} for f, n in inclusive.most_common(limit)],
    }
