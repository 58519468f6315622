"""The batched hand-off of a script run's messages to the event loop
(quiz.ui.streamlit_internals.loop_handoff).

The first tests fail when Streamlit changes under the patch. The others drive a ``Handoff``
from another thread into a real event loop running on a thread of its own, as Streamlit's
script threads hand their messages to the server's loop. Every browser and reliability test
runs the app with it installed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from streamlit.runtime.app_session import AppSession

from quiz.ui.streamlit_internals import loop_handoff
from quiz.ui.streamlit_internals.loop_handoff import Handoff, handoff_of
from tests.ui.streamlit_internals.conftest import NOT_WRITTEN_FOR

BURST = 50


class CountedLoop:
    """A real event loop on a thread of its own, counting the wake-ups asked of it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.wakeups = 0
        self.errors: list[dict] = []
        real = self.loop.call_soon_threadsafe

        def counted(callback, *args, **kwargs):
            self.wakeups += 1
            return real(callback, *args, **kwargs)

        self.loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        self.loop.set_exception_handler(lambda _loop, context: self.errors.append(context))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def settle(self) -> None:
        """Return once everything handed over so far has run (the drain re-queues itself with
        ``call_soon`` at most once per batch, and each batch here is finite)."""
        for _ in range(5):
            done = threading.Event()
            self.loop.call_soon_threadsafe(done.set)
            assert done.wait(10)
            self.wakeups -= 1  # the test's own

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def counted() -> Iterator[CountedLoop]:
    running = CountedLoop()
    yield running
    if not running.loop.is_closed():
        running.stop()


def hold_the_loop(running: CountedLoop) -> threading.Event:
    """Keep the loop busy in a callback until the returned event is set (as a loop busy
    sending to a websocket while a script thread draws)."""
    entered, release = threading.Event(), threading.Event()

    def busy() -> None:
        entered.set()
        release.wait(10)

    running.loop.call_soon_threadsafe(busy)
    running.wakeups -= 1
    assert entered.wait(10)
    return release


def test_written_for_the_pinned_streamlit(streamlits_own) -> None:
    assert loop_handoff.check_internals() == []  # the version: test_version.py


@pytest.fixture
def streamlits_own(monkeypatch) -> None:
    """AppSession's hand-off as Streamlit has it, whatever an app run before in this process
    installed (restored after the test)."""
    monkeypatch.setattr(AppSession, "_call_soon_on_event_loop", loop_handoff.STREAMLITS_OWN)


def test_install_replaces_the_hand_off_once(streamlits_own) -> None:
    assert not loop_handoff.installed()
    assert loop_handoff.install()
    batched = AppSession._call_soon_on_event_loop
    assert loop_handoff.installed()
    assert loop_handoff.install()
    assert AppSession._call_soon_on_event_loop is batched


def test_install_is_refused_under_another_streamlit(streamlits_own, another_streamlit, caplog) -> None:
    with caplog.at_level(logging.ERROR):
        assert not loop_handoff.install()
    assert f"is written for Streamlit {NOT_WRITTEN_FOR}" in caplog.text
    assert not loop_handoff.installed()


def test_install_is_refused_when_events_no_longer_pass_through_it(streamlits_own, monkeypatch, caplog) -> None:
    def elsewhere(self, sender, event, **kwargs) -> None:
        self._event_loop.call_soon_threadsafe(lambda: None)

    monkeypatch.setattr(AppSession, "_on_scriptrunner_event", elsewhere)
    with caplog.at_level(logging.ERROR, logger=loop_handoff.__name__):
        assert not loop_handoff.install()
    assert "no longer hands its events to _call_soon_on_event_loop" in caplog.text


def test_a_burst_while_the_loop_is_busy_wakes_it_once_and_runs_in_order(counted) -> None:
    handoff, ran = Handoff(counted.loop), []
    release = hold_the_loop(counted)
    for n in range(BURST):
        handoff.call_soon(lambda n=n: ran.append(n))
    release.set()
    counted.settle()
    assert ran == list(range(BURST))
    assert counted.wakeups == 1  # Streamlit's own method: one per message, 50


def test_the_first_message_wakes_the_loop_at_once(counted) -> None:
    handoff, ran = Handoff(counted.loop), threading.Event()
    handoff.call_soon(ran.set)
    assert ran.wait(10)  # nothing waits for a second message
    counted.settle()
    handoff.call_soon(lambda: None)  # the loop went idle: the next message wakes it again
    counted.settle()
    assert counted.wakeups == 2


def test_callbacks_handed_over_while_a_batch_runs_run_after_it_in_order(counted) -> None:
    handoff, ran = Handoff(counted.loop), []

    def first() -> None:
        ran.append("first")
        handoff.call_soon(lambda: ran.append("from the batch"))

    release = hold_the_loop(counted)
    handoff.call_soon(first)
    handoff.call_soon(lambda: ran.append("second"))
    release.set()
    counted.settle()
    assert ran == ["first", "second", "from the batch"]
    assert counted.wakeups == 1


def test_a_failing_callback_is_reported_and_the_rest_still_run(counted) -> None:
    handoff, ran = Handoff(counted.loop), []

    def fails() -> None:
        raise ValueError("one element's handling failed")

    release = hold_the_loop(counted)
    handoff.call_soon(lambda: ran.append(1))
    handoff.call_soon(fails)
    handoff.call_soon(lambda: ran.append(3))
    release.set()
    counted.settle()
    assert ran == [1, 3]
    [error] = counted.errors
    assert isinstance(error["exception"], ValueError)


def test_a_callback_for_a_closed_loop_is_dropped(counted) -> None:
    handoff = Handoff(counted.loop)
    counted.stop()
    handoff.call_soon(lambda: None)  # Streamlit drops it too: process shutdown, test teardown
    handoff.call_soon(lambda: None)  # and the hand-off is not left waiting on a wake-up


def test_a_session_keeps_one_handoff_on_its_own_loop(counted) -> None:
    session = SimpleNamespace(_event_loop=counted.loop)
    first = handoff_of(session)
    assert handoff_of(session) is first and first.loop is counted.loop
    assert handoff_of(SimpleNamespace(_event_loop=counted.loop)) is not first


def test_the_installed_method_runs_a_session_s_callbacks_on_its_loop(counted) -> None:
    session = SimpleNamespace(_event_loop=counted.loop)
    on_loop: list[bool] = []
    loop_handoff._batched_call_soon(session, lambda: on_loop.append(threading.current_thread() is counted.thread))
    counted.settle()
    assert on_loop == [True]
