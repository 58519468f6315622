"""The app servers an event needs, from the human-pace CPU per answer of ``make capacity``."""

from __future__ import annotations

from quizbench.capacity.measure import REQUIRED_KEYS, servers_for


def test_servers_for_keeps_each_under_half_busy_and_one_spare() -> None:
    # 1,000 trainees answering every 30 s: 33.3 answers a second
    assert servers_for(1000, 0.068) == 6  # 2.27 cores: 5 servers half busy, and a spare
    assert servers_for(1000, 0.025) == 3  # 0.83 cores: 2, and a spare
    assert servers_for(1000, 0.015) == 2  # 0.5 cores: 1, and a spare
    assert servers_for(10, 0.001) == 2  # never fewer than one, and the spare
    assert servers_for(1000, None) is None  # no figure, no sizing


def test_the_human_pace_figures_are_required_in_the_json() -> None:
    assert {"human_cpu_per_answer_s", "human_cpu_ratio_to_floor", "servers_for_1000"} <= set(REQUIRED_KEYS)
