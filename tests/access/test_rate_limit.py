"""Token buckets and the rerun gate (quiz.access.rate_limit): a person's pace passes, a flood
costs a bounded number of runs, and the latest request of a held session still runs."""

from __future__ import annotations

import pytest

from quiz.access.rate_limit import RatePolicy, RerunGate, TokenBucket

SESSION = RatePolicy(burst=20, per_second=10.0)
CLIENT = RatePolicy(burst=30, per_second=15.0)


def drain(gate: RerunGate, session: str, start: float, until: float) -> list[tuple[float, object]]:
    """Follow the releases the gate asks for, from ``start``: what ran, and when."""
    ran: list[tuple[float, object]] = []
    now, wait = start, 0.0
    for _ in range(10_000):  # a gate that asks for releases forever fails, not hangs
        now += wait
        if now > until:
            return ran
        request, next_wait = gate.release(session, now)
        if request is not None:
            ran.append((now, request))
            return ran
        if next_wait is None:
            return ran
        assert next_wait > 0, "a release that may not run must say how long to wait"
        wait = next_wait
    raise AssertionError(f"no release of {session} ran after 10,000 tries")


def test_a_bucket_gives_its_burst_then_its_rate() -> None:
    bucket = TokenBucket.full(RatePolicy(burst=3, per_second=2.0), now=100.0)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.wait(100.0) == pytest.approx(0.5)
    assert not bucket.take(100.4)
    assert bucket.take(100.5)
    assert bucket.is_full(102.0)  # refilled, never past the burst
    assert [bucket.take(102.0) for _ in range(4)] == [True, True, True, False]


def test_a_clock_stepping_back_refunds_nothing() -> None:
    bucket = TokenBucket.full(RatePolicy(burst=1, per_second=1.0), now=10.0)
    assert bucket.take(10.0)
    assert not bucket.take(5.0)
    assert bucket.wait(5.0) == pytest.approx(1.0)


@pytest.mark.parametrize("policy", [(0, 1.0), (1, 0.0), (1, -1.0)])
def test_a_policy_needs_a_burst_and_a_rate(policy: tuple[int, float]) -> None:
    with pytest.raises(ValueError):
        RatePolicy(*policy)


def test_a_person_clicking_is_never_held() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, CLIENT)
    now = 0.0
    for click in range(600):  # three clicks a second for 200 s, bursts of 10 double-clicks on top
        now += 1 / 3
        assert gate.offer("tab", "10.0.0.5", click, now).run
    for click in range(10):
        assert gate.offer("tab", "10.0.0.5", click, now + 0.01 * click).run


def test_a_flood_runs_its_burst_then_holds_only_the_latest() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, CLIENT)
    admissions = [gate.offer("tab", "10.0.0.5", i, 0.0) for i in range(2_000)]
    assert sum(a.run for a in admissions) == SESSION.burst
    held = [a for a in admissions if not a.run]
    assert [a.first_hold_of_session for a in held].count(True) == 1  # logged once
    scheduled = [a.release_in for a in held if a.release_in is not None]
    assert scheduled == [pytest.approx(1 / SESSION.per_second)]  # one release due, not 1,980
    assert drain(gate, "tab", 0.0, 10.0) == [(pytest.approx(0.1), 1_999)]  # the last request runs
    assert gate.release("tab", 0.2) == (None, None)


def test_a_sustained_flood_runs_at_the_rate() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, CLIENT, cut_after=10**9)  # never cut off (tested below)
    ran, pending_release, now, i = 0, None, 0.0, 0
    while now < 10.0:  # 1,000 requests a second for 10 s; releases followed as a loop would
        if pending_release is not None and pending_release <= now:
            request, wait = gate.release("tab", now)
            ran += request is not None
            pending_release = None if request is not None else now + (wait or 0.0)
        admission = gate.offer("tab", None, i, now)
        ran += admission.run
        if admission.release_in is not None:
            pending_release = now + admission.release_in
        i, now = i + 1, now + 0.001
    assert SESSION.burst + 10 * SESSION.per_second - 2 <= ran <= SESSION.burst + 10 * SESSION.per_second + 1


