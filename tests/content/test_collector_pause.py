"""Content loads run with the garbage collector paused, and leave it as they found it."""

from __future__ import annotations

import gc
import threading

from quiz.content import loader
from quiz.content.collector_pause import collector_paused
from quiz.content.loader import load_content


def test_a_load_runs_without_the_collector_and_gives_it_back(monkeypatch):
    seen: list[bool] = []
    original = loader._load_cards

    def spying(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(loader, "_load_cards", spying)
    assert gc.isenabled()
    content = load_content()
    assert content.cards and not content.problems
    assert seen and not any(seen)  # no card file was loaded with the collector on
    assert gc.isenabled()


def test_a_load_that_fails_gives_the_collector_back(monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(loader, "_load_cards", broken)
    try:
        load_content()
    except RuntimeError:
        pass
    assert gc.isenabled()


def test_overlapping_loads_share_one_pause_and_a_collector_off_stays_off():
    inside, leave = threading.Event(), threading.Event()

    def other_load() -> None:
        with collector_paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other_load)
    thread.start()
    inside.wait(10)
    with collector_paused():
        pass
    assert not gc.isenabled()  # the other load still runs
    leave.set()
    thread.join(10)
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # off before: off after
    finally:
        gc.enable()
