"""Which card comes next: a weighted shuffle without repeats until the pool is used up."""

from __future__ import annotations

import random
from typing import Mapping, Sequence

WEIGHT_LAST_WRONG = 4.0
WEIGHT_RECENTLY_WRONG = 2.5
WEIGHT_UNSEEN = 2.0
WEIGHT_KNOWN = 1.0
RECENT = 3
RECENT_ANSWERS = 5000  # a deal weighs cards by the trainee's newest answers only


def card_weight(results: Sequence[bool]) -> float:
    """How strongly a card is pulled forward, from its results (oldest first)."""
    if not results:
        return WEIGHT_UNSEEN
    if not results[-1]:
        return WEIGHT_LAST_WRONG
    if not all(results[-RECENT:]):
        return WEIGHT_RECENTLY_WRONG
    return WEIGHT_KNOWN


def deal(pool: Sequence[str], results: Mapping[str, Sequence[bool]], rng: random.Random) -> list[str]:
    """Every card of ``pool`` once, heavier cards tending to come first.

    Weighted random order without replacement (Efraimidis–Spirakis keys ``u ** (1/w)``).
    """
    keyed = [(rng.random() ** (1.0 / card_weight(results.get(card, ()))), card) for card in dict.fromkeys(pool)]
    keyed.sort(reverse=True)
    return [card for _, card in keyed]


def next_card(
    queue: list[str], pool: Sequence[str], results: Mapping[str, Sequence[bool]], rng: random.Random
) -> tuple[str | None, list[str]]:
    """The next card and the queue left after it; a new deal starts when the queue is empty.

    Cards that left the pool (a filter changed) are dropped from the queue.
    """
    allowed = set(pool)
    remaining = [card for card in queue if card in allowed]
    if not remaining:
        remaining = deal(pool, results, rng)
    if not remaining:
        return None, []
    return remaining[0], remaining[1:]
