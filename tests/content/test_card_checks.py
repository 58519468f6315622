"""A card's title must not name its answer: the infraction or penalty of a scenario
card's answer key, or the nearest infraction of a judgement call, in either language."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.content.card_checks import ANSWER_INFRACTION, ANSWER_PENALTY, title_problems
from quiz.model.text import Text
from tests.content.card_tree import GOOD_CARD, load_with, make_tree

NAME = "titles.yaml"
SCENARIO = GOOD_CARD.replace("good-card", "title-card")
VARIANT = """\
cards:
  - id: title-card
    kind: scenario
    ruleset: yugioh-ocg
    title: {ja: "{minutes}分後の着席", en: "Seated {minutes} minutes in"}
    parameters:
      minutes: {between: [1, 12]}
    situation: {ja: "{minutes}分遅れて着席した。", en: "Sat down {minutes} minutes late."}
    infraction: tardiness
    facts: {minutes_late: {param: minutes}}
    source: {ja: "- 指定の集合時間に自分の席についていなかった。", en: Not seated at the time.}
    style: exam
"""
JUDGEMENT_CALL = """\
cards:
  - id: title-card
    kind: judgement_call
    ruleset: yugioh-ocg
    title: {ja: "決勝戦の投了", en: "A concession in the final"}
    situation: {ja: 投了の見返りに3000円を約束し、相手は受けた。, en: He promised 3000 yen for a concession; it was accepted.}
    nearest: result_bribery
    facts: {both_players: true}
    principle: discretion
    explanation: {ja: 受けた側の罰則は規定にない。, en: The rules do not say what the accepting player gets.}
    source:
      ja: |-
        - 金銭などメリットの提供を約束し、対戦結果を操作した
        罰則：受賞資格を失う失格
      en: "- Manipulated a match result by promising money or another benefit"
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path)


def load(tree: Path, text: str):
    return load_with(tree, NAME, text)


def retitled(card: str, old: str, new: str) -> str:
    assert old in card, old
    return card.replace(old, new)


@pytest.mark.parametrize("card", [SCENARIO, VARIANT, JUDGEMENT_CALL], ids=["scenario", "variant", "judgement-call"])
def test_a_neutral_title_passes(tree, card):
    content = load(tree, card)
    assert content.problems == [] and "title-card" in content.cards


FLAGGED = [  # (card, old title, new title, field, words of the message)
    pytest.param(SCENARIO, "{ja: 遅れて着席,", "{ja: 今日2度目の遅刻,", "cards[0].title.ja",
                 "the title names the answer's infraction '遅刻' (ja)", id="infraction-ja"),
    pytest.param(SCENARIO, "en: Seated late}", "en: Tardiness again}", "cards[0].title.en",
                 "the title names the answer's infraction 'Tardiness' (en)", id="infraction-en"),
    pytest.param(SCENARIO, "en: Seated late}", "en: A WARNING for being late}", "cards[0].title.en",
                 "the title names the answer's penalty 'Warning' (en)", id="penalty-en-other-case"),
    pytest.param(SCENARIO, "en: Seated late}", "en: Late so a ｗａｒｎｉｎｇ}", "cards[0].title.en",
                 "the title names the answer's penalty 'Warning' (en)", id="penalty-en-full-width"),
    pytest.param(SCENARIO, "{ja: 遅れて着席,", "{ja: 警告のあとの着席,", "cards[0].title.ja",
                 "the title names the answer's penalty '警告' (ja)", id="penalty-ja"),
    pytest.param(SCENARIO, "{ja: 遅れて着席,", "{ja: Warningの着席,", "cards[0].title.ja",
                 "the title names the answer's penalty 'Warning' (en)", id="english-name-in-the-japanese-title"),
    # a variant's template as written; 1 to 12 minutes reaches a Match Loss on some showings
    pytest.param(VARIANT, 'en: "Seated {minutes} minutes in"', 'en: "{minutes} minutes: a match loss?"',
                 "cards[0].title.en", "the title names the answer's penalty 'Match Loss' (en)", id="variant-template"),
    pytest.param(JUDGEMENT_CALL, '{ja: "決勝戦の投了",', '{ja: "決勝戦での利益提供による結果操作",', "cards[0].title.ja",
                 "the title names the nearest infraction '利益提供による結果操作' (ja)", id="judgement-call-nearest"),
]


@pytest.mark.parametrize(("card", "old", "new", "field", "words"), FLAGGED)
def test_a_title_that_names_the_answer_is_a_located_problem_and_the_card_is_left_out(tree, card, old, new, field, words):
    text = retitled(card, old, new)
    content = load(tree, text)
    assert [(p.path, p.field) for p in content.problems] == [(f"scenarios/yugioh-ocg/{NAME}", field)]
    problem = content.problems[0]
    assert problem.line == 5  # the title's line
    assert problem.message == f"{words}; titles are shown after the answer, but keep them neutral"
    assert "title-card" not in content.cards


def test_a_penalty_the_judge_may_give_instead_is_part_of_the_answer(tree):
    """Late again: the standard penalty is a Warning, and the judge may upgrade it up to a
    Match Loss; a title naming any accepted penalty gives a right answer away."""
    repeat = retitled(SCENARIO, "{minutes_late: 3}", "{minutes_late: 2, prior_same_infraction: 1}")
    assert load(tree, repeat).problems == []
    content = load(tree, retitled(repeat, "en: Seated late}", 'en: "Late again: a duel loss?"}'))
    assert [p.message.split(";")[0] for p in content.problems] == [
        "the title names the answer's penalty 'Duel Loss' (en)"]


def test_a_name_in_both_title_languages_is_reported_in_each():
    found = title_problems(Text(ja="遅刻", en="遅刻"), [(ANSWER_INFRACTION, Text(ja="遅刻", en="Tardiness"))])
    assert [loc for loc, _ in found] == [("title", "ja"), ("title", "en")]


def test_a_name_whose_two_languages_fold_alike_is_reported_once():
    found = title_problems(Text(ja="ＧＡＭＥ ＬＯＳＳ", en="x"),
                           [(ANSWER_PENALTY, Text(ja="Game Loss", en="game loss"))])
    assert [wording.english.split(";")[0] for _, wording in found] == [
        "the title names the answer's penalty 'Game Loss' (ja)"]
    assert [wording.say("ja").split("。")[0] for _, wording in found] == [
        "タイトルに正解の罰則「Game Loss」（日本語）が含まれています"]
