"""Card order: no repeats until the pool is used up, recent mistakes first more often."""

from __future__ import annotations

import random

from quiz.training.selection import WEIGHT_KNOWN, WEIGHT_LAST_WRONG, WEIGHT_UNSEEN, card_weight, deal, next_card


def test_weights():
    assert card_weight([]) == WEIGHT_UNSEEN
    assert card_weight([True, False]) == WEIGHT_LAST_WRONG
    assert card_weight([True, True, True]) == WEIGHT_KNOWN
    assert WEIGHT_KNOWN < card_weight([False, True, True]) < WEIGHT_LAST_WRONG


def test_deal_has_every_card_once():
    pool = [f"c{i}" for i in range(50)]
    order = deal(pool, {}, random.Random(1))
    assert sorted(order) == sorted(pool)


def test_no_repeats_until_the_pool_is_used_up():
    pool = [f"c{i}" for i in range(20)]
    rng, queue, seen = random.Random(7), [], []
    for _ in range(20):
        card, queue = next_card(queue, pool, {}, rng)
        seen.append(card)
    assert sorted(seen) == sorted(pool)
    card, queue = next_card(queue, pool, {}, rng)  # a new round begins
    assert card in pool and len(queue) == 19


def test_recent_mistakes_come_first_more_often():
    pool = [f"c{i}" for i in range(10)]
    results = {card: [True, True, True] for card in pool}
    results["c3"] = [True, False]
    rng = random.Random(3)
    first = [deal(pool, results, rng)[0] for _ in range(2000)]
    # Weight 4 against nine cards of weight 1: first with probability 4/13.
    assert 0.26 < first.count("c3") / 2000 < 0.36


def test_cards_leaving_the_pool_leave_the_queue():
    card, queue = next_card(["a", "b", "c"], ["b", "c"], {}, random.Random(0))
    assert card == "b" and queue == ["c"]


def test_empty_pool():
    assert next_card([], [], {}, random.Random(0)) == (None, [])
