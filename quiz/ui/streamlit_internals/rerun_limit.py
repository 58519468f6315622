"""Reruns a client may ask for: at a person's pace per session and per client.

**The Streamlit internal this patches.** Streamlit 1.67 (``version.STREAMLIT_VERSIONS``). Its
websocket handler (``streamlit/web/server/starlette/starlette_websocket.py``,
``_websocket_endpoint``) reads every frame of a tab's
``/_stcore/stream`` and hands each ``BackMsg`` to ``Runtime.handle_backmsg(session_id, msg,
*, client=...)`` (``streamlit/runtime/runtime.py``) on the server's event loop, with no
limit. For a ``rerun_script`` message, ``AppSession.request_rerun`` with
``runner.fastReruns`` on (the default) stops the session's running ``ScriptRunner`` and
starts a new one: a thread per message, about 2 ms of the event loop each, and the loop
reads the next frame without letting anything else in (the frames are already there). So
a burst of tiny messages, sent in a fraction of a second, holds the health endpoint and
every other tab off for seconds (figures in docs/RELIABILITY.md).

**What this does.** ``install`` replaces ``Runtime.handle_backmsg`` with a wrapper that
passes every other message through and offers each ``rerun_script`` to a
``quiz.access.rate_limit.RerunGate``:

- per session, a burst of ``SESSION_RATE.burst`` reruns, then ``SESSION_RATE.per_second``
  a second: far above a person's clicks and the exam countdown's one fragment run a
  second, and above the capacity tool's machine-speed sessions on this hardware;
- per client address (``client.client_context.remote_ip``, across its sessions), full
  reruns (not a fragment's) at ``CLIENT_RATE``. Loopback addresses are not counted: they
  are this machine's own tools (tests, ``make capacity``) or a proxy that does not pass
  the client's address on. Behind HAProxy, ``option forwardfor`` (scripts/haproxy.cfg.in)
  and Uvicorn's proxy headers (it trusts ``X-Forwarded-For`` from 127.0.0.1, or from
  ``FORWARDED_ALLOW_IPS``) make ``remote_ip`` the browser's address.

A rerun beyond the rate is not dropped but *held*: the session's latest such request
replaces the one held before it and runs as soon as the rate allows, so the tab always ends
up running what it asked for last (a click inside a flood that a later request replaces is
lost; a person does not click 10 times a second for seconds). The first hold of a session
(or client) after a quiet spell is logged once, as a warning.

Holding costs little, but each frame still costs the event loop its reading (about 20 µs):
a client sending without pause for seconds would still hold the loop. So a session that
has ``CUT_AFTER`` (5,000) held requests replaced in one flood loses its connection: the
wrapper raises Starlette's ``WebSocketDisconnect``, which the websocket handler takes as
the client leaving (it ends the session and returns, and Uvicorn closes the socket).

The wrapper is installed by ``app.py``'s first run in the process (Streamlit runs nothing
of the app before); until then, Streamlit's own handling applies. It is refused, with an
error in the log, when the installed Streamlit is not one of ``version.STREAMLIT_VERSIONS`` or
``Runtime.handle_backmsg`` no longer takes ``(session_id, msg, *, client)`` or is no
longer called inside the websocket handler's ``WebSocketDisconnect`` handling;
``tests/ui/streamlit_internals/test_rerun_limit.py`` fails on either, so an upgrade has to
look here again.
Everything runs on Streamlit's event loop thread (``handle_backmsg`` is called there, and
releases are scheduled on it), so the gate needs no lock.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import time
from typing import Any, Callable

from starlette.websockets import WebSocketDisconnect
from streamlit.runtime.runtime import Runtime
from streamlit.runtime.state.common import GENERATED_ELEMENT_ID_PREFIX
from streamlit.web.server.starlette import starlette_websocket

from quiz.access.rate_limit import CUT_AFTER, RatePolicy, RerunGate
from quiz.ui.streamlit_internals.client import counted_address
from quiz.ui.streamlit_internals.version import fits

SESSION_RATE = RatePolicy(burst=20, per_second=10.0)
CLIENT_RATE = RatePolicy(burst=120, per_second=30.0)
PARAMETERS = ("self", "session_id", "msg", "client")  # Runtime.handle_backmsg's, in 1.67
HANDOFF = "runtime.handle_backmsg(session_id, back_msg, client=client)"  # in the websocket handler
MARK = "__quiz_rerun_limit__"  # set on the wrapper: installed already
POLICY_VIOLATION = 1008  # the websocket close code for a client cut off

log = logging.getLogger(__name__)
HandleBackMsg = Callable[..., None]


def client_address(client: Any) -> str | None:
    """The address to count a client's reruns under; None for loopback or unknown."""
    return counted_address(getattr(getattr(client, "client_context", None), "remote_ip", None))


WIDGET_ID_PREFIX = GENERATED_ELEMENT_ID_PREFIX + "-"  # every widget id Streamlit gives a page starts so