def test_sessions_are_limited_one_by_one() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, RatePolicy(burst=1_000, per_second=1_000.0))
    for i in range(100):
        gate.offer("flood", "10.0.0.5", i, 0.0)
    assert gate.offer("other", "10.0.0.5", 0, 0.0).run  # another tab of the same address is not held


def test_a_client_is_limited_across_its_sessions() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, CLIENT)
    admissions = [gate.offer(f"tab-{i}", "10.0.0.5", i, 0.0) for i in range(100)]  # a socket each
    assert sum(a.run for a in admissions) == CLIENT.burst
    assert [a.first_hold_of_client for a in admissions].count(True) == 1
    assert gate.offer("tab-x", "10.0.0.6", 0, 0.0).run  # another address is not held
    assert gate.offer("tab-y", None, 0, 0.0).run  # nor a local one (no address to count)
    assert drain(gate, "tab-99", 0.0, 10.0) != []  # every held session runs in the end


def test_a_fragment_run_counts_for_the_session_not_the_client() -> None:
    gate: RerunGate[str] = RerunGate(SESSION, RatePolicy(burst=1, per_second=0.001))
    assert gate.offer("a", "10.0.0.5", "full", 0.0).run
    assert gate.offer("b", "10.0.0.5", "tick", 0.0, counts_for_client=False).run  # the exam countdown
    assert not gate.offer("c", "10.0.0.5", "full", 0.0).run


def test_a_fragment_run_never_replaces_a_held_full_run() -> None:
    gate: RerunGate[str] = RerunGate(RatePolicy(burst=1, per_second=10.0), CLIENT)
    assert gate.offer("tab", None, "first", 0.0).run
    assert not gate.offer("tab", None, "full", 0.0).run
    assert not gate.offer("tab", None, "tick", 0.01, counts_for_client=False).run
    assert drain(gate, "tab", 0.01, 1.0)[0][1] == "full"
    assert not gate.offer("tab", None, "tick", 0.11, counts_for_client=False).run
    assert not gate.offer("tab", None, "full again", 0.12).run  # a full run replaces a held fragment run
    assert drain(gate, "tab", 0.12, 1.0)[0][1] == "full again"


def test_quiet_sessions_and_clients_are_forgotten() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, CLIENT)
    for i in range(500):
        gate.offer(f"tab-{i}", f"10.0.{i // 250}.{i % 250}", i, 0.0)
    gate.offer("busy", "10.9.9.9", 0, 100.0)
    for i in range(40):
        gate.offer("flood", "10.9.9.8", i, 100.0)
    gate.prune(100.0)
    assert set(gate.sessions) == {"busy", "flood"}  # the 500 quiet ones are gone; these spent tokens just now
    assert set(gate.clients) == {"10.9.9.8", "10.9.9.9"}
    assert drain(gate, "flood", 100.0, 110.0) != []
    gate.prune(200.0)
    assert gate.sessions == {} and gate.clients == {}
    again = [gate.offer("flood", "10.9.9.8", i, 200.0) for i in range(40)]
    assert [a.first_hold_of_session for a in again].count(True) == 1  # a new flood after a quiet spell: logged again


def test_a_session_that_keeps_flooding_is_cut_off() -> None:
    gate: RerunGate[int] = RerunGate(SESSION, CLIENT, cut_after=1_000)
    admissions = [gate.offer("tab", None, i, 0.001 * i) for i in range(SESSION.burst + 1 + 1_000)]
    assert [a.cut for a in admissions].count(True) == 1 and admissions[-1].cut  # after 1,000 replaced
    assert "tab" not in gate.sessions  # forgotten: nothing held is released for it
    assert gate.release("tab", 10.0) == (None, None)
    short = [gate.offer("other", None, i, 0.0) for i in range(SESSION.burst + 999)]
    assert not any(a.cut for a in short)  # 998 replaced: held, not cut
