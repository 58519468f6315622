"""Card variants: drawing values, showings reproducible from their seed, facts and enumeration."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import ValidationError

from quiz.model.cards import ScenarioCard
from quiz.model.parameters import TextOption
from quiz.model.text import Text
from quiz.rules.variants import (
    card_facts,
    combination_count,
    draw_values,
    drawn_facts,
    fact_combinations,
    fill_text,
    list_title,
    new_seed,
    seed_facts,
    show_card,
    verdict_parameters,
)

SATO = {"ja": "佐藤", "en": "Sato"}
SUZUKI = {"ja": "鈴木", "en": "Suzuki"}
STORY_PARAMETERS = {  # the parameters of the default card
    "minutes": {"between": [1, 20]},
    "player": {"choice": [SATO, SUZUKI]},
    "round": {"between": [1, 8]},
}


def scenario(**changes: Any) -> ScenarioCard:
    """A tardiness variant card: minutes 1-20 as a fact, a player and a round only in the story."""
    data: dict[str, Any] = {
        "id": "late",
        "kind": "scenario", "style": "exam",
        "ruleset": "yugioh-ocg",
        "title": {"ja": "{minutes}分の遅れ", "en": "{minutes} minutes late"},
        "situation": {
            "ja": "第{round}回戦。{player}選手は{minutes}分遅れて着席した。",
            "en": "Round {round}. {player} sat down {minutes} minutes late.",
        },
        "parameters": STORY_PARAMETERS,
        "infraction": "tardiness",
        "facts": {"minutes_late": {"param": "minutes"}},
        "source": {"ja": "- 指定の集合時間に自分の席についていなかった。", "en": "Not seated."},
    }
    data.update(changes)
    return ScenarioCard.model_validate(data)


def test_drawn_values_stay_within_their_ranges_and_reach_every_value():
    card = scenario()
    rng = random.Random(7)
    draws = [draw_values(card, rng) for _ in range(600)]
    assert {d["minutes"] for d in draws} == set(range(1, 21))
    assert {d["round"] for d in draws} == set(range(1, 9))
    assert {d["player"].en for d in draws} == {"Sato", "Suzuki"}


def test_a_showing_is_reproducible_from_its_seed():
    card = scenario()
    assert show_card(card, 12345) == show_card(card, 12345)
    showings = {show_card(card, seed).situation.en for seed in range(20)}
    assert len(showings) > 10  # 320 stories are possible; 20 seeds do not all draw the same


def test_a_showing_fills_both_languages_and_its_facts_agree_with_its_text():
    card = scenario()
    for seed in range(30):
        showing = show_card(card, seed)
        minutes, round_, player = (showing.values[k] for k in ("minutes", "round", "player"))
        assert showing.title == Text(ja=f"{minutes}分の遅れ", en=f"{minutes} minutes late")
        assert showing.situation.ja == f"第{round_}回戦。{player.ja}選手は{minutes}分遅れて着席した。"
        assert showing.situation.en == f"Round {round_}. {player.en} sat down {minutes} minutes late."
        assert dict(showing.facts) == {"minutes_late": minutes}
        assert dict(seed_facts(card, seed)) == dict(showing.facts)


def test_fill_text_with_given_values():
    text = Text(ja="第{round}回戦、{player}選手（{{注}}）", en="Round {round}, {player} ({{note}})")
    values = {"round": 3, "player": TextOption(ja="佐藤", en="Sato")}
    assert fill_text(text, values) == Text(ja="第3回戦、佐藤選手（{注}）", en="Round 3, Sato ({note})")


def test_new_seeds_differ():
    rng = random.Random(1)
    assert len({new_seed(rng) for _ in range(50)}) == 50


def test_a_plain_card_shows_the_same_for_every_seed():
    card = scenario(title={"ja": "遅れて着席", "en": "Seated late"}, situation={"ja": "7分遅れた。", "en": "Seven minutes late."},
                    parameters={}, facts={"minutes_late": 7})
    assert {show_card(card, seed).situation.en for seed in range(5)} == {"Seven minutes late."}
    assert dict(show_card(card, 3).facts) == {"minutes_late": 7}
    assert list(fact_combinations(card)) == [{}]


def test_facts_combine_literals_drawn_numbers_and_option_facts():
    card = scenario(
        parameters={
            **STORY_PARAMETERS,
            "history": {"choice": [
                {"ja": "初めて", "en": "first time", "facts": {"prior_same_infraction": 0}},
                {"ja": "2回目", "en": "second time", "facts": {"prior_same_infraction": 1}},
            ]},
        },
        facts={"minutes_late": {"param": "minutes"}, "between_games": True},
    )
    second = card.parameters["history"].values()[1]
    values = {"minutes": 12, "player": TextOption(**SATO), "round": 2, "history": second}
    assert card_facts(card, values) == {"minutes_late": 12, "between_games": True, "prior_same_infraction": 1}


def test_enumeration_covers_only_the_values_that_reach_facts():
    card = scenario(
        parameters={
            **STORY_PARAMETERS,
            "cautions": {"choice": [0, 2]},
            "how": {"choice": [
                {"ja": "分かる", "en": "can tell", "facts": {"identifiable": True}},
                {"ja": "分からない", "en": "cannot tell", "facts": {"identifiable": False}},
                {"ja": "不明", "en": "unknown"},
            ]},
        },
        facts={"minutes_late": {"param": "minutes"}, "prior_cautions": {"param": "cautions"}},
    )
    assert verdict_parameters(card) == ["minutes", "cautions", "how"]  # player and round only tell the story
    combinations = list(fact_combinations(card))
    assert combination_count(card) == len(combinations) == 20 * 2 * 3
    assert len({(c["minutes"], c["cautions"], c["how"].en) for c in combinations}) == 120
    assert {c["minutes"] for c in combinations} == set(range(1, 21))


def test_drawn_facts_are_those_the_values_decided():
    card = scenario(facts={"minutes_late": {"param": "minutes"}, "between_games": False})
    showing = show_card(card, 4)
    assert drawn_facts(card, showing) == {"minutes_late": showing.values["minutes"]}


def test_list_title_shows_each_placeholder_as_its_range():
    card = scenario(title={"ja": "{player}の{minutes}分", "en": "{player}, {minutes} min"})
    assert list_title(card) == Text(ja="佐藤/鈴木の1–20分", en="Sato/Suzuki, 1–20 min")


@pytest.mark.parametrize(
    ("parameter", "needle"),
    [
        ({"between": [5, 1]}, "higher high bound"),
        ({"between": [3, 3]}, "higher high bound"),
        ({"between": [0, 5000]}, "at most 1000"),
        ({"choice": [1]}, "at least 2"),
        ({"choice": [1, SATO]}, "only numbers or only texts"),
        ({"between": [1, 2], "choice": [1, 2]}, "exactly one"),
        ({}, "exactly one"),
        ({"between": [True, 3]}, "valid integer"),
    ],
)
def test_malformed_parameters_are_refused(parameter, needle):
    with pytest.raises(ValidationError, match=needle):
        scenario(parameters={"minutes": parameter})
