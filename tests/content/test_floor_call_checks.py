"""What ``quiz validate`` refuses of a floor call, each at its file, line and field
(CONTENT.md, "Floor calls: investigate, then rule")."""

from __future__ import annotations

import copy

import pytest

from quiz.model.errors import Problem
from tests.content.card_tree import load_with, make_tree
from tests.floor_calls import FLOOR_CALL, floor_call, floor_call_yaml

PATH = "scenarios/yugioh-ocg/calls.yaml"


@pytest.fixture()
def tree(tmp_path):
    return make_tree(tmp_path)


def refused(tree, card: dict) -> list[Problem]:
    text = floor_call_yaml(card)
    content = load_with(tree, "calls.yaml", text)
    assert card["id"] not in content.cards, "the card loaded"
    for problem in content.problems:
        assert problem.path == PATH and problem.line > 1
    return content.problems


def line_of(text: str, needle: str, after: int = 0) -> int:
    """The 1-based line of the first line holding ``needle`` after line ``after``."""
    lines = text.splitlines()
    return next(n for n, line in enumerate(lines, 1) if n > after and needle in line)


def steps_with(change) -> list[dict]:
    steps = copy.deepcopy(FLOOR_CALL["steps"])
    change(steps)
    return steps


def test_the_example_loads(tree):
    content = load_with(tree, "calls.yaml", floor_call_yaml())
    assert content.problems == [] and content.floor_calls[0].id == "t-floor-call"


def test_a_finding_that_only_a_leading_question_shows_is_refused(tree):
    def only_leading(steps):
        for step in steps:
            if step["id"] in ("sleeves", "takada-saw"):
                step["shows"] = []
    card = floor_call(steps=steps_with(only_leading))
    [problem] = refused(tree, card)
    text = floor_call_yaml(card)
    assert problem.field == "cards[0].findings.intentional"
    assert problem.line - line_of(text, "intentional:", line_of(text, "findings:")) in (0, 1)  # the key, or its value
    assert "intentional" in problem.message and "leading" in problem.message


def test_fewer_than_three_steps_that_show_nothing_is_refused(tree):
    card = floor_call(steps=steps_with(lambda steps: steps.pop()))  # the clock: two quiet steps left
    [problem] = refused(tree, card)
    assert problem.field == "cards[0].steps" and "2 steps show nothing" in problem.message


def test_an_after_that_names_no_step_is_refused(tree):
    card = floor_call(steps=steps_with(lambda steps: steps[3].update(after=["handd"])))
    [problem] = refused(tree, card)
    assert problem.field == "cards[0].steps[3].after" and "'handd'" in problem.message
    assert problem.line == line_of(floor_call_yaml(card), "handd")


def test_an_after_that_makes_a_circle_is_refused(tree):
    def circle(steps):
        steps[2]["after"] = ["sleeves"]  # hand after sleeves, sleeves after hand
    problems = refused(tree, floor_call(steps=steps_with(circle)))
    assert {p.field for p in problems} == {"cards[0].steps[2].after", "cards[0].steps[3].after"}
    assert all("circle" in p.message for p in problems)


def test_a_question_to_nobody_is_refused(tree):
    card = floor_call(steps=steps_with(lambda steps: steps[0].update(ask="kimora")))
    [problem] = refused(tree, card)
    assert problem.field == "cards[0].steps[0].ask" and "'kimora'" in problem.message


@pytest.mark.parametrize("language, text", [("ja", "佐藤はわざと2枚引いたようだ。"), ("en", "Sato drew two on purpose.")])
def test_a_telltale_word_in_the_call_is_refused(tree, language, text):
    call = dict(FLOOR_CALL["call"], **{language: text})
    [problem] = refused(tree, floor_call(call=call))
    assert problem.field == f"cards[0].call.{language}"


def test_a_telltale_word_in_a_question_that_is_not_leading_is_refused(tree):
    card = floor_call(steps=steps_with(lambda steps: steps[5].update(leading=False)))
    ja, en = refused(tree, card)  # each language checked on its own
    assert (ja.field, en.field) == ("cards[0].steps[5].text.ja", "cards[0].steps[5].text.en")
    assert "わざと" in ja.message and "on purpose" in en.message



def test_a_better_wording_is_a_leading_questions_and_says_no_telltale_word(tree):
    telling = {"ja": "わざとでしたか？", "en": "Did you do it on purpose?"}
    card = floor_call(steps=steps_with(lambda steps: steps[5].update(better=telling)))
    ja, en = refused(tree, card)
    assert (ja.field, en.field) == ("cards[0].steps[5].better.ja", "cards[0].steps[5].better.en")
    plain = {"ja": "そのときのことを話してください。", "en": "Tell me about that moment."}
    [problem] = refused(tree, floor_call(steps=steps_with(lambda steps: steps[0].update(better=plain))))
    assert "leading" in problem.message
    content = load_with(tree, "calls.yaml", floor_call_yaml(floor_call(
        steps=steps_with(lambda steps: steps[5].update(better=plain)))))
    assert content.problems == []

def test_a_finding_shown_only_by_the_offenders_own_replies_is_refused_unless_arguable(tree):
    def admission(steps):
        steps[3]["shows"] = []
        steps[4]["shows"] = []
        steps[1]["shows"] = ["intentional"]
    card = floor_call(steps=steps_with(admission))
    [problem] = refused(tree, card)
    assert problem.field == "cards[0].findings.intentional" and "offender" in problem.message
    findings = copy.deepcopy(FLOOR_CALL["findings"])
    findings["intentional"]["arguable"] = {"ja": "本人の言葉だけ。", "en": "Only his word."}
    content = load_with(tree, "calls.yaml", floor_call_yaml(dict(card, findings=findings)))
    assert content.problems == []


def test_a_step_does_one_thing(tree):
    card = floor_call(steps=steps_with(lambda steps: steps[0].update(check="deck")))
    [problem] = refused(tree, card)
    assert problem.field.startswith("cards[0].steps[0]") or problem.field.startswith("cards[0]")
    assert "exactly one thing" in problem.message


def test_a_separated_call_needs_its_separate_step(tree):
    [problem] = refused(tree, floor_call(separate=True))
    assert problem.field == "cards[0].separate"
    separate = {"id": "apart", "separate": True, "text": {"ja": "離す。", "en": "Take them apart."},
                "reply": {"ja": "離れた。", "en": "They are apart."}}
    content = load_with(tree, "calls.yaml", floor_call_yaml(floor_call(separate=True,
                                                                       steps=FLOOR_CALL["steps"] + [separate])))
    assert content.problems == []
    [problem] = refused(tree, floor_call(steps=FLOOR_CALL["steps"] + [separate]))
    assert problem.field == "cards[0].steps[7].separate"


def test_the_shipped_floor_calls_validate():
    from quiz.content.loader import load_content

    content = load_content()
    assert content.problems == []
    assert content.floor_calls, "no floor call shipped"
