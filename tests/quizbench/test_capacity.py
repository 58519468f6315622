"""The capacity tool's pure parts: percentiles, losses, reading forms, the figures' JSON
shape, the HAProxy configuration, the cluster's state file, /proc parsing and profiles."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.Button_pb2 import Button
from streamlit.proto.ButtonGroup_pb2 import ButtonGroup
from streamlit.proto.MultiSelect_pb2 import MultiSelect
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.Progress_pb2 import Progress
from streamlit.proto.Radio_pb2 import Radio
from streamlit.proto.Selectbox_pb2 import Selectbox
from streamlit.proto.TextInput_pb2 import TextInput

from quizbench.capacity import haproxy, measure, profiles, stats
from quizbench.capacity.cluster import kill_report, parse_state
from quizbench.capacity.load_run_state import LoadResult, LoadSpec, Sample, SessionTally, require_loopback
from quizbench.capacity.procstat import parse_cpu_seconds
from quizbench.capacity.protocol import MAIN, SIDEBAR, Page, Widget, fill_form, widget_key

# --- statistics ----------------------------------------------------------------------------------


def test_percentiles_interpolate_between_ranks() -> None:
    values = [0.4, 0.1, 0.3, 0.2, 1.0]
    assert stats.percentile(values, 0) == 0.1
    assert stats.percentile(values, 50) == 0.3
    assert stats.percentile(values, 100) == 1.0
    assert stats.percentile(values, 95) == pytest.approx(0.88)  # 0.4 + (1.0 - 0.4) * 0.8
    assert stats.percentile([2.0], 99) == 2.0
    assert stats.percentile([], 50) is None
    with pytest.raises(ValueError):
        stats.percentile(values, 101)


def test_summary_shape() -> None:
    assert stats.summary([]) == {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    shown = stats.summary([0.5] * 99 + [3.0])
    assert shown["n"] == 100 and shown["p50"] == 0.5 and shown["max"] == 3.0
    assert shown["p95"] == 0.5 and 0.5 < shown["p99"] < 3.0


def test_rates_and_ratios() -> None:
    assert stats.per_minute(30, 15) == 120
    assert stats.per_minute(5, 0) is None
    assert stats.ratio(3, 2) == 1.5
    assert stats.ratio(None, 2) is None and stats.ratio(1, 0) is None
    assert stats.between([0.5, 1, 2, 3.5], 1, 3) == 2


def test_losses_compare_acknowledged_with_stored_per_trainee() -> None:
    acked = {"a": 3, "b": 2, "c": 0}
    stored = {"a": 3, "b": 1, "c": 1}
    assert stats.losses(acked, stored) == {"acknowledged": 5, "stored": 5, "lost": 1, "stored_unacknowledged": 1}
    assert stats.losses({"a": 2}, {"a": 2})["lost"] == 0


# --- reading the page the server draws ------------------------------------------------------------


def _form(form_id: str, root: int = MAIN, players: bool = False) -> list[Widget]:
    widgets = [
        Widget((root, 4, 0), "selectbox", Selectbox(id="$$ID-1-None", label="Infraction", form_id=form_id,
                                                     options=["Deck › Short", "Deck › Extra"])),
        Widget((root, 4, 1), "radio", Radio(id="$$ID-2-None", label="Penalty", form_id=form_id,
                                             options=["Caution", "Warning"])),
        Widget((root, 4, 3), "multiselect", MultiSelect(id="$$ID-3-None", label="Fix", form_id=form_id,
                                                         options=["Fix it"])),
        Widget((root, 4, 4), "button", Button(id=f"$$ID-4-FormSubmitter:{form_id}-Check", label="Check",
                                               form_id=form_id, is_form_submitter=True)),
    ]
    if players:  # a question added to some cards: who receives the penalty
        widgets.insert(2, Widget((root, 4, 2), "radio", Radio(id="$$ID-5-None", label="Who receives it",
                                                               form_id=form_id, options=["offender", "both"])))
    return widgets


def test_widget_keys() -> None:
    assert widget_key("$$ID-225a5cd8-language") == "language"
    assert widget_key("$$ID-811c2522-FormSubmitter:answer-1-Check") == "FormSubmitter:answer-1-Check"
    assert widget_key("$$ID-21a72b0b-None") is None
    assert widget_key("$$ID-e4e6-sign-in-submit") == "sign-in-submit"
    assert widget_key("plain") is None


@pytest.mark.parametrize("players", [False, True])
def test_fill_form_gives_every_selectbox_and_radio_a_valid_option(players: bool) -> None:
    widgets = _form("answer-1", players=players)
    for choice in ("first", "random"):
        states = {s.id: s for s in fill_form(widgets, random.Random(3), choice)}
        for widget in widgets:
            if widget.kind in ("selectbox", "radio"):
                assert states[widget.id].string_value in widget.proto.options
        assert "$$ID-3-None" not in states  # a multiselect may stay as drawn
        assert states["$$ID-4-FormSubmitter:answer-1-Check"].trigger_value is True
    first = {s.id: s.string_value for s in fill_form(widgets, random.Random(3), "first")}
    assert first["$$ID-1-None"] == "Deck › Short" and first["$$ID-2-None"] == "Caution"


def test_fill_form_answers_a_cards_findings() -> None:
    """A card's findings, asked before its infraction: a yes/no segmented control (sent as the
    chosen option's text in a string array) and a number box of whole numbers (an int)."""
    findings = [
        Widget((MAIN, 3, 0), "button_group", ButtonGroup(
            id="$$ID-6-answer-1-finding-intentional", label="Was it done on purpose?", form_id="answer-1",
            options=[ButtonGroup.Option(content="Yes"), ButtonGroup.Option(content="No")])),
        Widget((MAIN, 3, 1), "number_input", NumberInput(
            id="$$ID-7-answer-1-finding-minutes_late", label="Minutes late", form_id="answer-1",
            data_type=NumberInput.INT, min=0, has_min=True, max=2**53 - 1, has_max=False)),
    ]
    widgets = findings + _form("answer-1")
    first = {s.id: s for s in fill_form(widgets, random.Random(3), "first")}
    assert list(first["$$ID-6-answer-1-finding-intentional"].string_array_value.data) == ["Yes"]
    minutes = first["$$ID-7-answer-1-finding-minutes_late"]
    assert minutes.WhichOneof("value") == "int_value" and minutes.int_value == 0
    for seed in range(20):
        drawn = {s.id: s for s in fill_form(widgets, random.Random(seed))}
        assert list(drawn["$$ID-6-answer-1-finding-intentional"].string_array_value.data) in (["Yes"], ["No"])
        assert 0 <= drawn["$$ID-7-answer-1-finding-minutes_late"].int_value <= 15


