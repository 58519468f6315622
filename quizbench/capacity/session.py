"""One session of a load run: a trainee answering cards over Streamlit's websocket.

Each session is a trainee with an account (name and PIN): it opens ``/_stcore/stream`` at
the given base URL (an app server, the floor app, or HAProxy in front of several servers),
signs in through the sidebar's sign-in form, and then either practises (answers the card's
form, reads the feedback, presses Next card; on a floor call it first takes a few of its
steps, each after a short think, and presses Rule, which opens the form) or takes mock exams (starts one, saves an
answer per question and moves on with Next, hands in, confirming when asked, starts the
next). Before each answer it waits a think time drawn from the given range. A session that
loses its connection (its server killed, say)
opens a new one the way a reloaded browser tab would, sending the cookies it was given
(HAProxy's sticky-session cookie), signs in again and goes on; an exam in progress is
resumed from the page's Resume button.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlencode

from quizbench.capacity.load_run_state import LoadSpec, RunState, SessionStuck, SessionTally
from quizbench.capacity.protocol import MAIN, Page, ScriptFailed, ServerGone, Tab, fill_form, press, text_values

SIGN_IN_FORM = "sign-in"
LB_COOKIE = "QUIZ_SERVER"  # the sticky-session cookie of scripts/haproxy.cfg.in


def _ws_url(base: str) -> str:
    return base.rstrip("/").replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/_stcore/stream"


async def open_socket(spec: LoadSpec, jar: dict[str, str]):
    from websockets.asyncio.client import connect

    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else None
    socket = await connect(
        _ws_url(spec.url), subprotocols=["streamlit"], max_size=64 * 2**20, open_timeout=spec.step_timeout,
        additional_headers=headers, proxy=None, compression=None, ping_interval=None,
    )
    for header in socket.response.headers.get_all("Set-Cookie"):
        name, _, rest = header.partition("=")
        jar[name.strip()] = rest.split(";", 1)[0].strip()
    return socket


async def sign_in(tab: Tab, tally: SessionTally, pin: str) -> None:
    """Fill the sidebar's sign-in form (the password field gets the PIN, the other the name)."""
    from streamlit.proto.TextInput_pb2 import TextInput

    form = [w for w in tab.page.find(form=SIGN_IN_FORM)]
    inputs = [w for w in form if w.kind == "text_input"]
    submit = [w for w in form if w.is_submit]
    if not inputs or not submit:
        raise SessionStuck(f"no sign-in form on the page: {_describe(tab.page)}")
    values = {w.id: pin if w.proto.type == TextInput.PASSWORD else tally.trainee for w in inputs}
    seconds = await tab.run([*text_values(values), *press(submit[0])])
    if tab.page.find(form=SIGN_IN_FORM):
        bodies = [a.body for a in tab.page.alerts(root=1) + tab.page.alerts()]
        raise SessionStuck(f"not signed in: {bodies}")
    tally.sign_in_latencies.append(seconds)


def _describe(page: Page) -> str:
    return ", ".join(f"{w.kind}:{w.label or w.key or ''}"[:40] for w in page.widgets if w.root == MAIN)[:400]


def _next_button(page: Page):
    buttons = [w for w in page.find("button", root=MAIN) if not w.form_id]
    for test in (lambda w: (w.key or "").startswith("next-"), lambda w: w.label == "Next card",
                 lambda w: w.proto.type == "primary"):
        found = [w for w in buttons if test(w)]
        if found:
            return found[0]
    return None


async def _think(run: RunState, tab: Tab, tally: SessionTally, seconds: float) -> bool:
    """Wait the think time, running the page's auto-rerun fragments on their timers meanwhile
    (the exam's countdown ticks each second in a browser); whether the run goes on."""
    end = run.now() + seconds
    while True:
        interval = min(tab.auto_reruns.values(), default=None)
        remaining = end - run.now()
        if interval is None or remaining <= interval:
            return await run.pause(max(remaining, 0.0))
        if not await run.pause(interval):
            return False
        tally.tick_latencies.append(await tab.tick())
        tally.exceptions += tab.page.exceptions


async def _click(tab: Tab, states: list, runs: list[int], full_runs: list[int]) -> float:
    """Send a click; note the script runs it cost, and how many of them ran the whole script."""
    before, full_before = tab.script_runs, tab.full_runs
    seconds = await tab.run(states)
    runs.append(tab.script_runs - before)
    full_runs.append(tab.full_runs - full_before)
    return seconds


