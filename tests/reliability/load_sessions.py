"""Many sessions answering practice cards at once (used by test_concurrent_sessions).

Two kinds of session share one asyncio loop and one answering window:

- **browser**: a Chromium context of its own with one page, driven through Playwright's
  async API the way a trainee clicks (sign in with name and PIN, the form, Check, the
  feedback, Next card);
- **websocket**: a client speaking Streamlit's own protocol on ``/_stcore/stream``: it
  sends the same widget values the page would (``BackMsg.rerun_script`` with the sign-in
  form's name, PIN and submit button, then the card form's values as the capacity tool
  fills them, ``quizbench.capacity.protocol.fill_form``: findings, selectboxes, radios and
  the submit button) and reads the page the server draws (``ForwardMsg`` deltas). To the
  server it is a browser tab; it costs the test machine almost nothing, so the server, not
  Chromium, does the work.

Every trainee must already have an account with the PIN given to ``run_sessions``.

An answer counts as acknowledged when its right/wrong banner is on the page: for a
browser session the ``stAlertContent{Success,Error}`` box, for a websocket session an
``alert`` element of format SUCCESS or ERROR in the main area of the finished run.

The loop runs in a thread of its own with its own Chromium, because the test process may
already hold a sync Playwright (the shared browser of the e2e fixtures), and one thread can
only have one. Traffic goes only to the app server's 127.0.0.1 address.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from quizbench.capacity import load
from quizbench.capacity.protocol import Page, Widget, fill_form
from tests.e2e.driver import (
    CHOSEN,
    CHROMIUM_ARGS,
    FINDING_CONTROL,
    NEAREST_QUESTION,
    PLAYERS_QUESTION,
    SCROLL_SETTLED,
    finding_number,
    label,
)

MAIN, SIDEBAR = 0, 1  # the first number of a delta path: the page's root containers
SIGN_IN_FORM = "sign-in"  # the sidebar's sign-in form (quiz.ui.sign_in)
STEP_TIMEOUT = 60.0  # seconds for one step (a page load, a feedback) on a busy, shared 2-core machine
VIEWPORT = {"width": 1100, "height": 900}
SETTLED = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return false;
    const run = app.getAttribute('data-test-script-state');
    const link = app.getAttribute('data-test-connection-state');
    if (run === null) return !document.querySelector('[data-testid="stStatusWidget"]');
    return run === 'notRunning' && (link === null || link === 'CONNECTED');
}"""


@dataclass
class SessionTally:
    """What one session did and saw (times in seconds from the start of the run)."""

    trainee: str
    kind: str  # "browser" or "websocket"
    feedbacks: list[float] = field(default_factory=list)  # when each answer was acknowledged
    first_card: float | None = None  # when the session first had a card to answer
    exceptions: int = 0  # exception boxes seen (browser: the most at once; websocket: all elements)
    error: str | None = None  # why the session stopped early, if it did


@dataclass
class LoadRun:
    """Every session's tally, the timings, and the server's RSS sampled during the run."""

    sessions: list[SessionTally] = field(default_factory=list)
    duration: float = 0.0  # the answering window, from the start of the run
    finished: float = 0.0  # when the last session stopped
    rss_samples_kib: list[int] = field(default_factory=list)
    active_sessions: list[int] = field(default_factory=list)  # the server's own count, sampled

    @property
    def feedbacks(self) -> int:
        return sum(len(s.feedbacks) for s in self.sessions)

    @property
    def all_connected(self) -> float:
        """When the last session got its first card: from then on every session was answering."""
        return max((s.first_card for s in self.sessions if s.first_card is not None), default=self.finished)

    def answers_between(self, start: float, end: float, kind: str | None = None) -> int:
        return sum(start <= t <= end for s in self.sessions if kind in (None, s.kind) for t in s.feedbacks)


def rss_kib(pid: int, field_name: str = "VmRSS") -> int:
    """A memory figure of a process from /proc/<pid>/status, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field_name}:"):
            return int(line.split()[1])
    raise LookupError(f"no {field_name} for process {pid}")


def active_sessions(base: str) -> int:
    """The server's count of connected sessions (``quizbench.capacity.load.active_sessions``)."""
    count = load.active_sessions(base, timeout=10)
    if count is None:
        raise LookupError(f"no active_sessions in {base}/_stcore/metrics")
    return count


def _keep_going(tally: SessionTally, started: float, duration: float, cap: int) -> bool:
    """At least one answer, then more until the window closes or the cap is reached."""
    return len(tally.feedbacks) < cap and (not tally.feedbacks or time.monotonic() - started < duration)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {' / '.join(str(error).splitlines()[:6])}"


