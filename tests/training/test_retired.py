"""Retired cards: kept for the history of their answers, never drawn again."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR, load_content
from quiz.report import statistics
from quiz.training.exam_results import exam_questions
from quiz.training.exams import Exam, ExamSpec, deadline_for, draw_exam
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from quiz.training.pools import card_pool
from quiz.training.selection import next_card
from tests.recording import record

RETIRED = "ygo-tardiness-1min-store"


@pytest.fixture(scope="module")
def retired_content(tmp_path_factory):
    """The shipped content with one card marked ``retired: true`` in its YAML."""
    tree = tmp_path_factory.mktemp("retired")
    shutil.copytree(RULESETS_DIR, tree / "rulesets")
    shutil.copytree(SCENARIOS_DIR, tree / "scenarios")
    path = tree / "scenarios" / "yugioh-ocg" / "tardiness.yaml"
    text = path.read_text(encoding="utf-8")
    marker = f"  - id: {RETIRED}\n"
    assert text.count(marker) == 1
    path.write_text(text.replace(marker, marker + "    retired: true\n"), encoding="utf-8")
    return load_content(tree / "rulesets", [tree / "scenarios"], tree)


def test_a_retired_card_loads_and_is_kept(retired_content, content):
    assert retired_content.problems == []
    assert retired_content.cards[RETIRED].retired is True
    assert not content.cards[RETIRED].retired
    assert len(retired_content.cards) == len(content.cards)


def test_retiring_changes_no_fingerprint(retired_content, content):
    """Retiring changes no grade, so no stored answer needs re-grading."""
    assert retired_content.fingerprint() == content.fingerprint()


def test_a_retired_card_is_never_dealt_or_drawn(retired_content):
    pool = card_pool(retired_content, ["yugioh-ocg"])
    assert RETIRED not in pool
    assert RETIRED not in card_pool(retired_content, ["yugioh-ocg"], ["yugioh-ocg/tardiness"])
    rng = random.Random(3)
    queue: list[str] = []
    for _ in range(len(pool) * 3):
        card, queue = next_card(queue, pool, {}, rng)
        assert card != RETIRED
    spec = ExamSpec(100, 60, 80, ("yugioh-ocg",), ("yugioh-ocg/tardiness",))
    for seed in range(50):
        assert RETIRED not in draw_exam(retired_content, spec, random.Random(seed))[0]


def test_answers_to_a_retired_card_stay_in_the_history(retired_content, store):
    trainee = store.trainee("Aiko")
    card = retired_content.cards[RETIRED]
    outcome = answer_card(retired_content, GivenAnswer(card, ScenarioAnswer("tardiness", "warning", ()), trainee.id,
                                                       6.0))
    record(store, outcome.record)
    assert store.attempts()["card_id"].tolist() == [RETIRED]
    assert statistics.summary(store, statistics.AnswerScope(trainee.id)).answered == 1
    spec = ExamSpec(1, 10, 80, ("yugioh-ocg",))
    exam = Exam(id=1, trainee_id=trainee.id, preset="custom", spec=spec, card_ids=(RETIRED,), seeds=(0,),
                started_at=outcome.record.answered_at, deadline=deadline_for(outcome.record.answered_at, 10))
    shown = exam_questions(retired_content, exam, [])
    assert [q.card.id for q in shown] == [RETIRED]  # an old exam still shows it


def test_the_shipped_card_schema_knows_retired():
    schema = (Path(__file__).resolve().parents[2] / "schemas" / "card-file.schema.json").read_text(encoding="utf-8")
    assert '"retired"' in schema
