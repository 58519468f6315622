"""The bounded least-recently-used map behind process-wide memos."""

from __future__ import annotations

import threading

import pytest

from quiz.ui.lru import LruCache


def test_keeps_values_and_drops_the_least_recently_used_beyond_capacity():
    cache: LruCache[str, int] = LruCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" used: "b" is now the oldest
    cache.put("c", 3)
    assert len(cache) == 2
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c")) == (1, 3)


def test_putting_a_key_again_replaces_its_value_and_refreshes_it():
    cache: LruCache[str, int] = LruCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    cache.put("c", 3)
    assert cache.get("a") == 10 and cache.get("b") is None


def test_get_or_create_makes_a_missing_value_once_for_every_thread():
    cache: LruCache[str, object] = LruCache(4)
    made: list[object] = []
    seen: list[object] = []

    def create() -> object:
        made.append(object())
        return made[-1]

    threads = [threading.Thread(target=lambda: seen.append(cache.get_or_create("k", create))) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and all(value is made[0] for value in seen)


def test_clear_empties_it():
    cache: LruCache[str, int] = LruCache(3)
    cache.put("a", 1)
    cache.clear()
    assert len(cache) == 0 and cache.get("a") is None


def test_capacity_must_be_positive():
    with pytest.raises(ValueError):
        LruCache(0)
