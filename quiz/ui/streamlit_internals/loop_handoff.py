"""A script run's messages reach the server's event loop in batches, not one wake-up each.

**The Streamlit internal this patches.** Streamlit 1.67 (``version.STREAMLIT_VERSIONS``).
Every element a script run draws is a ``ForwardMsg`` that the script thread hands to the
event loop through ``AppSession._on_scriptrunner_event``, which calls
``AppSession._call_soon_on_event_loop(callback)`` (``streamlit/runtime/app_session.py``),
which calls ``loop.call_soon_threadsafe`` once per message. Each of those writes a byte to
the loop's wake-up socket: a system call, a wake-up of the event loop's thread, and a hand-off
of the GIL between the two threads, some fifty times per answer. Under load that convoy was
a sixth of a script thread's time and half of the server's context switches.

**What this does.** ``install`` replaces ``AppSession._call_soon_on_event_loop`` with one
that puts the callback in its session's ``Handoff``: a queue that wakes the loop only when it
is idle. The loop then runs every callback queued by then, in the order they came, and
comes back for those queued while it ran after the loop's other work (a websocket's sending,
another session's batch). Nothing is held back: the first message of a burst wakes the loop
at once, as before; what changes is that the messages that follow while it is still
draining ride along. An exception in one callback goes to the loop's exception handler, as
``call_soon_threadsafe`` would, and the others still run; a callback for a loop already
closed is dropped, as Streamlit's own method does.

Measured with the saturating load (``make capacity``'s first phase, 16 sessions, the app
against PostgreSQL, batched and not in turns): server CPU per answer and context switches
per answer fall (docs/DEPLOYMENT.md has today's figures).

It is installed by ``app.py``'s first run in the process and refused, with an error in the
log, under a Streamlit this was not written for or when ``_on_scriptrunner_event`` no longer
hands its events to ``_call_soon_on_event_loop``;
``tests/ui/streamlit_internals/test_loop_handoff.py`` fails on either.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
from collections import deque
from typing import Any, Callable

from streamlit.runtime.app_session import AppSession

from quiz.ui.streamlit_internals.version import fits

log = logging.getLogger(__name__)

ATTRIBUTE = "_quiz_loop_handoff"
MARK = "_quiz_batches_handoff"
STREAMLITS_OWN = AppSession.__dict__["_call_soon_on_event_loop"]  # before ``install``: as Streamlit has it


class Handoff:
    """One session's callbacks on their way from its script threads to the event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._pending: deque[Callable[[], None]] = deque()
        self._scheduled = False

    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the loop after every callback handed over before it."""
        with self._lock:
            self._pending.append(callback)
            if self._scheduled:
                return
            self._scheduled = True
        try:
            self.loop.call_soon_threadsafe(self._drain)
        except RuntimeError:
            with self._lock:
                self._pending.clear()
                self._scheduled = False
            if not self.loop.is_closed():
                raise
            log.debug("Dropped event-loop callbacks: the loop is closed")

    def _drain(self) -> None:
        with self._lock:
            batch = list(self._pending)
            self._pending.clear()
        for callback in batch:
            try:
                callback()
            except Exception as error:  # noqa: BLE001 - reported as asyncio reports a callback's
                self.loop.call_exception_handler({"message": "Exception in a batched event-loop callback",
                                                  "exception": error})
        with self._lock:
            if not self._pending:
                self._scheduled = False
                return
        self.loop.call_soon(self._drain)  # what came while this batch ran, after the loop's other work


def handoff_of(session: Any) -> Handoff:
    """The session's hand-off, made on first use (``dict.setdefault`` keeps one if two
    threads race to make it)."""
    found = session.__dict__.get(ATTRIBUTE)
    if found is None:
        found = session.__dict__.setdefault(ATTRIBUTE, Handoff(session._event_loop))
    return found


def _batched_call_soon(self: Any, callback: Callable[[], None]) -> None:
    handoff_of(self).call_soon(callback)


setattr(_batched_call_soon, MARK, True)


def installed() -> bool:
    return bool(getattr(AppSession._call_soon_on_event_loop, MARK, False))


def check_internals() -> list[str]:
    """What differs in Streamlit's internals from what this module was written for (empty
    when nothing; the version is ``version.supported``'s)."""
    problems = []
    events = inspect.getsource(AppSession._on_scriptrunner_event)
    if "self._call_soon_on_event_loop(" not in events:
        problems.append("AppSession._on_scriptrunner_event no longer hands its events to _call_soon_on_event_loop")
    if not installed():
        parameters = tuple(inspect.signature(AppSession._call_soon_on_event_loop).parameters)
        if parameters != ("self", "callback"):
            problems.append(f"AppSession._call_soon_on_event_loop{parameters}, written for (self, callback)")
        if "call_soon_threadsafe" not in inspect.getsource(AppSession._call_soon_on_event_loop):
            problems.append("AppSession._call_soon_on_event_loop no longer calls the loop's call_soon_threadsafe")
    return problems


def install() -> bool:
    """Batch the script threads' hand-offs to the event loop (once per process; later calls do
    nothing). False, with an error in the log, when Streamlit's internals are not the ones
    this was written for."""
    if installed():
        return True
    if not fits(check_internals, "the batched hand-off to the event loop is not installed", log):
        return False
    AppSession._call_soon_on_event_loop = _batched_call_soon  # type: ignore[method-assign]
    return True
