"""One Streamlit session over its websocket, as the browser's frontend holds it.

The client sends what the page sends (``BackMsg.rerun_script`` with widget values) and
reads what the server draws (``ForwardMsg`` deltas). It never assumes a fixed list of
widgets: a form is filled from the widgets the server drew in it (every selectbox, radio
and segmented control gets a valid option, every number box a whole number in its range,
a multiselect may stay empty, the form's submit button is pressed), so new questions on a
card (a "who receives it" radio, a judgement call's selectbox, a card's findings: yes/no
segmented controls and number boxes asked before the infraction) need no change here.

Widget ids look like ``$$ID-<hash>-<key>`` (``None`` when the widget has no key, and
``FormSubmitter:<form>-<label>`` for a form's submit button); ``widget_key`` reads the key.
"""

from __future__ import annotations

import asyncio
import math
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

MAIN, SIDEBAR = 0, 1  # the first number of a delta path: the page's root containers
FILLED_KINDS = ("selectbox", "radio")  # a form's widgets that always get a value, and mark an answer form
NUMBER_SPREAD = 15  # a random number for a number box: its least value plus up to this
NUMBERS = re.compile(r"\d+")


class ServerGone(Exception):
    """The websocket closed or could not be opened: the server (or the path to it) went away."""


class ScriptFailed(Exception):
    """The server's script did not compile (a broken deployment, not load)."""


def widget_key(widget_id: str) -> str | None:
    """The user key of a widget id (``$$ID-<hash>-<key>``), None for a widget without one."""
    if not widget_id.startswith("$$ID-"):
        return None
    _, _, key = widget_id[len("$$ID-"):].partition("-")
    return None if key in ("", "None") else key


@dataclass
class Widget:
    """One element the server drew: its delta path, its kind (``Element`` oneof name) and proto."""

    path: tuple[int, ...]
    kind: str
    proto: Any
    fragment_id: str = ""  # the fragment that drew it: a click on it runs only that fragment again

    @property
    def root(self) -> int:
        return self.path[0] if self.path else -1

    @property
    def id(self) -> str:
        return getattr(self.proto, "id", "")

    @property
    def key(self) -> str | None:
        return widget_key(self.id)

    @property
    def label(self) -> str:
        return getattr(self.proto, "label", "")

    @property
    def form_id(self) -> str:
        return getattr(self.proto, "form_id", "")

    @property
    def is_submit(self) -> bool:
        return self.kind == "button" and bool(getattr(self.proto, "is_form_submitter", False))


@dataclass
class Page:
    """What the last finished run drew, in page order."""

    widgets: list[Widget] = field(default_factory=list)

    def find(self, kind: str | None = None, root: int | None = None, form: str | None = None,
             key: str | None = None, key_prefix: str | None = None, label: str | None = None) -> list[Widget]:
        found = []
        for widget in self.widgets:
            if kind is not None and widget.kind != kind:
                continue
            if root is not None and widget.root != root:
                continue
            if form is not None and widget.form_id != form:
                continue
            if key is not None and widget.key != key:
                continue
            if key_prefix is not None and not (widget.key or "").startswith(key_prefix):
                continue
            if label is not None and widget.label != label:
                continue
            found.append(widget)
        return found

    def forms(self, root: int | None = None) -> dict[str, list[Widget]]:
        """Form id -> its widgets, in page order (forms of ``root`` only, when given)."""
        forms: dict[str, list[Widget]] = {}
        for widget in self.widgets:
            if widget.form_id and (root is None or widget.root == root):
                forms.setdefault(widget.form_id, []).append(widget)
        return forms

    def answer_form(self, prefix: str = "") -> tuple[str, list[Widget]] | None:
        """The main area's first form that has a submit button and something to choose
        (a selectbox or radio), optionally only among forms whose id starts with ``prefix``."""
        for form_id, widgets in self.forms(MAIN).items():
            if not form_id.startswith(prefix):
                continue
            if any(w.is_submit for w in widgets) and any(w.kind in FILLED_KINDS for w in widgets):
                return form_id, widgets
        return None

    def alerts(self, root: int = MAIN) -> list[Any]:
        return [w.proto for w in self.widgets if w.kind == "alert" and w.root == root]

    def alert_formats(self, root: int = MAIN) -> set[int]:
        return {alert.format for alert in self.alerts(root)}

    @property
    def exceptions(self) -> int:
        return sum(w.kind == "exception" for w in self.widgets)

    def progress_counts(self) -> tuple[int, int] | None:
        """The first two numbers of the main area's progress bar text ("3 of 20 answered")."""
        for widget in self.find("progress", root=MAIN):
            numbers = [int(n) for n in NUMBERS.findall(widget.proto.text)]
            if len(numbers) >= 2:
                return numbers[0], numbers[1]
        return None