def test_fill_form_judgement_call_and_missing_submit() -> None:
    judgement = [
        Widget((0, 4, 0), "selectbox", Selectbox(id="$$ID-9-None", label="Nearest infraction", form_id="answer-2",
                                                  options=["A", "B", "None of the listed infractions"])),
        Widget((0, 4, 1), "button", Button(id="$$ID-8-FormSubmitter:answer-2-Check", label="Check",
                                            form_id="answer-2", is_form_submitter=True)),
    ]
    states = fill_form(judgement, random.Random(1))
    assert [s.id for s in states] == ["$$ID-9-None", "$$ID-8-FormSubmitter:answer-2-Check"]
    with pytest.raises(LookupError):
        fill_form(judgement[:1], random.Random(1))


def test_page_finds_the_answer_form_not_the_sidebar_ones() -> None:
    sidebar = [
        Widget((SIDEBAR, 3, 0), "text_input", TextInput(id="$$ID-a-sign-in-name", label="Name", form_id="sign-in")),
        Widget((SIDEBAR, 3, 1), "text_input", TextInput(id="$$ID-b-sign-in-pin", label="PIN", form_id="sign-in",
                                                        type=TextInput.PASSWORD)),
        Widget((SIDEBAR, 3, 2), "button", Button(id="$$ID-c-sign-in-submit", label="Sign in", form_id="sign-in",
                                                  is_form_submitter=True)),
    ]
    page = Page(sidebar + _form("answer-7") + [
        Widget((MAIN, 1), "progress", Progress(value=15, text="3 of 20 answered")),
        Widget((MAIN, 5), "alert", Alert(body="Right", format=Alert.SUCCESS)),
        Widget((MAIN, 6), "button", Button(id="$$ID-d-next-7", label="Next card")),
    ])
    form_id, widgets = page.answer_form()
    assert form_id == "answer-7" and len(widgets) == 4
    assert page.answer_form(prefix="exam-") is None
    assert page.progress_counts() == (3, 20)
    assert page.alert_formats() == {Alert.SUCCESS}
    assert [w.key for w in page.find("button", root=MAIN, key_prefix="next-")] == ["next-7"]
    assert set(page.forms()) == {"sign-in", "answer-7"}
    assert page.exceptions == 0


