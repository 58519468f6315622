"""The Team page's floor calls: per trainee on the trainees' tab, the calls whose evidence is
most often missed on the cards' tab; said plainly when no trainee has answered one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from quiz.db.submissions import submit_answer
from quiz.model.cards import FloorCallCard
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from tests.shipped_content import shipped_content
from tests.ui import supervisor
from tests.ui.answering import right_answer
from tests.ui.chart_data import chart_with

CONTENT = shipped_content()
PAGE = "quiz/ui/pages/team.py"
PASSWORD = "tenchō-2024"
NAMES = ("Aiko Tanaka", "Ben Ishikawa")
CALL = "ygo-fc-two-cards-at-the-draw"


@pytest.fixture(autouse=True)
def fresh_throttle(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


def answer_call(store, trainee_id: int, steps: tuple[str, ...]) -> None:
    """Rule the floor call right after taking ``steps``."""
    card = CONTENT.cards[CALL]
    assert isinstance(card, FloorCallCard)
    given = right_answer(CONTENT, card)
    assert isinstance(given, ScenarioAnswer)
    submit_answer(store, CONTENT, GivenAnswer(card, replace(given, steps=steps), trainee_id, 40.0))


def table_with(at, column: str):
    """The first table drawn with ``column``."""
    return next(frame.value for frame in at.dataframe if column in frame.value.columns)


def test_floor_calls_per_trainee_and_the_calls_most_often_missed(open_app, store):
    aiko, ben = (store.trainee(name) for name in NAMES)
    answer_call(store, aiko.id, ("hand-count", "sato-leading"))  # intent asked leading: missed, ruled right
    answer_call(store, ben.id, ("hand-count", "sleeves"))  # both gathered
    supervisor.make_account(PASSWORD)
    at = supervisor.unlock(open_app(trainee=None, page=PAGE), PASSWORD)
    assert not at.exception, at.exception
    trainees = table_with(at, "Evidence gathered (%)").set_index("Trainee")
    assert trainees.loc[NAMES[0], ["Floor calls", "Evidence gathered (%)", "Right guesses"]].tolist() == [1, 50.0, 1]
    assert trainees.loc[NAMES[1], ["Evidence gathered (%)", "Right guesses", "Leading questions per call"]].tolist() \
        == [100.0, 0, 0.0]
    missed = table_with(at, "Evidence missed (%)")
    assert missed[["Card id", "Floor calls", "Findings", "Evidence missed", "Evidence missed (%)"]].values.tolist() == [
        [CALL, 2, 4, 1, 25.0]]
    assert missed["Card"].tolist() == [CONTENT.cards[CALL].title.en]
    evidence = chart_with(at, "evidence")
    assert sorted(zip(evidence["trainee_id"], evidence["evidence"], evidence["count"])) == [
        (NAMES[0], "Evidence gathered", 1), (NAMES[0], "Right, evidence missed (a guess)", 1),
        (NAMES[0], "Wrong, evidence missed", 0), (NAMES[1], "Evidence gathered", 2),
        (NAMES[1], "Right, evidence missed (a guess)", 0), (NAMES[1], "Wrong, evidence missed", 0)]
    assert {"Floor calls", "Calls whose evidence is most often missed"} <= {s.value for s in at.subheader}
    at.selectbox(key="team-trainee").select(NAMES[0]).run()  # the drill-down: Aiko's progress
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Floor calls answered"], metrics["Evidence gathered"], metrics["Right guesses"]) == ("1", "50%", "1")


def test_a_team_without_floor_calls_is_told_so(open_app, store):
    scenario = next(c for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")
    submit_answer(store, CONTENT, GivenAnswer(scenario, right_answer(CONTENT, scenario), store.trainee(NAMES[0]).id,
                                              10.0))
    supervisor.make_account(PASSWORD)
    at = supervisor.unlock(open_app(trainee=None, page=PAGE), PASSWORD)
    assert [c.value for c in at.caption].count("No trainee has answered a floor call yet.") == 2
    assert not any("Evidence gathered (%)" in frame.value.columns for frame in at.dataframe)


def test_floor_calls_on_the_team_page_in_japanese(open_app, store):
    answer_call(store, store.trainee(NAMES[0]).id, ("hand-count",))
    supervisor.make_account(PASSWORD)
    at = supervisor.unlock(open_app(trainee=None, lang="ja", page=PAGE), PASSWORD)
    trainees = table_with(at, "証拠を集めた認定（%）").set_index("受講者")
    assert trainees.loc[NAMES[0], "フロアコール"] == 1
    assert "証拠を見落とされやすいコール" in [s.value for s in at.subheader]
