"""Floor-style mock exams: one preset per game draws only cards with findings;
every preset, floor or exam style, draws by its blueprint."""

from __future__ import annotations

import random

import pytest

from quiz.content.categories import category_keys
from quiz.training.exams import ExamSpec, draw_exam, exam_pool
from quiz.training.presets import ExamPreset, load_presets, pool_findings


@pytest.fixture(scope="module")
def presets(content):
    loaded, problems = load_presets(content.rulesets, content=content)
    assert problems == []
    return {preset.id: preset for preset in loaded}


def test_every_game_has_a_floor_preset_that_draws_only_cards_with_findings(content, presets):
    floor = [p for p in presets.values() if p.findings_only]
    assert {ruleset for p in floor for ruleset in p.rulesets} == set(content.rulesets)
    for preset in floor:
        for seed in range(5):
            drawn, _ = draw_exam(content, preset.spec, random.Random(seed))
            assert len(drawn) == preset.questions
            assert all(content.cards[card_id].kind == "scenario" and content.cards[card_id].findings
                       for card_id in drawn)


def test_every_preset_draws_by_its_blueprint(content, presets):
    keys = category_keys(content)
    for preset in presets.values():
        assert preset.blueprint is not None, preset.id
        drawn, _ = draw_exam(content, preset.spec, random.Random(7))
        counts = {key: sum(keys[card_id] == key for card_id in drawn) for key in preset.blueprint}
        assert counts == preset.blueprint


def test_a_floor_exam_is_stored_and_read_back_with_its_pool():
    spec = ExamSpec(questions=5, minutes=10, pass_percent=80, rulesets=("yugioh-ocg",), findings_only=True)
    assert ExamSpec.from_json(spec.to_json()) == spec
    older = {key: value for key, value in spec.to_json().items() if key != "findings_only"}
    assert ExamSpec.from_json(older).findings_only is False  # exams stored before findings


def test_a_floor_preset_larger_than_its_pool_is_a_problem(content):
    floor = len(exam_pool(content, ["yugioh-ocg"], findings_only=True))
    preset = ExamPreset(id="too-many", name={"ja": "多すぎ", "en": "Too many"}, basis={"ja": "x", "en": "x"},
                        rulesets=["yugioh-ocg"], questions=min(floor + 1, 100), minutes=10, pass_percent=80,
                        findings_only=True)
    if floor >= 100:
        pytest.skip("more cards with findings than an exam may ask")
    [(where, wording)] = pool_findings(preset, content)
    assert where == ("findings_only",) and str(floor) in wording.say("en")
