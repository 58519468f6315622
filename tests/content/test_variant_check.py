"""Validation of variant cards: each problem is located as path:line: field, like the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.content.card_tree import load_with, make_tree

NAME = "variant.yaml"
GOOD_VARIANT = """\
cards:
  - id: late-variant
    kind: scenario
    style: exam
    ruleset: yugioh-ocg
    title: {ja: 遅れて着席, en: Seated late}
    parameters:
      minutes: {between: [1, 20]}
      player: {choice: [{ja: 佐藤, en: Sato}, {ja: 鈴木, en: Suzuki}]}
    situation:
      ja: "{player}選手は集合時間から{minutes}分後に着席した。"
      en: "{player} sat down {minutes} minutes after the call."
    infraction: tardiness
    facts: {minutes_late: {param: minutes}}
    source: {ja: "- 指定の集合時間に自分の席についていなかった。", en: Not seated at the time.}
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path)


def load(tree: Path, text: str):
    return load_with(tree, NAME, text)


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first line of ``text`` containing ``needle``."""
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def only_problem(tree: Path, text: str):
    content = load(tree, text)
    assert len(content.problems) == 1, [str(p) for p in content.problems]
    problem = content.problems[0]
    assert problem.path == f"scenarios/yugioh-ocg/{NAME}"
    assert "late-variant" not in content.cards
    return problem


def edit(old: str, new: str) -> str:
    assert old in GOOD_VARIANT, old
    return GOOD_VARIANT.replace(old, new)


def test_the_good_variant_loads(tree):
    content = load(tree, GOOD_VARIANT)
    assert content.problems == [] and "late-variant" in content.cards


SUZUKI = "{ja: 鈴木, en: Suzuki}"
LOCATED = [  # (old text, new text, text on the problem's line, field, words of the message)
    pytest.param("call.", "call at table {table}.", "{table}", "cards[0].situation.en",
                 ["unknown placeholder {table}", "parameters: minutes, player"], id="unknown-placeholder"),
    pytest.param("title: {ja: 遅れて着席,", 'title: {ja: "{minutes.__class__}",', "__class__", "cards[0].title.ja",
                 ["placeholder {minutes.__class__} is not allowed"], id="attribute-access-refused"),
    pytest.param('en: "{player} sat down', 'en: "The player sat down', "player: {choice", "cards[0].parameters.player",
                 ["not used in the situation (en)"], id="parameter-not-in-the-story"),
    pytest.param("{param: minutes}}", "{param: mins}}", "param: mins", "cards[0].facts.minutes_late.param",
                 ["unknown parameter 'mins'"], id="undefined-parameter"),
    pytest.param("{minutes_late: {param: minutes}}", "{minutes_late: 3, intentional: {param: minutes}}",
                 "intentional:", "cards[0].facts.intentional.param", ["fact intentional is true or false"],
                 id="number-for-a-true-or-false-fact"),
    pytest.param("{between: [1, 20]}", "{between: [-2, 20]}", "[-2, 20]", "cards[0].parameters.minutes.between",
                 ["can be -2", "at least 0"], id="range-below-the-facts-minimum"),
    pytest.param("{param: minutes}}", "{param: player}}", "param: player", "cards[0].facts.minutes_late.param",
                 ["choice of texts"], id="text-parameter-as-a-fact"),
    pytest.param(SUZUKI, "{ja: 鈴木, en: Suzuki, facts: {minutes_late: 3}}", "minutes_late: 3}",
                 "cards[0].parameters.player.choice[1].facts.minutes_late", ["set both"], id="fact-set-twice"),
    pytest.param(SUZUKI, "{ja: 鈴木, en: Suzuki, facts: {sleepy: true}}", "sleepy",
                 "cards[0].parameters.player.choice[1].facts.sleepy", ["unknown fact 'sleepy'"], id="option-unknown-fact"),
    pytest.param(SUZUKI, '{ja: 鈴木, en: "{minutes}"}', '"{minutes}"}', "cards[0].parameters.player.choice[1].en",
                 ["shown as written"], id="placeholder-inside-a-choice"),
    pytest.param("{between: [1, 20]}", "{between: [20, 1]}", "[20, 1]", "cards[0].parameters.minutes",
                 ["higher high bound"], id="range-upside-down"),
    pytest.param(SUZUKI, "{ja: 鈴木}", "{ja: 鈴木}", "cards[0].parameters.player.choice[1].en",
                 ["required field is missing"], id="option-without-english"),
]


@pytest.mark.parametrize(("old", "new", "on_line", "field", "words"), LOCATED)
def test_a_problem_names_its_line_and_field(tree, old, new, on_line, field, words):
    text = edit(old, new)
    problem = only_problem(tree, text)
    assert (problem.line, problem.field) == (line_of(text, on_line), field)
    assert all(word in problem.message for word in words), problem.message


def test_expect_on_a_card_whose_answer_changes_with_its_values(tree):
    text = GOOD_VARIANT + "    expect: {penalty: warning, fixes: []}\n"
    problem = only_problem(tree, text)
    assert (problem.line, problem.field) == (line_of(text, "expect:"), "cards[0].expect")
    # minutes 1 (the first value) is under 5: a warning; 5 is the first value judged otherwise
    assert "minutes=1 gives tardiness: warning" in problem.message
    assert "minutes=5 gives tardiness: duel_loss" in problem.message and "has no expect" in problem.message


def always_ten_or_more(expected_penalty: str) -> str:
    """The card drawing 10 to 20 minutes (a match loss every time), expecting ``expected_penalty``."""
    text = edit("minutes: {between: [1, 20]}", "minutes: {between: [10, 20]}")
    return text + f"    expect: {{penalty: {expected_penalty}, fixes: []}}\n"


def test_expect_on_a_card_whose_answer_never_changes(tree):
    content = load(tree, always_ten_or_more("match_loss"))
    assert content.problems == [] and "late-variant" in content.cards


def test_a_wrong_expect_on_a_card_whose_answer_never_changes(tree):
    problem = only_problem(tree, always_ten_or_more("duel_loss"))
    assert problem.field == "cards[0].expect.penalty" and "engine gives match_loss" in problem.message


def test_too_many_combinations(tree):
    text = edit("{minutes_late: {param: minutes}}", "{minutes_late: {param: minutes}, prior_cautions: {param: n}}")
    text = text.replace("      player:", "      n: {between: [0, 999]}\n      player:")
    text = text.replace('{minutes} minutes after the call."', '{minutes} minutes after the call, {n}."')
    text = text.replace("{minutes}分後に着席した。", "{minutes}分後に着席した。{n}")
    problem = only_problem(tree, text)
    assert problem.field == "cards[0].parameters" and "20000 combinations" in problem.message  # 20 x 1000


def test_a_plain_card_with_a_stray_brace(tree):
    """Every scenario text is a template, with or without parameters."""
    text = GOOD_VARIANT.split("    parameters:")[0] + (
        '    situation: {ja: 3分後に着席した。, en: "Sat down three minutes late }"}\n'
        "    infraction: tardiness\n"
        "    facts: {minutes_late: 3}\n"
        '    source: {ja: "- 指定の集合時間に自分の席についていなかった。", en: Not seated at the time.}\n'
    )
    problem = only_problem(tree, text)
    assert (problem.line, problem.field) == (line_of(text, "late }"), "cards[0].situation.en")
    assert "lone '}'" in problem.message
