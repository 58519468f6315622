"""The readiness section of the progress page: per category, the predicted chance today."""

from __future__ import annotations

from datetime import timedelta

import pyarrow as pa
import pytest

from quiz.db import reviews as review_store
from quiz.model.attempt import utc_now
from quiz.training.scheduling import SCHEDULER
from tests.recording import record
from tests.shipped_content import shipped_content
from tests.ui.seeding import attempt, seed

CONTENT = shipped_content()
PAGE = "quiz/ui/pages/progress.py"


def readiness_chart(at):
    """The data behind the readiness bars (the chart titled with the readiness label)."""
    for element in at.main:
        if getattr(element, "type", "") == "vega_lite_chart" and "Predicted chance today" in element.proto.spec:
            return pa.ipc.open_stream(element.proto.datasets[0].data.data).read_pandas()
    raise AssertionError("no readiness chart")


def test_readiness_is_the_mean_predicted_chance_per_category(open_app, store):
    trainee = store.trainee("Aiko")
    now = utc_now()
    knowledge = [c for c in CONTENT.knowledge_cards if c.ruleset == "pokemon-card-ja"][:2]
    seed(store, CONTENT, trainee.id, knowledge[0], True, now - timedelta(days=3))
    seed(store, CONTENT, trainee.id, knowledge[1], False, now - timedelta(days=3))
    schedules = review_store.schedules(store, trainee.id)
    # fsrs counts whole days since the last review, so any moment today gives the same figure.
    # the card answered wrong counts 0 until answered right
    expected = SCHEDULER.get_card_retrievability(schedules[knowledge[0].id], now) / 2

    at = open_app(page=PAGE)

    assert "Readiness today" in [s.value for s in at.subheader]
    assert any("never answered are left out" in c.value for c in at.caption)
    data = readiness_chart(at)
    row = data[data["category_key"] == "Pokémon TCG › Knowledge"].iloc[0]
    assert row["answered"] == 2
    assert row["accuracy"] == pytest.approx(expected)
    assert row["label"] == f"{expected:.0%} (2)"


def test_without_any_schedule_there_is_no_readiness_section(open_app, store):
    trainee = store.trainee("Aiko")
    record(store, attempt(CONTENT, trainee.id, CONTENT.knowledge_cards[0], True, utc_now()))  # stored without a schedule
    at = open_app(page=PAGE)
    assert "Readiness today" not in [s.value for s in at.subheader]


def test_readiness_in_japanese(open_app, store):
    trainee = store.trainee("Aiko")
    seed(store, CONTENT, trainee.id, CONTENT.knowledge_cards[0], True, utc_now() - timedelta(days=1))
    at = open_app(lang="ja", page=PAGE)
    assert "今日の準備度" in [s.value for s in at.subheader]


def test_right_after_a_wrong_answer_readiness_is_not_full(open_app, store):
    trainee = store.trainee("Aiko")
    card = next(c for c in CONTENT.knowledge_cards if c.ruleset == "pokemon-card-ja")
    seed(store, CONTENT, trainee.id, card, False, utc_now() - timedelta(minutes=1))
    at = open_app(page=PAGE)
    data = readiness_chart(at)
    row = data[data["category_key"] == "Pokémon TCG › Knowledge"].iloc[0]
    assert row["accuracy"] == 0.0 and row["label"] == "0% (1)"