# --- the figures' JSON shape ----------------------------------------------------------------------


def _result() -> LoadResult:
    spec = LoadSpec(url="http://127.0.0.1:1", trainees=["a", "b"], pin="pin-1234", duration=10.0,
                    think=(1.0, 2.0), server_pids=[101])
    a = SessionTally("a", "practice", acked_at=[2.0, 4.0, 6.0], latencies=[0.2, 0.3, 0.4], first_card=1.0,
                     servers=["app1"], sign_in_latencies=[0.5])
    b = SessionTally("b", "exam", acked_at=[3.0, 8.0], latencies=[0.1, 0.9], first_card=2.0,
                     servers=["app2", "app1"], drops=[5.0], rejoined=[6.0], in_flight_lost=1,
                     sign_in_latencies=[0.5, 0.7], exams_started=1, exams_resumed=1)
    samples = [Sample(t, {101: 10.0 + t}, {101: 100_000 + int(t) * 1024}, 2) for t in (0.0, 2.0, 5.0, 9.5)]
    return LoadResult(spec, [a, b], samples, [{"t": 5.0, "what": "kill"}], finished=10.0, client_cpu_s=0.3)


def test_figures_shape() -> None:
    result = _result()
    figures = json.loads(json.dumps(result.figures()))  # plain JSON all the way down
    assert figures["sessions"] == 2 and figures["exam_sessions"] == 1
    assert figures["answers_acknowledged"] == 5
    assert figures["window_s"] == [2.0, 10.0]  # from the last session's first card
    assert figures["answers_per_min"] == pytest.approx(5 / 8 * 60, abs=0.1)
    assert set(figures["click_to_feedback_s"]) == {"n", "p50", "p95", "p99", "max"}
    assert figures["click_to_feedback_s"]["n"] == 5
    assert figures["sessions_per_server"] == {"app1": 1, "app2": 1}
    assert figures["connection_drops"] == 1 and figures["reconnected"] == 1
    assert figures["answers_in_flight_at_drop"] == 1
    assert figures["exams"]["resumed"] == 1
    server = figures["servers"]["101"]
    assert server["cpu_s"] == 9.5 and server["rss_mib_peak"] == pytest.approx(106.7, abs=0.05)
    assert figures["server_cpu_s_per_answer"] == pytest.approx((9.5 - 2.0) / 5, abs=1e-3)  # samples at 2 and 9.5 s, 5 answers
    assert result.acknowledged_per_trainee() == {"a": 3, "b": 2}


def test_kill_report_follows_the_sessions_of_the_killed_server() -> None:
    result = _result()
    report = kill_report(result.sessions, {"kill_at_s": 4.5, "server": "app2", "marked_down_after_s": 1.234})
    assert report["sessions_on_killed_server"] == 1
    assert report["sessions_signed_in_again"] == 1 and report["sessions_moved_to"] == ["app1"]
    assert report["sessions_answering_after"] == 1 and report["exams_resumed"] == 1
    assert report["drop_to_signed_in_s"]["p50"] == 1.0
    assert report["marked_down_after_s"] == 1.23
    assert kill_report(result.sessions, {}) == {"killed": False}


def test_measure_settings_from_environment() -> None:
    settings = measure.Settings.from_env({"CAPACITY_TURN_S": "12.5", "CAPACITY_HUMAN_SESSIONS": "20",
                                          "CAPACITY_HUMAN_THINK": "1-2", "CAPACITY_TURNS": ""})
    assert settings.turn_s == 12.5 and settings.human_sessions == 20 and settings.human_think == "1-2"
    assert settings.turns == measure.Settings().turns
    assert measure._pair("20-40") == (20.0, 40.0)
    assert "two_server_scale" in measure.REQUIRED_KEYS


