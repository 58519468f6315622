"""Exam blueprints: presets say how many questions each category gives, and every draw keeps it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quiz.content.categories import category_keys
from quiz.model.attempt import AttemptRecord
from quiz.training.blueprints import (
    NOT_EXAM_MATERIAL,
    balanced_blueprint,
    blueprint_total,
    draw_stratified,
    exam_material,
    pool_by_category,
    proportional_blueprint,
    sections_of,
)
from quiz.training.exam_results import section_scores, section_table
from quiz.training.exams import Exam, ExamSpec, balanced_by_category, deadline_for, draw_exam, exam_pool
from quiz.training.pools import card_pool
from quiz.training.presets import PRESETS_FILE, load_presets

START = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
YGO_PRESET = """\
presets:
  - id: ygo-short
    name: {ja: 短い, en: Short}
    basis: {ja: 試験, en: Test}
    rulesets: [yugioh-ocg]
    questions: 12
    minutes: 10
    pass_percent: 80
    blueprint:
      yugioh-ocg/tardiness: 2
      yugioh-ocg/fraud: FRAUD
      yugioh-ocg/knowledge: KNOWLEDGE
"""


def presets_file(tmp_path: Path, fraud: int, knowledge: int = 2) -> Path:
    path = tmp_path / "presets.yaml"
    path.write_text(YGO_PRESET.replace("FRAUD", str(fraud)).replace("KNOWLEDGE", str(knowledge)), encoding="utf-8")
    return path


# The shipped presets


def test_every_preset_has_a_blueprint_that_the_pool_fills(content):
    presets, problems = load_presets(content.rulesets, content=content)
    assert problems == []
    assert {p.id for p in presets} == {"ygo-20", "pkm-50", "ygo-floor-15", "pkm-floor-15", "ygo-practical-4",
                                       "pkm-practical-4"}
    keys = category_keys(content)
    for preset in presets:
        assert preset.sections is not None, preset.id
        assert blueprint_total(preset.sections) == preset.questions
        assert all(key.split("/")[0] in preset.rulesets for key, _ in preset.sections)
        assert set(dict(preset.sections)) <= set(keys.values())


def test_the_ygo_blueprint_follows_the_documents_sections(content):
    """The 20 questions follow the items the seed lists per section (see presets.yaml)."""
    presets, _ = load_presets(content.rulesets, content=content)
    ygo = {p.id: p for p in presets}["ygo-20"]
    items = {"deck": 4, "decklist": 1, "rules": 4, "tardiness": 3, "marked_cards": 2, "slow_play": 2, "results": 2,
             "fraud": 1, "talking": 3, "knowledge": 8}
    weights = {f"yugioh-ocg/{category}": count for category, count in items.items()}
    assert ygo.sections == proportional_blueprint(weights, 20)
    assert dict(ygo.sections)["yugioh-ocg/deck"] == 3


@pytest.mark.parametrize("preset_id", ["ygo-20", "pkm-50"])
def test_a_thousand_draws_fill_every_section_exactly(content, preset_id):
    presets, _ = load_presets(content.rulesets, content=content)
    preset = {p.id: p for p in presets}[preset_id]
    spec = preset.spec
    assert spec.blueprint is not None
    wanted = Counter(dict(spec.blueprint))
    keys = category_keys(content)
    pool = set(card_pool(content, spec.rulesets, spec.categories))
    orders = set()
    for seed in range(1000):
        card_ids, seeds = draw_exam(content, spec, random.Random(seed))
        assert len(card_ids) == spec.questions == len(seeds)
        assert len(set(card_ids)) == len(card_ids)
        assert set(card_ids) <= pool
        assert sections_of(card_ids, keys) == wanted
        orders.add(card_ids)
    assert len(orders) > 990  # really random, not one fixed exam


def test_a_draw_repeats_with_its_seed(content):
    presets, _ = load_presets(content.rulesets, content=content)
    spec = presets[0].spec
    assert draw_exam(content, spec, random.Random(42)) == draw_exam(content, spec, random.Random(42))
    assert draw_exam(content, spec, random.Random(42)) != draw_exam(content, spec, random.Random(43))


# Validation


def test_a_blueprint_the_pool_cannot_fill_is_named(content, tmp_path: Path):
    fraud = len(card_pool(content, ["yugioh-ocg"], ["yugioh-ocg/fraud"]))
    path = presets_file(tmp_path, fraud=fraud + 5)
    path.write_text(path.read_text(encoding="utf-8").replace("questions: 12", f"questions: {fraud + 9}"),
                    encoding="utf-8")
    presets, problems = load_presets(content.rulesets, path, tmp_path, content=content)
    assert presets == []
    assert len(problems) == 1
    problem = problems[0]
    assert "ygo-short" in problem.message
    assert f"yugioh-ocg/fraud needs {fraud + 5} cards, the pool has {fraud}" in problem.message
    assert problem.field == "presets[0].blueprint.yugioh-ocg/fraud"
    assert problem.line == 11  # the fraud line of the file
    ok, none = load_presets(content.rulesets, path, tmp_path)
    assert none == [] and [p.id for p in ok] == ["ygo-short"]  # without content: only the shape is checked


def test_a_blueprint_must_add_up_to_the_questions(content, tmp_path: Path):
    presets, problems = load_presets(content.rulesets, presets_file(tmp_path, fraud=1), tmp_path, content=content)
    assert presets == []
    assert [p.message for p in problems] == ["blueprint of preset 'ygo-short' asks for 5 questions, the preset for 12"]
    fitting, none = load_presets(content.rulesets, presets_file(tmp_path, fraud=3, knowledge=7), tmp_path,
                                 content=content)
    assert none == [] and fitting[0].sections == (
        ("yugioh-ocg/tardiness", 2), ("yugioh-ocg/fraud", 3), ("yugioh-ocg/knowledge", 7))


def test_a_blueprint_key_outside_the_presets_games_is_named(content, tmp_path: Path):
    path = tmp_path / "presets.yaml"
    path.write_text(YGO_PRESET.replace("yugioh-ocg/fraud: FRAUD", "pokemon-card-ja/deck: 3")
                    .replace("KNOWLEDGE", "7"), encoding="utf-8")
    presets, problems = load_presets(content.rulesets, path, tmp_path, content=content)
    assert presets == []
    assert any("'pokemon-card-ja/deck' is not in its pool" in p.message for p in problems)


def test_the_spec_refuses_a_blueprint_larger_than_the_exam():
    with pytest.raises(ValueError, match="asks for 6 questions, more than 5"):
        ExamSpec(5, 10, 80, ("yugioh-ocg",), blueprint=(("yugioh-ocg/deck", 3), ("yugioh-ocg/rules", 3)))
    with pytest.raises(ValueError, match="counts are whole numbers from 1"):
        ExamSpec(5, 10, 80, ("yugioh-ocg",), blueprint=(("yugioh-ocg/deck", 0),))


def test_a_blueprint_round_trips_through_json_and_older_exams_have_none():
    spec = ExamSpec(4, 10, 80, ("yugioh-ocg",), blueprint=(("yugioh-ocg/deck", 3), ("yugioh-ocg/rules", 1)))
    assert ExamSpec.from_json(spec.to_json()) == spec
    stored_before = {"questions": 4, "minutes": 10, "pass_percent": 80, "rulesets": ["yugioh-ocg"], "categories": None}
    assert ExamSpec.from_json(stored_before).blueprint is None


# Sharing questions out


def test_largest_remainders_with_caps():
    assert proportional_blueprint({"a": 1, "b": 1, "c": 1}, 10) == (("a", 4), ("b", 3), ("c", 3))
    assert proportional_blueprint({"a": 9, "b": 3, "k": 12}, 24, {"a": 50, "b": 50, "k": 4}) == (
        ("a", 15), ("b", 5), ("k", 4))
    assert proportional_blueprint({"a": 1, "b": 1}, 10, {"a": 2, "b": 3}) == (("a", 2), ("b", 3))
    assert proportional_blueprint({"a": 0, "b": 1}, 3) == (("b", 3),)


@given(
    weights=st.lists(st.integers(0, 20), min_size=1, max_size=8),
    caps=st.lists(st.integers(0, 30), min_size=8, max_size=8),
    questions=st.integers(1, 100),
)
def test_every_share_out_is_exact_and_within_the_pool(weights, caps, questions):
    named = {f"s{i}": w for i, w in enumerate(weights)}
    available = {f"s{i}": caps[i] for i in range(len(weights))}
    blueprint = proportional_blueprint(named, questions, available)
    fillable = sum(available[key] for key, w in named.items() if w > 0)
    assert blueprint_total(blueprint) == min(questions, fillable)
    assert all(1 <= count <= available[key] and named[key] > 0 for key, count in blueprint)


def test_a_custom_exam_balanced_by_category_draws_each_exactly(content):
    categories = ["yugioh-ocg/tardiness", "yugioh-ocg/fraud", "yugioh-ocg/talking"]
    keys = category_keys(content)
    grouped = pool_by_category(card_pool(content, ["yugioh-ocg"], categories), keys)
    available = {key: len(cards) for key, cards in grouped.items()}
    blueprint = balanced_blueprint(categories, 12, available)
    assert [key for key, _ in blueprint] == categories and blueprint_total(blueprint) == 12
    assert all(count <= available[key] for key, count in blueprint)
    spec = ExamSpec(12, 20, 80, ("yugioh-ocg",), tuple(categories), blueprint=blueprint)
    for seed in range(200):
        card_ids, _ = draw_exam(content, spec, random.Random(seed))
        assert sections_of(card_ids, keys) == Counter(dict(blueprint))


def test_a_section_short_of_cards_gives_what_it_has():
    grouped = {"a": ["a1", "a2"], "b": ["b1"]}
    drawn = draw_stratified((("a", 2), ("b", 3)), grouped, random.Random(1))
    assert sorted(drawn) == ["a1", "a2", "b1"]


# The score per section


def test_section_scores_follow_the_blueprint(content):
    keys = category_keys(content)
    tardiness = [c for c, k in keys.items() if k == "yugioh-ocg/tardiness"][:2]
    fraud = [c for c, k in keys.items() if k == "yugioh-ocg/fraud"][:1]
    blueprint = (("yugioh-ocg/fraud", 1), ("yugioh-ocg/tardiness", 2))
    spec = ExamSpec(3, 30, 80, ("yugioh-ocg",), blueprint=blueprint)
    card_ids = (tardiness[0], fraud[0], tardiness[1])
    exam = Exam(id=1, trainee_id=1, preset="custom", spec=spec, card_ids=card_ids, seeds=(1, 2, 3),
                started_at=START, deadline=deadline_for(START, 30))

    def answer(card_id: str, correct: bool) -> AttemptRecord:
        return AttemptRecord(trainee_id=1, card_id=card_id, ruleset="yugioh-ocg", category="tardiness",
                             card_kind="scenario", mode="exam", correct=correct, seconds=4.0,
                             answered_at=START + timedelta(minutes=1), exam_id=1)

    scores = section_scores(content, exam, [answer(tardiness[0], True), answer(fraud[0], False)])
    assert [(s.category, s.correct, s.answered, s.total) for s in scores] == [
        ("yugioh-ocg/fraud", 0, 1, 1), ("yugioh-ocg/tardiness", 1, 1, 2)]
    assert scores[1].percent == 0.5
    table = section_table(scores, {"yugioh-ocg/tardiness": "遊戯王 › 遅刻"})
    assert table.to_dict("records") == [
        {"section": "yugioh-ocg/fraud", "score": "0 / 1", "percent": "0%"},
        {"section": "遊戯王 › 遅刻", "score": "1 / 2", "percent": "50%"},
    ]


def test_section_scores_of_an_exam_without_blueprint_group_by_category(content):
    keys = category_keys(content)
    fraud = [c for c, k in keys.items() if k == "yugioh-ocg/fraud"][:2]
    spec = ExamSpec(3, 30, 80, ("yugioh-ocg",))
    exam = Exam(id=1, trainee_id=1, preset="custom", spec=spec, card_ids=(fraud[0], "gone-card", fraud[1]),
                seeds=(1, 2, 3), started_at=START, deadline=deadline_for(START, 30))
    assert [(s.category, s.correct, s.total) for s in section_scores(content, exam, [])] == [
        ("yugioh-ocg/fraud", 0, 2)]


def test_the_presets_file_is_the_shipped_one():
    assert PRESETS_FILE.name == "presets.yaml" and "blueprint:" in PRESETS_FILE.read_text(encoding="utf-8")


def test_a_custom_exam_is_balanced_by_category(content):
    keys = category_keys(content)
    fraud = len(card_pool(content, ["yugioh-ocg"], ["yugioh-ocg/fraud"]))
    assert len(card_pool(content, ["yugioh-ocg"], ["yugioh-ocg/rules"])) >= fraud + 4
    chosen = ExamSpec(2 * fraud + 4, 20, 80, ("yugioh-ocg",), ("yugioh-ocg/fraud", "yugioh-ocg/rules"))
    balanced = balanced_by_category(content, chosen)
    # half of the questions would be more than fraud's cards: it gives them all, rules the rest
    assert balanced.blueprint == (("yugioh-ocg/fraud", fraud), ("yugioh-ocg/rules", fraud + 4))
    assert (balanced.questions, balanced.categories) == (chosen.questions, chosen.categories)
    everything = balanced_by_category(content, ExamSpec(20, 20, 80, ("yugioh-ocg",)))
    assert everything.blueprint is not None and blueprint_total(everything.blueprint) == 20
    assert len(everything.blueprint) == 10 and {count for _, count in everything.blueprint} == {2}
    for seed in range(100):
        card_ids, _ = draw_exam(content, balanced, random.Random(seed))
        assert sections_of(card_ids, keys) == Counter({"yugioh-ocg/fraud": fraud, "yugioh-ocg/rules": fraud + 4})


# The afterword's trivia (CONTENT.md revision 3): knowledge cards tagged afterword are taught, never examined


def with_tag(content, card_ids, tag=NOT_EXAM_MATERIAL):
    """The content with ``tag`` added to the given cards (in memory: the card files stay as written)."""
    from quiz.content.loader import Content

    cards = {card_id: card.model_copy(update={"tags": [*card.tags, tag]}) if card_id in card_ids else card
             for card_id, card in content.cards.items()}
    return Content(rulesets=content.rulesets, cards=cards, card_files=content.card_files, themes=content.themes)


@pytest.fixture(scope="module")
def trivia_content(content):
    """Two more YGO knowledge cards and one scenario card tagged afterword."""
    knowledge = [c.id for c in content.knowledge_cards if c.ruleset == "yugioh-ocg" and not c.retired]
    scenario = next(c.id for c in content.scenario_cards if c.ruleset == "yugioh-ocg" and not c.retired)
    return with_tag(content, {*knowledge[:2], scenario}), scenario


def trivia_of(content):
    return {c.id for c in content.knowledge_cards if NOT_EXAM_MATERIAL in c.tags}


def test_exam_material_leaves_out_the_trivia_in_pool_order():
    assert exam_material(["a", "b", "c", "b"], {"b"}) == ["a", "c"]
    assert exam_material(["a", "c"], set()) == ["a", "c"]


def test_afterword_knowledge_is_practised_but_never_drawn_for_an_exam(trivia_content):
    content, scenario = trivia_content
    trivia = trivia_of(content)
    assert len(trivia) >= 2
    assert trivia <= set(card_pool(content, ["yugioh-ocg"]))  # practice and review still deal them
    assert not trivia & set(exam_pool(content, ["yugioh-ocg"]))
    assert scenario in exam_pool(content, ["yugioh-ocg"])  # a case of the afterword judged by the rules stays
    presets, problems = load_presets(content.rulesets, content=content)
    assert problems == []
    ygo = next(p for p in presets if p.id == "ygo-20")
    for seed in range(200):
        drawn, _ = draw_exam(content, ygo.spec, random.Random(seed))
        assert not trivia & set(drawn)
        assert len(drawn) == ygo.questions
    every = ExamSpec(100, 60, 80, ("yugioh-ocg",), ("yugioh-ocg/knowledge",))
    drawn, _ = draw_exam(content, every, random.Random(1))
    assert not trivia & set(drawn) and drawn
    balanced = balanced_by_category(content, ExamSpec(100, 60, 80, ("yugioh-ocg",)))
    knowledge = dict(balanced.blueprint or ())["yugioh-ocg/knowledge"]
    assert knowledge <= len(exam_pool(content, ["yugioh-ocg"], ["yugioh-ocg/knowledge"]))


def test_a_blueprint_section_that_only_the_trivia_would_fill_is_named(trivia_content, tmp_path: Path):
    content, _ = trivia_content
    knowledge = card_pool(content, ["yugioh-ocg"], ["yugioh-ocg/knowledge"])
    examined = exam_pool(content, ["yugioh-ocg"], ["yugioh-ocg/knowledge"])
    assert len(examined) < len(knowledge)
    fraud = len(card_pool(content, ["yugioh-ocg"], ["yugioh-ocg/fraud"]))
    text = YGO_PRESET.replace("FRAUD", str(fraud)).replace("KNOWLEDGE", str(len(knowledge)))
    text = text.replace("questions: 12", f"questions: {2 + fraud + len(knowledge)}")
    path = tmp_path / "presets.yaml"
    path.write_text(text, encoding="utf-8")
    presets, problems = load_presets(content.rulesets, path, tmp_path, content=content)
    assert presets == []
    assert [p.field for p in problems] == ["presets[0].blueprint.yugioh-ocg/knowledge"]
    assert str(len(examined)) in problems[0].message
