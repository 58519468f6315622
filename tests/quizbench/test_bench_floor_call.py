"""The benchmark's floor calls: its synthetic content holds them, in the shipped proportion,
and a floor call's step is measured against its floor (at small sizes here)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from quiz.access.accounts import set_pin
from quiz.content.loader import RULESETS_DIR, load_content
from quiz.db.investigations import steps_taken
from quiz.db.store import Store
from quiz.model.scope import Supervisor
from quiz.ui import resources
from quizbench.bench import page_timer, synthetic
from quizbench.bench.floors.investigation import FLOOR_WRITES, floor_database_url
from quizbench.bench.run import _floor_call_step_figures


def test_the_synthetic_cards_hold_floor_calls_in_the_shipped_proportion(tmp_path: Path) -> None:
    shipped = load_content()
    ids = synthetic.write_cards(shipped, 400, tmp_path / "cards", random.Random(7))
    content = load_content(RULESETS_DIR, [tmp_path / "cards"])
    assert not content.problems, content.problems[:3]
    kinds = Counter(content.cards[card_id].kind for card_id in ids)
    assert set(kinds) == {"scenario", "floor_call"}
    share = synthetic.floor_call_share(shipped)
    assert 0 < share < 1
    assert abs(kinds["floor_call"] / len(ids) - share) < 0.06
    assert all(card.steps for card in content.floor_calls)


def test_the_history_answers_scenario_cards_only(tmp_path: Path) -> None:
    shipped = load_content()
    rng = random.Random(3)
    ids = synthetic.write_cards(shipped, 60, tmp_path / "cards", rng)
    content = load_content(RULESETS_DIR, [tmp_path / "cards"])
    store = Store(f"sqlite:///{tmp_path / 'bench.db'}")
    try:
        synthetic.write_history(store, content, ids, 300, 3, 100, rng)
        scenario = {card_id for card_id in ids if content.cards[card_id].kind == "scenario"}
        answered = {card_id for card_id, in store.engine.connect().exec_driver_sql(
            "SELECT DISTINCT card_id FROM attempts")}
        assert answered and answered <= scenario
    finally:
        store.dispose()


@pytest.mark.slow  # a few seconds of AppTest runs
def test_a_floor_call_step_is_measured_against_its_floor(tmp_path: Path, monkeypatch) -> None:
    url = f"sqlite:///{tmp_path / 'bench.db'}"
    (tmp_path / "packs").mkdir()
    monkeypatch.setenv("QUIZ_DATABASE_URL", url)
    monkeypatch.setenv("QUIZ_CONTENT_DIR", str(tmp_path / "packs"))  # the shipped cards, floor calls among them
    monkeypatch.setattr(page_timer, "WARM_RERUNS", 12)  # more than the call's steps: it starts over once
    store = Store(url)
    resources.reload_content()
    try:
        content = resources.content()
        ids = [card.id for card in content.scenario_cards][:50]
        trainee_id = synthetic.write_history(store, content, ids, 300, 2, 200, random.Random(5))[0]  # no first visit
        set_pin(store, trainee_id, "bench-pin-2468", None)
        heavy = next(t for t in store.trainees(Supervisor(0, "bench", "admin", None).scope()) if t.id == trainee_id)
        figures = _floor_call_step_figures(store, heavy, "floor_call.py", {"lang": "en"}, 3)
        assert figures["rerun_s"] > 0 and figures["floor_s"] > 0
        assert figures["ratio_to_floor"] == figures["rerun_s"] / figures["floor_s"]
        assert figures["steps"] < 12 and figures["card"] in resources.content().cards
        assert steps_taken(store, trainee_id, figures["card"]) == ()  # left as it found it
        floor = create_engine(floor_database_url(url))  # beside the app's file
        try:
            with floor.connect() as conn:  # the floor kept each of its steps, as the app does
                assert conn.execute(select(func.count()).select_from(FLOOR_WRITES)).scalar_one() >= 12
        finally:
            floor.dispose()
        assert floor_database_url(url) != url and floor_database_url("postgresql://h/quiz") == "postgresql://h/quiz"
    finally:
        store.dispose()
        resources.reload_content()
