"""Exam blueprints: how many questions an exam draws from each category, and the stratified draw.

A blueprint maps ``ruleset/category`` keys (``quiz.content.categories``) to question counts.
Presets state theirs in YAML; a custom exam can be balanced across its categories with
``balanced_blueprint``. The draw takes exactly each section's count from that category's
cards, in an order fixed by the ``random.Random`` it is given, so a seed repeats it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Collection, Iterable, Mapping, Sequence

Blueprint = tuple[tuple[str, int], ...]  # (category key, questions), in the author's order

# CONTENT.md revision 3: knowledge cards of the YGO afterword's anime and manga trivia carry this
# tag; they are taught in practice but are no exam material.
NOT_EXAM_MATERIAL = "afterword"


def exam_material(pool: Iterable[str], trivia: Collection[str]) -> list[str]:
    """The card ids of ``pool`` an exam may ask, in pool order: all but ``trivia`` (the knowledge
    cards tagged ``NOT_EXAM_MATERIAL``)."""
    return [card_id for card_id in pool if card_id not in trivia]


def blueprint_total(blueprint: Blueprint) -> int:
    """How many questions the blueprint asks for in all."""
    return sum(count for _, count in blueprint)


def pool_by_category(pool: Iterable[str], keys: Mapping[str, str]) -> dict[str, list[str]]:
    """The card ids of ``pool`` grouped by their category key (``keys``: card id -> key), in pool order."""
    grouped: dict[str, list[str]] = {}
    for card_id in dict.fromkeys(pool):
        grouped.setdefault(keys[card_id], []).append(card_id)
    return grouped


def shortfalls(blueprint: Blueprint, grouped: Mapping[str, Sequence[str]]) -> list[tuple[str, int, int]]:
    """``(category key, wanted, available)`` for every section the pool cannot fill."""
    return [(key, count, len(grouped.get(key, ()))) for key, count in blueprint
            if count > len(grouped.get(key, ()))]


def sample_unseen_first(
    cards: Sequence[str], count: int, rng: random.Random, seen: Collection[str] = frozenset(),
) -> list[str]:
    """``count`` different cards of ``cards`` (all if fewer) at random, every card not in
    ``seen`` before any in it: a trainee who asks for cards not met yet gets them while they
    last. With nothing seen, a plain random sample."""
    unique = list(dict.fromkeys(cards))
    fresh = [card for card in unique if card not in seen]
    met = [card for card in unique if card in seen]
    count = min(count, len(unique))
    drawn = rng.sample(fresh, min(count, len(fresh)))
    return drawn + rng.sample(met, count - len(drawn))


def draw_stratified(
    blueprint: Blueprint, grouped: Mapping[str, Sequence[str]], rng: random.Random,
    seen: Collection[str] = frozenset(),
) -> tuple[str, ...]:
    """Exactly each section's count of different cards from its category, shuffled together;
    within a section, cards not in ``seen`` first (``sample_unseen_first``).

    A section the pool cannot fill gives every card it has (validation refuses such a preset;
    a custom exam's blueprint is made to fit, see ``balanced_blueprint``).
    """
    drawn: list[str] = []
    for key, count in blueprint:
        drawn += sample_unseen_first(grouped.get(key, ()), count, rng, seen)
    rng.shuffle(drawn)
    return tuple(drawn)


def sections_of(card_ids: Iterable[str], keys: Mapping[str, str]) -> Counter[str]:
    """How many of ``card_ids`` fall in each category (cards without a key are left out)."""
    return Counter(keys[card] for card in card_ids if card in keys)


def proportional_blueprint(
    weights: Mapping[str, float], questions: int, available: Mapping[str, int] | None = None,
) -> Blueprint:
    """``questions`` shared out in proportion to ``weights`` by largest remainders (Hamilton's
    method), no section above what ``available`` holds: a section whose share exceeds its
    cards gets them all, and the rest is shared among the others in proportion again.

    Ties in the remainders go to the section named first. Sections left with no question are
    left out; if the pool holds fewer cards than ``questions``, every card is taken.
    """
    order = [key for key, weight in weights.items() if weight > 0]
    cap = {key: (available.get(key, 0) if available is not None else questions) for key in order}
    left = min(questions, sum(cap.values()))
    counts: dict[str, int] = {}
    open_keys = list(order)
    while True:  # fill the sections whose share is more than their cards
        total = sum(weights[key] for key in open_keys)
        full = [key for key in open_keys if left * weights[key] / total > cap[key]]
        if not full:
            break
        for key in full:
            counts[key] = cap[key]
            left -= cap[key]
        open_keys = [key for key in open_keys if key not in full]
    total = sum(weights[key] for key in open_keys)
    quotas = {key: left * weights[key] / total for key in open_keys}
    for key in open_keys:
        counts[key] = int(quotas[key])
    remaining = left - sum(counts[key] for key in open_keys)
    by_remainder = sorted(open_keys, key=lambda key: (-(quotas[key] - int(quotas[key])), order.index(key)))
    for key in [key for key in by_remainder if counts[key] < cap[key]][:remaining]:
        counts[key] += 1
    return tuple((key, counts[key]) for key in order if counts.get(key))


def balanced_blueprint(categories: Sequence[str], questions: int, available: Mapping[str, int]) -> Blueprint:
    """A custom exam balanced by category: the same share for each of ``categories`` (as far as
    each has cards), the remainder to the first ones."""
    return proportional_blueprint({key: 1.0 for key in categories if available.get(key, 0)}, questions, available)
