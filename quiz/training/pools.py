"""Which cards are in play: a pool of the chosen games, categories and kinds of card, and
Practice's choices of pool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from quiz.content.categories import category_keys
from quiz.content.loader import Content
from quiz.model.cards import CardKind


def card_pool(content: Content, rulesets: Iterable[str], categories: Iterable[str] | None = None,
              kinds: Iterable[CardKind] | None = None) -> list[str]:
    """Ids of the cards of the chosen rulesets, in file order; retired cards never.

    ``categories`` (when given) holds ``ruleset/category`` keys, ``ruleset/knowledge`` for
    knowledge cards; ``kinds`` (when given), the kinds of card wanted (``PRACTICE_POOLS``).
    """
    wanted_rulesets = frozenset(rulesets)
    wanted = frozenset(categories) if categories is not None else None
    wanted_kinds = frozenset(kinds) if kinds is not None else None
    keys = category_keys(content)

    def compute() -> tuple[str, ...]:
        return tuple(
            card.id
            for card in content.cards.values()
            if card.ruleset in wanted_rulesets and not card.retired and (wanted is None or keys[card.id] in wanted)
            and (wanted_kinds is None or card.kind in wanted_kinds)
        )

    key = ("card_pool", wanted_rulesets, wanted) if wanted_kinds is None else (
        "card_pool", wanted_rulesets, wanted, wanted_kinds)
    return list(content.memo(key, compute))


@dataclass(frozen=True, slots=True)
class PoolChoice:
    """A choice of Practice's pool beside the sidebar's games and categories: its id, its words
    (a string table key) and the kinds of card it holds (None: every kind)."""

    id: str
    words: str
    kinds: frozenset[CardKind] | None = None


PRACTICE_POOLS = (
    PoolChoice("all", "practice.pool.all"),
    PoolChoice("floor_calls", "practice.pool.floor_calls", frozenset({"floor_call"})),
)


def pool_choice(choice_id: object) -> PoolChoice:
    """The Practice pool choice of ``choice_id``; the first (every card) for any other value."""
    return next((choice for choice in PRACTICE_POOLS if choice.id == choice_id), PRACTICE_POOLS[0])
