"""The app servers an event needs, from the server CPU one session of `make capacity`'s
human-pace phase used."""

from __future__ import annotations

from quizbench.capacity.measure import REQUIRED_KEYS, cores_busy, cores_per_session, servers_for


def test_servers_for_keeps_each_under_half_busy_and_one_spare() -> None:
    assert servers_for(1000, 0.00227) == 6  # 2.27 cores: 5 servers half busy, and a spare
    assert servers_for(1000, 0.00083) == 3  # 0.83 cores: 2, and a spare
    assert servers_for(1000, 0.0005) == 2  # 0.5 cores: 1, and a spare
    assert servers_for(10, 0.0001) == 2  # never fewer than one, and the spare
    assert servers_for(1000, None) is None  # no figure, no sizing


def _phase(cpu_by_server: dict[str, float], window: tuple[float, float], sessions: int) -> dict:
    return {"window_s": list(window), "sessions_connected_max": sessions,
            "servers": {pid: {"cpu_s_window": cpu} for pid, cpu in cpu_by_server.items()}}


def test_a_session_uses_the_windows_cpu_over_its_seconds_and_sessions() -> None:
    """A floor call's steps are CPU without an answer: a session's share of the server is the
    measure, not a count of answers times a fixed pace."""
    phase = _phase({"101": 23.23}, (60.0, 180.0), 200)  # the human pace: 23.2 CPU s in 120 s, 200 sessions
    assert abs(cores_per_session(phase) - 23.23 / 120 / 200) < 1e-12
    assert servers_for(1000, cores_per_session(phase)) == 3  # 0.97 cores: 2 half busy, and a spare
    assert cores_per_session(_phase({"1": 10.0, "2": 14.0}, (0.0, 60.0), 40)) == 24.0 / 60 / 40  # both servers
    assert cores_per_session(_phase({}, (60.0, 180.0), 200)) is None  # no server measured
    assert cores_per_session(_phase({"1": 5.0}, (60.0, 60.0), 200)) is None  # no window


def test_the_human_pace_figures_are_required_in_the_json() -> None:
    assert {"human_cpu_per_answer_s", "human_cpu_ratio_to_floor", "servers_for_1000",
            "floor_servers_for_1000"} <= set(REQUIRED_KEYS)



def test_the_cores_a_phase_kept_busy_are_its_servers_and_the_load_tools() -> None:
    """Two servers at 0.7 cores each and the load tool at 0.27 on a 2-core machine: the
    machine, not the app, set the two-server phase's pace."""
    phase = {**_phase({"1": 25.06, "2": 25.2}, (4.2, 40.0), 32), "client_cpu_s": 10.93, "duration_s": 40.0}
    assert cores_busy(phase) == {"servers": 1.4, "load_client": 0.27}
    assert cores_busy({**_phase({"1": None}, (4.2, 40.0), 32), "duration_s": 40.0}) == {
        "servers": None, "load_client": None}  # a server not measured: no figure, not a low one