# --- browser sessions ---------------------------------------------------------------------------


async def _settle(page) -> None:
    await page.wait_for_function(SETTLED, timeout=STEP_TIMEOUT * 1000)


async def _open_ruling(page) -> None:
    """A floor call shows its investigation first: press Rule for its form (any other card's
    form is there already)."""
    main = page.get_by_test_id("stMain")
    check = main.get_by_test_id("stForm").get_by_role("button", name=label("Check"))
    rule = main.get_by_role("button", name=re.compile(r"^Rule$"))
    await check.or_(rule).first.wait_for(state="visible")
    if not await check.count():
        await rule.click()
        await check.wait_for(state="visible")


async def _fill_and_check(page) -> None:
    """Fill the card's form with its first choices and press Check (any answer will do)."""
    main = page.get_by_test_id("stMain")
    form = main.get_by_test_id("stForm")
    check = form.get_by_role("button", name=label("Check"))
    penalty = form.get_by_role("radiogroup", name="Penalty", exact=True)
    choices = form.get_by_role("radiogroup", name="Your answer", exact=True)
    nearest = form.get_by_role("combobox", name=NEAREST_QUESTION, exact=True)
    await check.wait_for(state="visible")
    await _settle(page)
    kind = await _first_shown({"scenario": penalty, "knowledge": choices, "judgement_call": nearest})
    if kind == "judgement_call":  # name the nearest line
        await _pick_first(page, nearest)
        await check.click()
        return
    await _answer_findings(form)
    if kind == "scenario":
        await _pick_first(page, form.get_by_role("combobox", name="Infraction", exact=True))
        players = form.get_by_role("radiogroup", name=PLAYERS_QUESTION, exact=True)
        if await players.count():
            await players.locator("label").first.click()
    group = penalty if kind == "scenario" else choices
    await group.locator("label").first.click()
    await check.click()


async def _answer_findings(form) -> None:
    """``driver.answer_findings`` in Playwright's async API: the first button of each yes/no
    finding (unless one is chosen already: a second tap would clear it), the least whole
    number in each number box, taken on blur (Enter would submit the form)."""
    for control in await form.locator(FINDING_CONTROL).all():
        choices, number = control.get_by_role("radio"), control.get_by_role("spinbutton")
        await choices.first.or_(number).wait_for(state="visible")
        if await number.count():
            if not await number.input_value():
                await number.fill(finding_number(await number.get_attribute("min")))
                await number.blur()
            await control.get_by_test_id("InputInstructions").wait_for(state="detached")  # taken
        elif not await control.locator(CHOSEN).count():
            await choices.first.click()
            await control.locator(CHOSEN).wait_for(state="visible")


