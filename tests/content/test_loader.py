"""Broken input: each problem names its file, line and field, and the rest still loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.content.loader import load_content
from tests.content.card_tree import GOOD_CARD, load_with, make_tree


def _card(**changes: str) -> str:
    text = GOOD_CARD.replace("good-card", changes.pop("id", "bad-card"))
    for old, new in changes.items():
        text = text.replace(old.replace("_", " "), new)
    return text


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    made = make_tree(tmp_path)
    (made / "scenarios" / "yugioh-ocg" / "good.yaml").write_text(GOOD_CARD, encoding="utf-8")
    return made


_load = load_with


def _only_problem(content, name: str):
    assert "good-card" in content.cards, "the good file must still load"
    assert len(content.problems) == 1, [str(p) for p in content.problems]
    problem = content.problems[0]
    assert problem.path == f"scenarios/yugioh-ocg/{name}"
    return problem


def test_bad_yaml_syntax(tree):
    problem = _only_problem(_load(tree, "bad.yaml", "cards:\n  - id: x\n    title: [unclosed\n"), "bad.yaml")
    assert problem.line in (3, 4) and problem.field == "yaml" and "invalid YAML" in problem.message


def test_an_unclosed_quote_is_reported_where_it_opens_not_at_the_end(tree):
    """libyaml notices an unclosed quote only at the end of the file; the author needs the
    line of the quote, with the file and field named, and the rest of the content loads."""
    text = _card().replace("en: Not seated at the time.}", 'en: "Not seated at the time.}') + "\n".join(
        f"# a comment line {n}" for n in range(30))
    quote = next(n for n, line in enumerate(text.splitlines(), start=1) if '"Not seated' in line)
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field) == (quote, "yaml")
    assert f"quoted scalar that starts on line {quote} is not closed" in problem.message


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
    text = _card().replace("{ja: 遅れて着席, en: Seated late}", "{ja: 遅れて着席}")
    problem = _only_problem(_load(tree, "bad.yaml", text), "bad.yaml")
    assert (problem.line, problem.field, problem.message) == (5, "cards[0].title.en", "required field is missing")


def test_empty_translation(tree):
    text = _card().replace("en: Seated late}", "en: ''}")
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


# --- ruleset checks of revision 2: each names the ruleset's line, and the other ruleset loads ---

def _broken_ruleset(tree: Path, name: str, old: str, new: str, count: int = 1):
    path = tree / "rulesets" / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    content = load_content(tree / "rulesets", [tree / "scenarios"], tree)
    other = "yugioh-ocg" if name == "pokemon-card-ja" else "pokemon-card-ja"
    assert name not in content.rulesets and other in content.rulesets
    problems = [p for p in content.problems if p.path == f"rulesets/{name}.yaml"]
    assert problems, [str(p) for p in content.problems]
    lines = path.read_text(encoding="utf-8").split("\n")
    return problems, lines


def test_a_declared_fact_that_nothing_reads(tree):
    """Every declared fact must be read: a card must not state a fact that changes nothing."""
    anchor = ("phrase_none: {ja: この大会ではまだ警告を受けていなかった, "
              "en: the player had received no Warning at this event yet}}\n")
    unread = "  - {id: prior_same_infraction, type: int, default: 0, min: 0, name: {ja: 同じ違反, en: Same infraction}}\n"
    problems, lines = _broken_ruleset(tree, "pokemon-card-ja", anchor, anchor + unread)
    assert len(problems) == 1
    problem = problems[0]
    assert problem.field == "facts[6].id" and "'prior_same_infraction' is read by no rule" in problem.message
    assert "prior_same_infraction" in lines[problem.line - 1]


def test_a_fact_read_only_by_a_scope_counts_as_read(tree):
    """between_matches is read by two scopes alone (duel loss, match loss); without them it is unread."""
    path = tree / "rulesets" / "yugioh-ocg.yaml"
    duel_scope = "{any: [{between_games: true}, {between_matches: true}]}"
    path.write_text(path.read_text(encoding="utf-8").replace(duel_scope, "{between_games: true}"), encoding="utf-8")
    assert "yugioh-ocg" in load_content(tree / "rulesets", [], tree).rulesets  # still read by the match loss
    old = "      - when: {between_matches: true}\n        applies_to: next_match\n"
    problems, lines = _broken_ruleset(tree, "yugioh-ocg", old, "      - when: {between_games: true}\n        applies_to: next_match\n")
    assert [p.field for p in problems] == ["facts[10].id"]
    assert "between_matches" in lines[problems[0].line - 1]


def test_a_scope_with_an_unknown_fact(tree):
    problems, lines = _broken_ruleset(tree, "yugioh-ocg", "      - when: {between_matches: true}",
                                      "      - when: {between_sets: true}")
    scope = [p for p in problems if "scopes" in p.field]
    assert len(scope) == 1 and scope[0].field.endswith("scopes[0].when.between_sets")
    assert "unknown fact 'between_sets'" in scope[0].message
    assert "between_sets" in lines[scope[0].line - 1]


def test_an_upgrade_up_to_an_unknown_penalty(tree):
    problems, lines = _broken_ruleset(tree, "yugioh-ocg", "    up_to: match_loss", "    up_to: game_over")
    assert len(problems) == 1 and problems[0].field == "upgrades[0].up_to"
    assert "unknown penalty 'game_over'" in problems[0].message and "game_over" in lines[problems[0].line - 1]


def test_an_undecided_rule_that_also_gives_a_penalty(tree):
    old = "        when: {intentional: true}\n        undecided: true\n"
    problems, lines = _broken_ruleset(tree, "pokemon-card-ja", old, old + "        penalty: caution\n")
    assert len(problems) == 1 and problems[0].field.startswith("infractions[0].rules[0]")
    assert "exactly one of penalty, becomes or undecided" in problems[0].message


def test_an_unknown_also_accepted_penalty(tree):
    problems, lines = _broken_ruleset(tree, "pokemon-card-ja", "also_accepted: [disqualification]",
                                      "also_accepted: [banishment]")
    assert len(problems) == 1 and problems[0].field.endswith(".also_accepted[0]")
    assert "unknown penalty 'banishment'" in problems[0].message and "banishment" in lines[problems[0].line - 1]


def test_an_escalation_citation_not_in_the_document(tree):
    problems, lines = _broken_ruleset(tree, "pokemon-card-ja", "{ja: このほか、「警告」が科せられた後、",
                                      "{ja: このほか、「警告」を二回受けた後、")
    assert len(problems) == 1 and problems[0].field == "escalations[1].citation.ja"
    assert "quoted line not found" in problems[0].message


def test_an_infraction_whose_every_rule_is_undecided(tree):
    line_42 = "そのどちらかもしくは両方が科せられる。\\n（ⅰ）失格\\n・トラッシュ"
    old = f"        penalty: disqualification\n        also_accepted: [suspension]\n        citation: {{ja: \"「参加資格の停止」には2つの種類がある。プレイヤーの行為が大会の公正性や大会運営に対して、著しく重大な影響を及ぼすケースが発生した場合に、{line_42}"
    new = old.replace("penalty: disqualification\n        also_accepted: [suspension]", "undecided: true")
    problems, _ = _broken_ruleset(tree, "pokemon-card-ja", old, new)
    assert any("every rule is undecided" in p.message for p in problems)


def test_an_unknown_field_does_not_hide_the_cards_other_problems(tree):
    """Every problem at once: the schema problem and the engine's disagreement with ``expect``."""
    text = (
        "cards:\n"
        "  - id: ygo-late-colour\n"
        "    kind: scenario\n"
        "    ruleset: yugioh-ocg\n"
        "    title: {ja: 遅れ, en: Late}\n"
        "    situation: {ja: 7分遅れた。, en: Seven minutes late.}\n"
        "    infraction: tardiness\n"
        "    facts: {minutes_late: 7}\n"
        "    expect: {penalty: warning, fixes: [], colour: red}\n"
        "    colour: blue\n"
        "    difficulty: 1\n"
        "    source: {ja: \"- 指定の集合時間後５分経過しても、自分の席についていなかった。\", en: x}\n"
        "    style: exam\n"
    )
    content = _load(tree, "late.yaml", text)
    problems = sorted((p.line, p.field, p.message) for p in content.problems if p.path.endswith("late.yaml"))
    assert [(line, field) for line, field, _ in problems] == [
        (9, "cards[0].expect.colour"), (9, "cards[0].expect.penalty"), (10, "cards[0].colour")]
    assert "engine gives duel_loss" in problems[1][2]
    assert "ygo-late-colour" not in content.cards


def test_a_wrong_value_still_stops_the_cards_checks(tree):
    """Only unknown fields are set aside: a wrong value could make every other finding misleading."""
    text = (
        "cards:\n"
        "  - id: ygo-late-bad\n"
        "    kind: scenario\n"
        "    ruleset: yugioh-ocg\n"
        "    title: {ja: 遅れ, en: Late}\n"
        "    situation: {ja: 7分遅れた。, en: Seven minutes late.}\n"
        "    infraction: tardiness\n"
        "    facts: {minutes_late: 7}\n"
        "    expect: {penalty: warning, fixes: []}\n"
        "    difficulty: many\n"
        "    source: {ja: \"- 指定の集合時間後５分経過しても、自分の席についていなかった。\", en: x}\n"
        "    style: exam\n"
    )
    content = _load(tree, "late.yaml", text)
    fields = [p.field for p in content.problems if p.path.endswith("late.yaml")]
    assert fields == ["cards[0].difficulty"]