def test_load_goes_to_this_machine_only() -> None:
    require_loopback("http://127.0.0.1:8501")
    require_loopback("http://localhost:8501")
    for url in ("http://10.0.0.5:8501", "http://example.org", "http://192.168.1.2:80"):
        with pytest.raises(ValueError):
            require_loopback(url)


# --- HAProxy, the cluster's state, /proc, profiles ------------------------------------------------


def test_haproxy_configuration_renders_the_recommended_setup() -> None:
    text = haproxy.render(haproxy.TEMPLATE.read_text(encoding="utf-8"), port=8500, stats_port=8590,
                          servers=[("app1", "127.0.0.1", 8501), ("app2", "127.0.0.1", 8502)])
    assert "@" not in "".join(line.split("#")[0] for line in text.splitlines())
    assert "bind 127.0.0.1:8500" in text and "bind 127.0.0.1:8590" in text
    assert "server app1 127.0.0.1:8501 cookie app1 check" in text
    assert "server app2 127.0.0.1:8502 cookie app2 check" in text
    assert "cookie QUIZ_SERVER insert" in text  # sticky sessions for the websocket and uploads
    assert "option httpchk GET /_stcore/health" in text
    assert "timeout tunnel 8h" in text and "option redispatch" in text


def test_haproxy_render_refuses_bad_input() -> None:
    template = "bind @BIND@:@PORT@\n@SERVERS@\nbind 127.0.0.1:@STATS_PORT@\n"
    with pytest.raises(ValueError):
        haproxy.render(template, port=1, stats_port=2, servers=[])
    with pytest.raises(ValueError):
        haproxy.render(template + "@OTHER@", port=1, stats_port=2, servers=[("a", "127.0.0.1", 3)])
    with pytest.raises(ValueError):
        haproxy.render("@SERVERS@", port=1, stats_port=2, servers=[("a", "127.0.0.1", 3)])
    with pytest.raises(ValueError):
        haproxy.server_lines([("bad name", "127.0.0.1", 3)])


@pytest.mark.skipif(shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists(),
                    reason="no haproxy here to check the configuration with (scripts/cluster.sh installs it)")
