"""What a supervisor's page computes a scope's figures from (Team, Card review): the key they
are kept in memory under, and the few minutes they are kept for."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from quiz.model.scope import Scope
from quiz.ui.shell import Shell

REFRESH_MINUTES = 5  # a scope's figures read every answer: computed once in this many minutes, or when asked


@dataclass(frozen=True)
class FiguresKey:
    """The cache key of a scope's figures (Streamlit hashes a dataclass by its fields): the
    database, the scope's store (None: every store, an admin's alone), the games, the
    language, the content, and the period of ``REFRESH_MINUTES`` they were computed in."""

    url: str
    store_id: int | None
    rulesets: tuple[str, ...]
    language: str
    content_fingerprint: str
    period: str


def figures_key(shell: Shell, scope: Scope, now: dt.datetime) -> FiguresKey:
    """The key of ``scope``'s figures on ``shell``'s page, in the period holding ``now``."""
    return FiguresKey(str(shell.store.url), scope.store_id, shell.rulesets, shell.language,
                      shell.content.fingerprint(), period_of(now))


def period_of(now: dt.datetime) -> str:
    """The start of the ``REFRESH_MINUTES`` period holding ``now``, as text."""
    return now.replace(minute=now.minute - now.minute % REFRESH_MINUTES, second=0, microsecond=0).isoformat()
