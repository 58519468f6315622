"""The shipped content, loaded once per test process: each load parses every YAML file again
(a third of a second), and two dozen test modules read it at import, so collecting the suite
loaded it two dozen times in each xdist worker. Read-only: a test that changes content builds
its own (``load_content`` with its folders, or ``with_packs``, which copies)."""

from __future__ import annotations

from functools import cache

from quiz.content.loader import Content, load_content


@cache
def shipped_content() -> Content:
    """The rulesets and cards under rulesets/ and scenarios/, as the app loads them."""
    return load_content()