def drop_forged_widgets(msg: Any) -> list[str]:
    """Remove from a ``rerun_script`` the widget values no page could have sent; what was wrong.

    An id that is not a widget id (no ``$$ID-``) makes Streamlit's session state raise a
    ``KeyError`` at the page's first widget, and a number that is not finite (NaN, infinity)
    breaks a number box: each drew the sender an exception and wrote a traceback of about
    8.5 KB to the server's log, every run. Dropped, the widget keeps its last value.
    """
    widgets = msg.rerun_script.widget_states.widgets
    problems = []
    for index in reversed(range(len(widgets))):
        state = widgets[index]
        kind = state.WhichOneof("value")
        if not state.id.startswith(WIDGET_ID_PREFIX):
            problems.append("an id that is not a widget's")
        elif kind == "double_value" and not math.isfinite(state.double_value):
            problems.append("a number that is not finite")
        elif kind == "double_array_value" and not all(math.isfinite(v) for v in state.double_array_value.data):
            problems.append("numbers that are not finite")
        else:
            continue
        del widgets[index]
    return problems


def limited(original: HandleBackMsg, gate: RerunGate[Any],
            clock: Callable[[], float] = time.monotonic) -> HandleBackMsg:
    """``original`` (``Runtime.handle_backmsg``) behind ``gate`` for ``rerun_script`` messages.
    Must be called on a running event loop (as Streamlit calls ``handle_backmsg``)."""

    def release(runtime: Any, session_id: str) -> None:
        request, wait = gate.release(session_id, clock())
        if request is not None:
            msg, client = request
            try:
                original(runtime, session_id, msg, client=client)
            except Exception:  # noqa: BLE001 - the server is stopping, or the session went wrong: not ours
                log.debug("a held rerun of session %s could not be handed on", session_id, exc_info=True)
        elif wait is not None:
            asyncio.get_running_loop().call_later(wait, release, runtime, session_id)

    def handle_backmsg(self: Any, session_id: str, msg: Any, *, client: Any = None) -> None:
        if msg.WhichOneof("type") != "rerun_script":
            return original(self, session_id, msg, client=client)
        address = client_address(client)
        forged = drop_forged_widgets(msg)
        if forged:  # one line, no traceback: the page runs without them
            log.warning("session %s (client %s) sent widget values no page sends, dropped: %s",
                        session_id, address or "local", ", ".join(sorted(set(forged))))
        admission = gate.offer(session_id, address, (msg, client), clock(),
                               counts_for_client=not msg.rerun_script.fragment_id)
        if admission.run:
            return original(self, session_id, msg, client=client)
        if admission.cut:
            log.warning("session %s (client %s) sent %d rerun requests beyond the rate in one flood: "
                        "closing its connection", session_id, address or "local", gate.cut_after)
            raise WebSocketDisconnect(code=POLICY_VIOLATION)  # the websocket handler ends the session
        if admission.first_hold_of_session:
            log.warning("session %s (client %s) asks for reruns faster than %d at once or %g a second: "
                        "holding them, only the latest runs", session_id, address or "local",
                        gate.session_policy.burst, gate.session_policy.per_second)
        if admission.first_hold_of_client:
            log.warning("client %s asks for reruns faster than %d at once or %g a second across its sessions: "
                        "holding them", address, gate.client_policy.burst, gate.client_policy.per_second)
        if admission.release_in is not None:
            asyncio.get_running_loop().call_later(admission.release_in, release, self, session_id)
        return None

    setattr(handle_backmsg, MARK, gate)
    handle_backmsg.__wrapped__ = original  # type: ignore[attr-defined]
    handle_backmsg.__doc__ = f"{original.__doc__ or ''}\n\nWrapped by {__name__} (rerun_script rate)."
    return handle_backmsg


def check_internals() -> list[str]:
    """What differs in Streamlit's internals from what this module was written for (empty
    when nothing; the version is ``version.supported``'s)."""
    problems = []
    original = getattr(Runtime.handle_backmsg, "__wrapped__", Runtime.handle_backmsg)
    parameters = inspect.signature(original).parameters
    handler = inspect.getsource(starlette_websocket.create_websocket_handler)
    if HANDOFF not in handler or "except WebSocketDisconnect:" not in handler:
        problems.append("the websocket handler no longer hands each BackMsg to Runtime.handle_backmsg "
                        "inside its WebSocketDisconnect handling")
    if tuple(parameters) != PARAMETERS or parameters["client"].kind is not inspect.Parameter.KEYWORD_ONLY:
        problems.append(f"Runtime.handle_backmsg{inspect.signature(original)}, "
                        "written for (self, session_id, msg, *, client)")
    return problems


def installed_gate() -> RerunGate[Any] | None:
    """The gate in front of ``Runtime.handle_backmsg``, None when not installed."""
    return getattr(Runtime.handle_backmsg, MARK, None)


def install() -> bool:
    """Put the rerun limits in front of Streamlit's ``Runtime.handle_backmsg`` (once per
    process; later calls do nothing). False, with an error in the log, when Streamlit's
    internals are not the ones this was written for."""
    if installed_gate() is not None:
        return True
    if not fits(check_internals, "rerun limits not installed", log):
        return False
    gate: RerunGate[Any] = RerunGate(SESSION_RATE, CLIENT_RATE, cut_after=CUT_AFTER)
    Runtime.handle_backmsg = limited(Runtime.handle_backmsg, gate)  # type: ignore[method-assign]
    return True