async def _submit(tab: Tab, run: RunState, tally: SessionTally, widgets, rng: random.Random) -> float:
    states = fill_form(widgets, rng, run.spec.choice)
    tally.in_flight = True
    seconds = await _click(tab, states, tally.submit_runs, tally.submit_full_runs)
    tally.submit_forms.append(tab.forms_drawn)
    tally.in_flight = False
    tally.exceptions += tab.page.exceptions
    return seconds


def floor_call_buttons(page: Page, prefix: str = "answer-") -> tuple[list, Any]:
    """A floor call under investigation, on Practice (``prefix`` ``answer-``) or in an exam
    (``exam-``): its open steps' buttons (keys ``<form>-step-ID``) and its Rule button
    (``<form>-rule``); ([], None) on any other card."""
    buttons = [w for w in page.find("button", root=MAIN, key_prefix=prefix) if not w.form_id]
    rule = next((w for w in buttons if (w.key or "").endswith("-rule")), None)
    return [w for w in buttons if "-step-" in (w.key or "")], rule


async def _investigate(tab: Tab, run: RunState, tally: SessionTally, rng: random.Random,
                      prefix: str = "answer-") -> bool:
    """On a floor call: take a few of its steps, each after a short think (reading the reply),
    then press Rule, which opens the answer form. False when the card is not a floor call."""
    steps, rule = floor_call_buttons(tab.page, prefix)
    if rule is None:
        return False
    if tally.first_card is None:
        tally.first_card = run.now()
    low, high = run.spec.floor_call_steps
    think = run.spec.think
    for _ in range(rng.randint(low, high)):
        steps, rule = floor_call_buttons(tab.page, prefix)
        if not steps:
            break
        share = run.spec.step_think_share
        if not await _think(run, tab, tally, rng.uniform(think[0] * share, think[1] * share)):
            return True
        tally.step_latencies.append(await _click(tab, press(rng.choice(steps)), tally.step_runs,
                                                 tally.step_full_runs))
        tally.exceptions += tab.page.exceptions
    _, rule = floor_call_buttons(tab.page, prefix)
    if rule is None:
        raise SessionStuck(f"no Rule button after a floor call's steps: {_describe(tab.page)}")
    await _click(tab, press(rule), tally.step_runs, tally.step_full_runs)
    tally.exceptions += tab.page.exceptions
    tally.floor_calls += 1
    return True


async def _practice_step(tab: Tab, run: RunState, tally: SessionTally, rng: random.Random) -> bool:
    """One step of practice; False when the page offered nothing to do."""
    from streamlit.proto.Alert_pb2 import Alert

    form = tab.page.answer_form(prefix="answer-")  # the card's form, not the feedback's "report a problem" one
    if form is not None:
        if tally.first_card is None:
            tally.first_card = run.now()
        if not await _think(run, tab, tally, rng.uniform(*run.spec.think)):
            return True
        seconds = await _submit(tab, run, tally, form[1], rng)
        formats = tab.page.alert_formats()
        if formats & {Alert.SUCCESS, Alert.ERROR}:
            tally.acked_at.append(run.now())
            tally.latencies.append(seconds)
        elif Alert.WARNING in formats:
            tally.incomplete += 1
        else:
            raise SessionStuck(f"no feedback after the submit: {_describe(tab.page)}")
        return True
    if await _investigate(tab, run, tally, rng):
        return True
    following = _next_button(tab.page)
    if following is not None:
        seconds = await _click(tab, press(following), tally.next_runs, tally.next_full_runs)
        tally.exceptions += tab.page.exceptions
        tally.next_latencies.append(seconds)
        return True
    return False


