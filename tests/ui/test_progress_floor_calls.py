"""The progress page's floor-call section: shown to a trainee who has answered floor calls,
with the investigation beside the rulings; not shown to one who has not."""

from __future__ import annotations

from dataclasses import replace

from quiz.db.submissions import submit_answer
from quiz.model.cards import FloorCallCard
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from tests.shipped_content import shipped_content
from tests.ui.answering import right_answer

CONTENT = shipped_content()
CALL = "ygo-fc-two-cards-at-the-draw"


def answer_call(store, trainee_id: int, steps: tuple[str, ...]) -> None:
    """Rule the floor call right after taking ``steps``."""
    card = CONTENT.cards[CALL]
    assert isinstance(card, FloorCallCard)
    given = right_answer(CONTENT, card)
    assert isinstance(given, ScenarioAnswer)
    submit_answer(store, CONTENT, GivenAnswer(card, replace(given, steps=steps), trainee_id, 40.0))


def test_progress_shows_the_floor_calls_of_a_trainee_who_answered_them(open_app, store):
    trainee = store.trainee("Aiko")
    # the hand counted (identifiable gathered); intent asked only by a leading question: missed, ruled right
    answer_call(store, trainee.id, ("hand-count", "sato-leading"))
    scenario = next(c for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")
    given = right_answer(CONTENT, scenario)
    submit_answer(store, CONTENT, GivenAnswer(scenario, given, trainee.id, 10.0))
    at = open_app(page="quiz/ui/pages/progress.py")
    assert not at.exception, at.exception
    assert "Floor calls" in [header.value for header in at.subheader]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Floor calls answered"] == "1"
    assert metrics["Rulings right"] == "100%"
    assert metrics["Evidence gathered"] == "50%"
    assert metrics["Right guesses"] == "1"
    assert metrics["Leading questions per call"] == "1.0"
    assert {"Findings by their evidence", "Floor calls against scenario cards"} <= {h.value for h in at.subheader}


def test_progress_in_japanese_names_the_floor_calls(open_app, store):
    answer_call(store, store.trainee("Aiko").id, ("hand-count",))
    at = open_app(lang="ja", page="quiz/ui/pages/progress.py")
    assert "フロアコール" in [header.value for header in at.subheader]
    assert {m.label for m in at.metric} >= {"回答したフロアコール", "当て推量の正解"}


def test_no_floor_call_section_without_floor_calls(open_app, store):
    scenario = next(c for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")
    submit_answer(store, CONTENT, GivenAnswer(scenario, right_answer(CONTENT, scenario), store.trainee("Aiko").id,
                                              10.0))
    at = open_app(page="quiz/ui/pages/progress.py")
    assert not at.exception, at.exception
    assert "Floor calls" not in [header.value for header in at.subheader]
    assert "Floor calls answered" not in {m.label for m in at.metric}