def fill_form(widgets: Iterable[Widget], rng: random.Random, choice: str = "random") -> list[Any]:
    """Widget states that submit the form: a valid option for every selectbox, radio and
    segmented control, a whole number for every number box (the first option or the least
    number, or a random one), a multiselect left as drawn, its first submit button pressed."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    states = []
    submit = None
    for widget in widgets:
        if widget.kind in FILLED_KINDS:
            options = list(widget.proto.options)
            if options:
                value = options[0] if choice == "first" else rng.choice(options)
                states.append(WidgetState(id=widget.id, string_value=value))
        elif widget.kind == "button_group":
            states += button_group_state(widget, rng, choice)
        elif widget.kind == "number_input":
            states.append(number_state(widget, rng, choice))
        elif widget.is_submit and submit is None:
            submit = widget
    if submit is None:
        raise LookupError("the form has no submit button")
    states.append(WidgetState(id=submit.id, trigger_value=True))
    return states


def option_text(option: Any) -> str:
    """What the frontend sends for a segmented control's (or pills') option: its text, after
    its icon when it has one (the server's ``format_func`` of the option)."""
    return f"{option.content_icon} {option.content}".strip() if option.content_icon else option.content


def button_group_state(widget: Widget, rng: random.Random, choice: str = "random") -> list[Any]:
    """A segmented control's state with one option chosen (the first, or a random one), as a
    click on its button sends it: the option's text in a string array (nothing without options)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    options = [option_text(option) for option in widget.proto.options]
    if not options:
        return []
    state = WidgetState(id=widget.id)
    state.string_array_value.data.append(options[0] if choice == "first" else rng.choice(options))
    return [state]


def number_state(widget: Widget, rng: random.Random, choice: str = "random") -> Any:
    """A number box's state holding a whole number in its range (the least it takes, or a
    random one a little above), as the frontend sends it: an ``int_value`` for a box of whole
    numbers, a ``double_value`` else. Without a least value, counted from 0."""
    from streamlit.proto.NumberInput_pb2 import NumberInput
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    proto = widget.proto
    least = math.ceil(proto.min) if proto.has_min else 0
    most = math.floor(proto.max) if proto.has_max else least + NUMBER_SPREAD
    value = least if choice == "first" else rng.randint(least, max(least, min(most, least + NUMBER_SPREAD)))
    if proto.data_type == NumberInput.INT:
        return WidgetState(id=widget.id, int_value=value)
    return WidgetState(id=widget.id, double_value=float(value))


def press(widget: Widget) -> list[Any]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    return [WidgetState(id=widget.id, trigger_value=True)]


def text_values(values: dict[str, str]) -> list[Any]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    return [WidgetState(id=widget_id, string_value=value) for widget_id, value in values.items()]


class Tab:
    """A browser tab's session: ``run`` sends a rerun and waits for the run to finish.

    Like the frontend, it keeps the auto-rerun timers the server asks for (a fragment with
    ``run_every``, such as the mock exam's countdown): ``auto_reruns`` maps fragment ids to
    their intervals, dropped at every full run (which registers them again) and on
    ``stop_auto_rerun``; ``tick`` runs them once, as the frontend's timer would.
    """

    def __init__(self, socket, query: str, step_timeout: float) -> None:
        self.socket, self.query, self.step_timeout = socket, query, step_timeout
        self.page = Page()
        self.pages: dict[str, str] = {}  # url path ("" for the default page) -> page script hash
        self.page_hash = ""
        self.auto_reruns: dict[str, float] = {}
        self.script_runs = 0  # script runs seen, a fragment's own too: a click that costs an st.rerun counts two
        self.full_runs = 0  # of those, the runs of the whole script (not only a fragment)
        self.forms_drawn: list[str] = []  # the forms (their ids) drawn by the last click, redrawn ones too

    async def run(self, widgets: Iterable[Any] = (), page: str | None = None) -> float:
        """Ask for a rerun with these widget values (on the page of that url path, when
        given); wait until a run finishes successfully (after any ``st.rerun``). The seconds
        from sending to the end of that run."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        back = BackMsg()
        back.rerun_script.query_string = self.query
        back.rerun_script.widget_states.widgets.extend(widgets)
        if page is not None:
            back.rerun_script.page_script_hash = self.pages.get(page, "")
            back.rerun_script.page_name = page
        elif self.page_hash:
            back.rerun_script.page_script_hash = self.page_hash
        if page is None:  # as a browser does: a widget of a fragment runs only that fragment again
            ids = {state.id for state in back.rerun_script.widget_states.widgets}
            fragment_id = next((w.fragment_id for w in self.page.widgets if w.id in ids and w.fragment_id), "")
            if fragment_id:
                back.rerun_script.fragment_id = fragment_id
        return await self._exchange(back)

    async def tick(self) -> float:
        """Run every auto-rerun fragment once (as the frontend's timers do); the seconds taken."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        took = 0.0
        for fragment_id in list(self.auto_reruns):
            back = BackMsg()
            back.rerun_script.query_string = self.query
            back.rerun_script.page_script_hash = self.page_hash
            back.rerun_script.fragment_id = fragment_id
            back.rerun_script.is_auto_rerun = True
            took += await self._exchange(back)
        return took

    async def _exchange(self, back) -> float:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        sent = time.monotonic()
        await self._send(back.SerializeToString())
        fragment_run = bool(back.rerun_script.fragment_id)
        drawn: dict[tuple[int, ...], Widget] = {w.path: w for w in self.page.widgets} if fragment_run else {}
        self.forms_drawn = []
        placed: set[tuple[int, ...]] = set()  # paths drawn in this run, blocks included
        ran: set[str] = set()  # the fragments this run ran again (none: the whole script ran)
        while True:
            message = ForwardMsg()
            message.ParseFromString(await self._receive())
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self.script_runs += 1
                ran = set(message.metadata.run.fragment_ids)
                if not ran:  # a full run (again, after st.rerun): drawn afresh
                    self.full_runs += 1
                    drawn, placed = {}, set()
                    self.auto_reruns = {}
                    fragment_run = False
                if message.new_session.page_script_hash:
                    self.page_hash = message.new_session.page_script_hash
            elif kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in message.navigation.app_pages}
                if message.navigation.page_script_hash:
                    self.page_hash = message.navigation.page_script_hash
            elif kind == "auto_rerun" and message.auto_rerun.fragment_id:
                self.auto_reruns[message.auto_rerun.fragment_id] = message.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for fragment_id in message.stop_auto_rerun.fragment_ids:
                    self.auto_reruns.pop(fragment_id, None)
            elif kind == "delta" and message.delta.WhichOneof("type") in ("new_element", "add_block"):
                path = tuple(message.metadata.delta_path)
                if path in placed:  # drawn again: it replaces what was there, what was inside it too
                    drawn = {p: w for p, w in drawn.items() if p[:len(path)] != path}  # (a placeholder)
                placed.add(path)
                drawn.pop(path, None)  # an element there before is replaced (by a block, too)
                if message.delta.WhichOneof("type") == "new_element":
                    element = message.delta.new_element
                    element_kind = element.WhichOneof("type") or ""
                    drawn[path] = Widget(path, element_kind, getattr(element, element_kind, None),
                                         message.delta.fragment_id)
                    if drawn[path].is_submit:
                        self.forms_drawn.append(drawn[path].form_id)
            elif kind == "script_finished":
                status = message.script_finished
                if status == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise ScriptFailed("the script did not compile")
                if status == ForwardMsg.FINISHED_SUCCESSFULLY or (
                        fragment_run and status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
                    # what a fragment that ran drew before and did not draw again is gone (as in
                    # a browser: its elements of an older run are cleared)
                    drawn = {p: w for p, w in drawn.items() if w.fragment_id not in ran or p in placed}
                    self.page = Page([drawn[p] for p in sorted(drawn)])
                    return time.monotonic() - sent

    async def _send(self, data: bytes) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self.socket.send(data)
        except ConnectionClosed as error:
            raise ServerGone(f"connection closed: {error}") from error

    async def _receive(self) -> bytes:
        from websockets.exceptions import ConnectionClosed

        try:
            return await asyncio.wait_for(self.socket.recv(), self.step_timeout)
        except ConnectionClosed as error:
            raise ServerGone(f"connection closed: {error}") from error