def test_haproxy_accepts_the_rendered_configuration(tmp_path: Path) -> None:
    text = haproxy.render(haproxy.TEMPLATE.read_text(encoding="utf-8"), port=18500, stats_port=18590,
                          servers=[("app1", "127.0.0.1", 18501)])
    config = tmp_path / "haproxy.cfg"
    config.write_text(text, encoding="utf-8")
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    checked = subprocess.run([binary, "-c", "-f", str(config)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_cluster_state_file() -> None:
    state = parse_state("CLUSTER_URL='http://127.0.0.1:8500'\nCLUSTER_APP_PIDS='12 34'\n\nCLUSTER_PG_OWNED='1'\n")
    assert state == {"CLUSTER_URL": "http://127.0.0.1:8500", "CLUSTER_APP_PIDS": "12 34", "CLUSTER_PG_OWNED": "1"}


def test_cpu_seconds_from_proc_stat() -> None:
    line = "1234 (python -m (x)) S 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0 100 0 0"
    assert parse_cpu_seconds(line, ticks=100) == 3.0


def test_profile_top_costs() -> None:
    text = (
        "run (streamlit/a.py:10);_run_script (streamlit/b.py:20);page (quiz/ui/pages/practice.py:5) 6\n"
        "run (streamlit/a.py:11);_run_script (streamlit/b.py:21);serialize (streamlit/c.py:7) 3\n"
        "poll (tornado/ioloop.py:1) 1\n"
        "garbage line\n"
    )
    stacks = profiles.read_collapsed(text)
    top = profiles.top_costs(stacks, limit=3)
    assert top["samples"] == 10
    assert top["self"][0] == {"function": "page (quiz/ui/pages/practice.py)", "percent": 60.0}
    assert {"function": "run (streamlit/a.py)", "percent": 90.0} in top["inclusive"]
    focused = profiles.top_costs(stacks, focus="_run_script")
    assert focused["samples"] == 9
    assert profiles.frame_name("f (/x/.venv/lib/python3.11/site-packages/streamlit/y.py:3)") == "f (streamlit/y.py)"


class _ScriptedSocket:
    """A server that answers each BackMsg with the next scripted list of ForwardMsgs."""

    def __init__(self, runs: list[list[bytes]]) -> None:
        self.runs, self.sent, self.queue = runs, [], []

    async def send(self, data: bytes) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        back = BackMsg()
        back.ParseFromString(data)
        self.sent.append(back)
        self.queue.extend(self.runs.pop(0))

    async def recv(self) -> bytes:
        return self.queue.pop(0)


def _run_messages(fragment: str, *deltas: tuple[tuple[int, ...], str, object]) -> list[bytes]:
    """One script run as the server sends it: new_session, the deltas (path, kind, proto), the end."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    start = ForwardMsg()
    start.new_session.page_script_hash = "page"
    if fragment:
        start.metadata.run.fragment_ids.append(fragment)
    messages = [start]
    for path, kind, proto in deltas:
        message = ForwardMsg()
        message.metadata.delta_path.extend(path)
        message.delta.fragment_id = fragment or "card"  # drawn in the card's fragment, in a full run too
        if kind == "block":
            message.delta.add_block.SetInParent()
        else:
            getattr(message.delta.new_element, kind).CopyFrom(proto)
        messages.append(message)
    end = ForwardMsg()
    end.script_finished = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY if fragment else ForwardMsg.FINISHED_SUCCESSFULLY
    messages.append(end)
    return [m.SerializeToString() for m in messages]


def test_a_fragments_run_replaces_what_it_drew_before_as_a_browser_does() -> None:
    """A click on a fragment's widget asks for that fragment's run; what the fragment drew
    before and did not draw again is gone, and a block drawn where an element was replaces it
    (a stale "answer saved" banner once made the load tool hand exams in after one answer)."""
    from quizbench.capacity.load import run_in_own_loop
    from quizbench.capacity.protocol import Tab, press

    saved = Alert(body="Saved", format=Alert.INFO)
    save = Button(id="$$ID-1-save", label="Save", is_form_submitter=True, form_id="exam-1-0")
    next_button = Button(id="$$ID-2-next", label="Next")
    new_form_button = Button(id="$$ID-3-save", label="Save", is_form_submitter=True, form_id="exam-1-1")
    socket = _ScriptedSocket([
        _run_messages("", ((0, 0), "block", None), ((0, 0, 0), "alert", saved), ((0, 0, 1), "button", save),
                      ((0, 1), "button", next_button)),
        _run_messages("card", ((0, 0), "block", None), ((0, 0, 0), "block", None),
                      ((0, 0, 0, 0), "button", new_form_button)),
    ])

    async def clicks() -> Tab:
        tab = Tab(socket, "", 5.0)
        await tab.run()
        await tab.run(press(tab.page.find(label="Next")[0]))
        return tab

    tab = run_in_own_loop(clicks())
    assert socket.sent[1].rerun_script.fragment_id == "card"  # the click ran only the card's fragment
    assert (tab.script_runs, tab.full_runs) == (2, 1)
    assert tab.page.alerts() == []  # the banner's place is the new form's now
    assert [w.form_id for w in tab.page.widgets if w.is_submit] == ["exam-1-1"]
    assert tab.page.find(label="Next") == []  # drawn by the fragment before, not this time: gone


def test_a_run_paced_by_the_apps_per_session_rerun_limit_is_flagged() -> None:
    """Eight machine-speed sessions asked for more runs a second than the app lets one session
    have once the card became a fragment: their 2,512 answers a minute were the limit's, not
    the server's. Such a run is flagged; sixteen sessions at that rate are not limited."""
    limited = {"sessions": 8, "answers_per_min": 2512.0, "script_runs_per_submit": 1.0, "script_runs_per_next": 1.0}
    assert measure.runs_per_session_s(limited) == 10.47
    assert measure.at_rerun_limit(measure.runs_per_session_s(limited))
    assert not measure.at_rerun_limit(measure.runs_per_session_s({**limited, "sessions": 16}))
    assert measure.runs_per_session_s({**limited, "answers_per_min": None}) is None
