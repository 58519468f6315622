"""Broken input: each problem names its file, line and field, and the rest still loads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quiz.loader import RULESETS_DIR, load_content

GOOD_CARD = """\
cards:
  - id: good-card
    kind: scenario
    ruleset: yugioh-ocg
    title: {ja: 遅刻, en: Late}
    situation: {ja: 3分遅れて着席した。, en: Sat down three minutes late.}
    infraction: tardiness
    facts: {minutes_late: 3}
    expect: {penalty: warning, fixes: []}
    source: {ja: "- 指定の集合時間に自分の席についていなかった。", en: Not seated at the time.}
"""


def _card(**changes: str) -> str:
    text = GOOD_CARD.replace("good-card", changes.pop("id", "bad-card"))
    for old, new in changes.items():
        text = text.replace(old.replace("_", " "), new)
    return text


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copytree(RULESETS_DIR, tmp_path / "rulesets")
    folder = tmp_path / "scenarios" / "yugioh-ocg"
    folder.mkdir(parents=True)
    (folder / "good.yaml").write_text(GOOD_CARD, encoding="utf-8")
    return tmp_path


def _load(tree: Path, name: str, text: str):
    (tree / "scenarios" / "yugioh-ocg" / name).write_text(text, encoding="utf-8")
    return load_content(tree / "rulesets", [tree / "scenarios"], tree)


def _only_problem(content, name: str):
    assert "good-card" in content.cards, "the good file must still load"
    assert len(content.problems) == 1, [str(p) for p in content.problems]
    problem = content.problems[0]
    assert problem.path == f"scenarios/yugioh-ocg/{name}"
    return problem


def test_bad_yaml_syntax(tree):
    problem = _only_problem(_load(tree, "bad.yaml", "cards:\n  - id: x\n    title: [unclosed\n"), "bad.yaml")
    assert problem.line in (3, 4) and problem.field == "yaml" and "invalid YAML" in problem.message


def test_unknown_key(tree):
    text = _card().replace("    difficulty", "    difficulty").replace("    infraction:", "    colour: red\n    infraction:")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field, problem.message) == (7, "cards[0].colour", "unknown field")


def test_unknown_infraction_id(tree):
    text = _card().replace("infraction: tardiness", "infraction: lateness")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (7, "cards[0].infraction")
    assert "unknown infraction 'lateness'" in problem.message


def test_unknown_fact(tree):
    text = _card().replace("{minutes_late: 3}", "{minutes_late: 3, sleepy: true}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (8, "cards[0].facts.sleepy")
    assert "unknown fact 'sleepy'" in problem.message


def test_wrong_type(tree):
    text = _card().replace("{minutes_late: 3}", "{minutes_late: 3}").replace("\n    source:", "\n    difficulty: hard\n    source:")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (10, "cards[0].difficulty")


def test_wrong_fact_type(tree):
    text = _card().replace("{minutes_late: 3}", "{minutes_late: 3, intentional: 7}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert problem.field == "cards[0].facts.intentional" and "true or false" in problem.message


def test_missing_translation(tree):
    text = _card().replace("{ja: 遅刻, en: Late}", "{ja: 遅刻}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field, problem.message) == (5, "cards[0].title.en", "required field is missing")


def test_empty_translation(tree):
    text = _card().replace("en: Late}", "en: ''}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (5, "cards[0].title.en")


def test_duplicate_card_id(tree):
    problem = _only_problem(_load(tree, "zz-dup.yaml", GOOD_CARD), "zz-dup.yaml")
    assert (problem.line, problem.field) == (2, "cards[0].id")
    assert "duplicate card id 'good-card'" in problem.message and "good.yaml" in problem.message


def test_expect_that_disagrees_with_the_engine(tree):
    text = _card().replace("{penalty: warning, fixes: []}", "{penalty: duel_loss, fixes: []}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (9, "cards[0].expect.penalty")
    assert "engine gives warning" in problem.message


def test_expect_fixes_that_disagree(tree):
    text = _card().replace("{penalty: warning, fixes: []}", "{penalty: warning, fixes: [return_extra_to_top]}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert problem.field == "cards[0].expect.fixes"


def test_unsafe_yaml_tag_is_refused(tree):
    text = _card().replace("facts: {minutes_late: 3}", "facts: !!python/object/apply:os.system ['echo pwned']")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert problem.line == 8 and "unsafe or unknown YAML tag" in problem.message


def test_alias_bomb_is_refused(tree):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9)
    )
    problem = _only_problem(_load(tree, "bomb.yaml", bomb), "bomb.yaml")
    assert problem.line == 2 and "aliases" in problem.message


def test_source_line_not_in_the_document(tree):
    text = _card().replace("- 指定の集合時間に自分の席についていなかった。", "- 集合時間に遅れた。")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (10, "cards[0].source.ja")


def test_card_in_the_wrong_folder(tree):
    other = tree / "scenarios" / "pokemon-card-ja"
    other.mkdir()
    (other / "misplaced.yaml").write_text(_card(), encoding="utf-8")
    content = load_content(tree / "rulesets", [tree / "scenarios"], tree)
    assert [p.field for p in content.problems] == ["cards[0].ruleset"]


def test_one_bad_card_does_not_drop_its_neighbours(tree):
    text = _card(id="first") + _card(id="second").replace("cards:\n", "").replace("minutes_late: 3", "minutes_late: x")
    content = _load(tree, "mixed.yaml", text)
    assert "first" in content.cards and "second" not in content.cards
    assert [p.field for p in content.problems] == ["cards[1].facts.minutes_late"]


def test_broken_ruleset_names_its_line_and_the_rest_loads(tree):
    path = tree / "rulesets" / "pokemon-card-ja.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if "penalty: prize_penalty" in line)
    lines[index] = lines[index].replace("prize_penalty", "prize_penality")
    path.write_text("\n".join(lines), encoding="utf-8")
    content = load_content(tree / "rulesets", [tree / "scenarios"], tree)
    assert "yugioh-ocg" in content.rulesets and "pokemon-card-ja" not in content.rulesets
    assert "good-card" in content.cards
    problem = content.problems[0]
    assert (problem.path, problem.line) == ("rulesets/pokemon-card-ja.yaml", index + 1)
    assert problem.field.endswith(".penalty") and "unknown penalty 'prize_penality'" in problem.message


def test_bad_ruleset_condition(tree):
    path = tree / "rulesets" / "yugioh-ocg.yaml"
    text = path.read_text(encoding="utf-8").replace("{minutes_late: {gte: 10}}", "{minutes_late: {over: 10}}")
    path.write_text(text, encoding="utf-8")
    content = load_content(tree / "rulesets", [], tree)
    problem = content.problems[0]
    assert problem.field.endswith("rules[0].when.minutes_late") and "unknown comparison 'over'" in problem.message
    assert "over: 10" in text.split("\n")[problem.line - 1]


def test_file_that_is_not_a_card_file(tree):
    problem = _only_problem(_load(tree, "list.yaml", "- just\n- a list\n"), "list.yaml")
    assert problem.field == "cards"


def test_control_characters_with_anchors_are_a_located_problem(tree):
    problem = _only_problem(_load(tree, "nul.yaml", "&a *a\n\x00 cards: []\n"), "nul.yaml")
    assert problem.field == "yaml" and "control characters" in problem.message
