"""Warm AppTest reruns of a page against its floor script.

A server compiles each script once: its ``Runtime`` keeps one ``ScriptCache`` (the
bytecode of ``app.py`` and of every page file) for as long as it runs. ``AppTest`` makes a
new one for every run, so each run compiled ``app.py`` and the page again (1.5 ms a run
for the practice page, about 15 % of its floor, which is one small file). The reruns here
keep one cache, as the server does (``server_script_cache``).
"""

from __future__ import annotations

import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from quiz.db.store import Trainee
from quiz.ui.trainee_session import SIGNED_IN_KEY
from quizbench.bench.scripts import APP, FLOORS


@dataclass(frozen=True)
class PageFigures:
    rerun_s: float
    floor_s: float
    cold_s: float | None = None  # the first run after the page's cached figures were dropped

    @property
    def ratio_to_floor(self) -> float:
        return self.rerun_s / self.floor_s if self.floor_s else float("inf")

    def to_json(self) -> dict[str, float]:
        figures = {"rerun_s": self.rerun_s, "floor_s": self.floor_s, "ratio_to_floor": self.ratio_to_floor}
        if self.cold_s is not None:
            figures |= {"cold_s": self.cold_s, "cold_ratio_to_floor": self.cold_s / self.floor_s}
        return figures

# Warm reruns of a page and of its floor, each: a rerun is tens of milliseconds, and on a
# shared machine the median of 5 moved the practice page's ratio from 1.2x to 2.2x between
# two consecutive runs; 25 cost about a second a page.
WARM_RERUNS = 25


def measure_page(
    page: str, floor: str, query: dict[str, str], repeats: int,
    prepare: Callable[[object], None] | None = None, trainee: Trainee | None = None, cold: bool = False,
) -> PageFigures:
    """Median warm rerun of ``page`` (a path under quiz/ui/pages) and of its floor script,
    signed in as ``trainee`` when given.

    Both are run once to warm up; then ``WARM_RERUNS`` reruns each (at least ``repeats``)
    alternate so both see the same load. With ``cold``, also the median of ``repeats`` reruns
    each after ``st.cache_data`` was cleared: the first render after a change (a page that
    caches figures computes them again).
    """
    with server_script_cache():
        return _measure_page(page, floor, query, repeats, prepare, trainee, cold)


@contextmanager
def server_script_cache() -> Iterator[object]:
    """AppTest runs that keep one ``ScriptCache`` (compiled scripts), as a server's runtime
    does, instead of a new one per run; the cache, for tests."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    kept = ScriptCache()
    modules = (app_test, local_script_runner)
    before = [module.ScriptCache for module in modules]  # type: ignore[attr-defined]
    for module in modules:
        module.ScriptCache = lambda: kept  # type: ignore[attr-defined]
    try:
        yield kept
    finally:
        for module, original in zip(modules, before):
            module.ScriptCache = original  # type: ignore[attr-defined]


def _measure_page(
    page: str, floor: str, query: dict[str, str], repeats: int,
    prepare: Callable[[object], None] | None, trainee: Trainee | None, cold: bool,
) -> PageFigures:
    import streamlit as st

    app = _opened_page(page, query, trainee, prepare)
    floor_app = _opened_floor(floor, query, trainee)
    page_times, floor_times = [], []
    for _ in range(max(repeats, WARM_RERUNS)):
        for target, into in ((app, page_times), (floor_app, floor_times)):
            start = time.perf_counter()
            target.run()
            into.append(time.perf_counter() - start)
    cold_times = []
    for _ in range(repeats if cold else 0):
        st.cache_data.clear()
        start = time.perf_counter()
        app.run()
        cold_times.append(time.perf_counter() - start)
    _check(app, page, signed_in=trainee is not None)
    return PageFigures(statistics.median(page_times), statistics.median(floor_times),
                       statistics.median(cold_times) if cold_times else None)


def measure_clicks(
    page: str, floor: str, query: dict[str, str], repeats: int,
    click: Callable[[Any], None], click_floor: Callable[[Any], None],
    prepare: Callable[[Any], None] | None = None, prepare_floor: Callable[[Any], None] | None = None,
    trainee: Trainee | None = None,
) -> PageFigures:
    """Median run after a click on ``page`` and on its floor script: ``click(app)`` (and
    ``click_floor`` on the floor) sets the clicked widget, unmeasured (it may first run the
    page to start over, when nothing is left to click); the run that follows is measured.

    ``prepare`` brings the page to where the clicks are made (a card dealt, say), and
    ``prepare_floor`` the floor, before both are run once to warm up; then ``WARM_RERUNS``
    clicks each (at least ``repeats``) alternate, as ``measure_page``'s reruns do.
    """
    with server_script_cache():
        app = _opened_page(page, query, trainee, prepare)
        floor_app = _opened_floor(floor, query, trainee, prepare_floor)
        page_times, floor_times = [], []
        for _ in range(max(repeats, WARM_RERUNS)):
            for target, clicked, into in ((app, click, page_times), (floor_app, click_floor, floor_times)):
                clicked(target)
                start = time.perf_counter()
                target.run()
                into.append(time.perf_counter() - start)
                _check(target, page if target is app else floor, signed_in=trainee is not None)
        return PageFigures(statistics.median(page_times), statistics.median(floor_times))


def _opened_page(page: str, query: dict[str, str], trainee: Trainee | None,
                 prepare: Callable[[Any], None] | None) -> Any:
    """The app, run once on ``page`` (signed in as ``trainee`` when given), then prepared."""
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(APP), default_timeout=300)
    if trainee is not None:
        app.session_state[SIGNED_IN_KEY] = trainee
    for key, value in query.items():
        app.query_params[key] = value
    app.run()
    app.switch_page(page)
    app.run()
    if prepare is not None:
        prepare(app)
    _check(app, page, signed_in=trainee is not None)
    return app


def _opened_floor(floor: str, query: dict[str, str], trainee: Trainee | None,
                  prepare: Callable[[Any], None] | None = None) -> Any:
    """The floor script ``floor`` (a file of ``floors/``), prepared and run once."""
    from streamlit.testing.v1 import AppTest

    floor_app = AppTest.from_file(str(FLOORS / floor), default_timeout=300)
    if trainee is not None:
        floor_app.session_state[SIGNED_IN_KEY] = trainee
    for key, value in query.items():
        floor_app.query_params[key] = value
    if prepare is not None:
        prepare(floor_app)
    floor_app.run()
    return floor_app


def _check(app: object, page: str, signed_in: bool = False) -> None:
    """The page ran without an exception (and, when asked, still signed in: a page that
    only asks for a sign-in would be measured as fast as nothing)."""
    exceptions = app.exception
    if exceptions:
        raise RuntimeError(f"{page} raised: {exceptions[0].value}")
    if signed_in and not any(button.key == "sign-out" for button in app.sidebar.button):
        raise RuntimeError(f"{page} was measured signed out")