async def _exam_step(tab: Tab, run: RunState, tally: SessionTally, rng: random.Random) -> bool:
    """One step of a mock exam; False when the page offered nothing to do."""
    from streamlit.proto.Alert_pb2 import Alert

    page = tab.page
    resume = page.find("button", root=MAIN, key="exam-resume")
    if resume:
        await tab.run(press(resume[0]))
        tally.exams_resumed += 1
        tally.exam_open = True
        return True
    confirm = page.find("button", root=MAIN, key="exam-hand-in-confirm")
    if confirm:  # handing in with questions unanswered asks once more
        tally.exam_open = False
        await tab.run(press(confirm[0]))
        tally.exams_handed_in += 1
        tally.exams_handed_in_unanswered += 1
        return True
    form = page.answer_form(prefix="exam-")
    counts = page.progress_counts()
    if form is not None and Alert.INFO in page.alert_formats():  # answered (its saved answer shown): go on
        following = page.find("button", root=MAIN, key="exam-next")
        if following and not following[0].proto.disabled:
            await _click(tab, press(following[0]), tally.next_runs, tally.next_full_runs)
            return True
        form = None  # the last question: hand in below
    if form is not None:
        tally.exam_open = True
        if tally.first_card is None:
            tally.first_card = run.now()
        if not await _think(run, tab, tally, rng.uniform(*run.spec.think)):
            return True
        form = tab.page.answer_form(prefix="exam-")  # a tick may have closed the exam (time up)
        if form is None:
            return True
        seconds = await _submit(tab, run, tally, form[1], rng)
        after = tab.page.progress_counts()
        if counts is not None and after is not None and after[0] > counts[0]:
            tally.acked_at.append(run.now())
            tally.latencies.append(seconds)
        elif Alert.WARNING in tab.page.alert_formats() and tab.page.answer_form(prefix=form[0]) is not None:
            tally.incomplete += 1
        else:
            tally.late += 1  # the exam closed (time ran out) before the answer counted
        return True
    if await _investigate(tab, run, tally, rng, prefix="exam-"):  # a floor call: investigated, then its form
        return True
    hand_in = page.find("button", root=MAIN, key="exam-hand-in")
    if hand_in and (counts is None or counts[0] >= counts[1]):
        tally.exam_open = False
        await tab.run(press(hand_in[0]))
        tally.exams_handed_in += 1
        return True
    back = page.find("button", root=MAIN, key="exam-back")
    if back:
        await tab.run(press(back[0]))
        return True
    starts = page.find("button", root=MAIN, key_prefix="exam-start-")
    if starts:
        custom = [w for w in starts if w.key == "exam-start-custom"]
        await tab.run(press((custom or starts)[0]))
        tally.exams_started += 1
        return True
    if hand_in:  # a saved question shown, nothing left to answer from here
        tally.exam_open = False
        await tab.run(press(hand_in[0]))
        tally.exams_handed_in += 1
        return True
    return False


async def _signed_in_session(socket, run: RunState, tally: SessionTally, rng: random.Random) -> None:
    spec = run.spec
    tab = Tab(socket, urlencode({"lang": spec.language}), spec.step_timeout)
    await tab.run()
    await sign_in(tab, tally, spec.pin)
    tally.signed_in = True
    run.connected += 1
    try:
        if tally.drops:
            tally.rejoined.append(run.now())
        if tally.mode == "exam":
            await tab.run(page="exam")
        step = _exam_step if tally.mode == "exam" else _practice_step
        idle = 0
        while not run.finishing() and (spec.max_answers is None or tally.acknowledged < spec.max_answers):
            if await step(tab, run, tally, rng):
                idle = 0
                continue
            idle += 1
            if idle > 3:
                raise SessionStuck(f"nothing to do on the page: {_describe(tab.page)}")
            await tab.run(page="exam" if tally.mode == "exam" else "")
    finally:
        tally.signed_in = False
        tally.exam_open = False  # known again once this session's page shows the exam
        run.connected -= 1


async def run_session(run: RunState, tally: SessionTally, index: int, start_at: float) -> None:
    """One trainee's session for the whole run, from ``start_at`` seconds: connects, signs in and
    practises or takes exams, connecting again after a drop; an error that ends it early goes in
    ``tally.errors``."""
    from websockets.exceptions import InvalidHandshake

    spec = run.spec
    rng = random.Random(spec.seed * 100_003 + index)
    jar: dict[str, str] = {}
    if start_at > 0 and not await run.pause(start_at):
        return
    failures = 0
    while not run.finishing():
        try:
            socket = await open_socket(spec, jar)
        except (TimeoutError, OSError, InvalidHandshake) as error:
            tally.connect_failures += 1
            tally.connect_errors.append(f"{type(error).__name__}: {error}"[:120])
            failures += 1
            if failures > spec.max_reconnects:
                tally.errors.append(f"could not connect {failures} times: {type(error).__name__}: {error}")
                return
            await run.pause(min(0.2 * failures, 2.0))  # a browser's reconnect back-off
            continue
        failures = 0
        tally.servers.append(jar.get(LB_COOKIE, "direct"))
        try:
            async with socket:
                await _signed_in_session(socket, run, tally, rng)
            return
        except ServerGone:
            tally.drops.append(run.now())
        except TimeoutError:
            tally.timeouts += 1
            tally.drops.append(run.now())
        except (ScriptFailed, SessionStuck) as error:
            tally.errors.append(f"{type(error).__name__}: {error}")
            return
        except Exception as error:  # noqa: BLE001 - reported with the session's name
            tally.errors.append(f"{type(error).__name__}: {error}")
            return
        if tally.in_flight:
            tally.in_flight_lost += 1
            tally.in_flight = False