async def _first_shown(questions: dict) -> str:
    """Which of the form's questions is drawn (waiting until one is): the card's kind, read
    from the page as it is once a redraw has put one there, never from a page mid-redraw."""
    waits = {asyncio.ensure_future(locator.wait_for(state="visible")): kind for kind, locator in questions.items()}
    done, pending = await asyncio.wait(waits, timeout=STEP_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    shown = [waits[task] for task in done if task.exception() is None]
    if not shown:
        raise TimeoutError(f"no answer form drawn within {STEP_TIMEOUT:.0f} s")
    return shown[0]


async def _pick_first(page, combobox) -> None:
    """Pick a selectbox's first option (``driver.pick_option`` in the async API). The box is
    scrolled into view and the layout left to settle first: a list opened before then closes
    on the scroll event that follows. No Escape after it: the list closes by itself, and
    Escape on a closed list clears the value just picked."""
    await combobox.scroll_into_view_if_needed()
    await page.evaluate(SCROLL_SETTLED)
    await combobox.click()
    await page.get_by_role("option").first.click()
    await page.get_by_role("listbox").wait_for(state="detached")


async def _sign_in(page, name: str, pin: str) -> None:
    """Fill the sidebar's sign-in form and wait until the sidebar shows the Sign out button."""
    sidebar = page.get_by_test_id("stSidebar")
    sign_in = page.get_by_role("button", name="Sign in", exact=True)
    form = sidebar.get_by_test_id("stForm").filter(has=sign_in)  # not the "New trainee" form
    await _settle(page)
    await form.get_by_label("Name", exact=True).fill(name)
    await form.get_by_label("PIN", exact=True).fill(pin)
    await form.locator(sign_in).click()
    await sidebar.get_by_role("button", name="Sign out", exact=True).wait_for(state="visible")


async def _browser_session(browser, base: str, tally: SessionTally, pin: str, load_gate: asyncio.Semaphore,
                           started: float, duration: float, cap: int) -> None:
    context = await browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC")
    context.set_default_timeout(STEP_TIMEOUT * 1000)
    page = await context.new_page()
    main = page.get_by_test_id("stMain")
    feedback = main.get_by_test_id("stAlertContentSuccess").or_(main.get_by_test_id("stAlertContentError"))
    incomplete = main.get_by_test_id("stAlertContentWarning")
    try:
        async with load_gate:  # a few pages load at a time; the loaded ones answer meanwhile
            await page.goto(f"{base}/?{urlencode({'lang': 'en'})}")
            await _sign_in(page, tally.trainee, pin)
            await _open_ruling(page)
        tally.first_card = time.monotonic() - started
        while _keep_going(tally, started, duration, cap):
            for _ in range(3):  # a choice made while the page was redrawing can be lost: fill the form again
                await _fill_and_check(page)
                await feedback.or_(incomplete).first.wait_for(state="visible")
                if await feedback.count():
                    break
            await feedback.first.wait_for(state="visible")  # the answer is acknowledged
            tally.feedbacks.append(time.monotonic() - started)
            tally.exceptions = max(tally.exceptions, await page.get_by_test_id("stException").count())
            await _settle(page)
            await main.get_by_role("button", name=label("Next card")).click()
            await feedback.first.wait_for(state="detached")  # the answered card is gone: the next one is drawing
            await _open_ruling(page)
    except Exception as error:  # noqa: BLE001 - reported by the test, with the session's name
        tally.error = _describe(error)
    finally:
        try:
            tally.exceptions = max(tally.exceptions, await page.get_by_test_id("stException").count())
        except Exception:  # noqa: BLE001 - the page may be gone with the error above
            pass
        await context.close()


# --- websocket sessions -------------------------------------------------------------------------


class _StreamlitTab:
    """One Streamlit session over the websocket, as the browser's frontend would hold it."""

    def __init__(self, socket, query: str) -> None:
        self.socket, self.query = socket, query
        self.elements: dict[tuple[int, ...], Any] = {}  # delta path -> Element of the last finished run

    async def run(self, widgets=()) -> None:
        """Ask for a rerun with these widget values; wait until a run finishes (after any st.rerun)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        back = BackMsg()
        back.rerun_script.query_string = self.query
        back.rerun_script.widget_states.widgets.extend(widgets)
        await self.socket.send(back.SerializeToString())
        elements: dict[tuple[int, ...], Any] = {}
        while True:
            message = ForwardMsg()
            message.ParseFromString(await asyncio.wait_for(self.socket.recv(), STEP_TIMEOUT))
            kind = message.WhichOneof("type")
            if kind == "new_session":  # a run starts (again, after st.rerun): the page is drawn afresh
                elements = {}
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                elements[tuple(message.metadata.delta_path)] = message.delta.new_element
            elif kind == "script_finished":
                if message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    self.elements = elements
                    return
                if message.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise RuntimeError("the script did not compile")

    def main(self, kind: str, label: str | None = None) -> list:
        """The ``kind`` widgets/elements of the main area, in page order (optionally by label)."""
        return self._in(MAIN, kind, label)

    def sidebar(self, kind: str, label: str | None = None) -> list:
        """The ``kind`` widgets/elements of the sidebar, in page order (optionally by label)."""
        return self._in(SIDEBAR, kind, label)

    def _in(self, root: int, kind: str, label: str | None) -> list:
        return [
            getattr(element, kind) for path, element in sorted(self.elements.items())
            if path[0] == root and element.WhichOneof("type") == kind
            and (label is None or getattr(element, kind).label == label)
        ]

    async def open_ruling(self) -> None:
        """A floor call's Rule pressed, when the card shows it instead of a form."""
        rule = self.main("button", "Rule")
        if rule and not self.main("button", "Check"):
            from streamlit.proto.WidgetStates_pb2 import WidgetState

            await self.run([WidgetState(id=rule[0].id, trigger_value=True)])

    def answer(self) -> list[Any]:
        """The widget states that answer the main area's card form with its first choices
        (findings included) and press Check, as the capacity tool fills a form."""
        page = Page([Widget(path, element.WhichOneof("type"), getattr(element, element.WhichOneof("type")))
                     for path, element in sorted(self.elements.items()) if path[0] == MAIN])
        form = page.answer_form(prefix="answer-")  # the card's, not the feedback's "report a problem"
        if form is None:
            raise AssertionError("no card form to answer")
        return fill_form(form[1], random.Random(0), "first")

    def form(self, form_id: str) -> dict[str, Any]:
        """The widgets of the form ``form_id`` (main area or sidebar), by label."""
        widgets = {}
        for _, element in sorted(self.elements.items()):
            widget = getattr(element, element.WhichOneof("type"))
            if getattr(widget, "form_id", None) == form_id:
                widgets[widget.label] = widget
        return widgets

    @property
    def exceptions(self) -> int:
        return sum(element.WhichOneof("type") == "exception" for element in self.elements.values())


async def _websocket_session(base: str, tally: SessionTally, pin: str, started: float, duration: float,
                             cap: int) -> None:
    from streamlit.proto.Alert_pb2 import Alert
    from streamlit.proto.WidgetStates_pb2 import WidgetState
    from websockets.asyncio.client import connect

    url = base.replace("http://", "ws://", 1) + "/_stcore/stream"
    try:
        async with connect(url, subprotocols=["streamlit"], max_size=16 * 2**20, open_timeout=STEP_TIMEOUT) as socket:
            tab = _StreamlitTab(socket, urlencode({"lang": "en"}))
            await tab.run()
            form = tab.form(SIGN_IN_FORM)  # submitted as the page does: the form's values and its button
            await tab.run([WidgetState(id=form["Name"].id, string_value=tally.trainee),
                           WidgetState(id=form["PIN"].id, string_value=pin),
                           WidgetState(id=form["Sign in"].id, trigger_value=True)])
            await tab.open_ruling()
            if not tab.sidebar("button", "Sign out") or not tab.main("button", "Check"):
                raise AssertionError(f"not signed in: {[a.body for a in tab.sidebar('alert') + tab.main('alert')]}")
            tally.first_card = time.monotonic() - started
            while _keep_going(tally, started, duration, cap):
                # every question the form asks, with its first option: a scenario's findings,
                # infraction, penalty and (on acts of both players) who receives it; a
                # knowledge card's answer; a judgement call's nearest line
                await tab.open_ruling()
                await tab.run(tab.answer())
                tally.exceptions += tab.exceptions
                banners = [a for a in tab.main("alert") if a.format in (Alert.SUCCESS, Alert.ERROR)]
                if not banners:
                    raise AssertionError(f"no feedback after Check: {[a.body for a in tab.main('alert')]}")
                tally.feedbacks.append(time.monotonic() - started)
                [next_card] = tab.main("button", "Next card")
                await tab.run([WidgetState(id=next_card.id, trigger_value=True)])
                tally.exceptions += tab.exceptions
    except Exception as error:  # noqa: BLE001 - reported by the test, with the session's name
        tally.error = _describe(error)


# --- the run ------------------------------------------------------------------------------------


async def _run(chromium: str, base: str, browsers: list[str], sockets: list[str], pin: str, duration: float,
               cap: int, load_at_once: int, server_pid: int) -> LoadRun:
    from playwright.async_api import async_playwright

    run = LoadRun(duration=duration, sessions=[SessionTally(name, "browser") for name in browsers]
                  + [SessionTally(name, "websocket") for name in sockets])

    async def sample() -> None:  # at most 2 requests a second, for as long as the run lasts
        while True:
            run.rss_samples_kib.append(rss_kib(server_pid))
            run.active_sessions.append(await asyncio.to_thread(active_sessions, base))
            await asyncio.sleep(0.5)  # a sampling period, not a wait for the app

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        sampler = asyncio.create_task(sample())
        try:
            gate, started = asyncio.Semaphore(load_at_once), time.monotonic()
            await asyncio.gather(*(
                _browser_session(browser, base, tally, pin, gate, started, duration, cap) if tally.kind == "browser"
                else _websocket_session(base, tally, pin, started, duration, cap)
                for tally in run.sessions
            ))
            run.finished = time.monotonic() - started
        finally:
            sampler.cancel()
            await browser.close()
    return run


def run_sessions(chromium: str, base: str, *, browsers: list[str], sockets: list[str], pin: str, duration: float,
                 cap: int, load_at_once: int, server_pid: int, timeout: float) -> LoadRun:
    """Sessions for these trainees (a browser context each, or a websocket client each), all
    signing in with ``pin``, then answering practice cards from the moment they have a card
    until ``duration`` seconds after the start (at least one answer, at most ``cap``). Every
    context and socket is closed when this returns."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="load-sessions") as pool:
        future = pool.submit(
            asyncio.run, _run(chromium, base, browsers, sockets, pin, duration, cap, load_at_once, server_pid)
        )
        return future.result(timeout=timeout)
