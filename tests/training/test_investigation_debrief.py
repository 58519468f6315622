"""What the floor call's page shows of an investigation: the steps resumed after a reload or
an exam's save, the conversation with who answered and what the other player heard, a
leading question's better wording, and the debrief laid out beside the ruling."""

from __future__ import annotations

from quiz.model.cards import FloorCallCard
from quiz.model.text import Text
from quiz.training.investigation import (
    better_wording,
    conversation,
    debrief,
    investigate,
    resumed_steps,
    round_clock,
)
from quiz.training.pools import PRACTICE_POOLS, card_pool, pool_choice
from tests.floor_calls import floor_call

APART = {"id": "apart", "separate": True, "text": {"ja": "離す。", "en": "Take them apart."},
         "reply": {"ja": "離れた。", "en": "They are apart."}}


def card(**changes) -> FloorCallCard:
    return FloorCallCard.model_validate(floor_call(**changes))


def apart_card() -> FloorCallCard:
    data = floor_call(separate=True, conflicts=[
        {"steps": ["takada-saw", "sato-leading"], "settled": {"ja": "汚れが決め手。", "en": "The stain settles it."}}])
    data["steps"].append(APART)
    return FloorCallCard.model_validate(data)


def test_resumed_steps_keep_the_order_each_once_and_drop_what_cannot_be_taken():
    call = card()
    assert resumed_steps(call, ["hand", "clock"], ["clock", "sleeves", "gone"]) == ("hand", "clock", "sleeves")
    assert resumed_steps(call, ["sleeves", "hand"]) == ("hand",)  # sleeves follows hand: taken too soon


def test_the_conversation_names_who_answered_and_marks_what_the_other_player_heard():
    call = apart_card()
    said = conversation(call, ["kimura-what", "hand", "apart", "sato-what"])
    assert [(e.step.id, e.person.id if e.person else None, e.overheard) for e in said] == [
        ("kimura-what", "kimura", True), ("hand", None, False), ("apart", None, False), ("sato-what", "sato", False)]
    assert not any(e.overheard for e in conversation(card(), ["kimura-what"]))  # no dispute: nothing to overhear


def test_a_leading_question_is_given_a_better_wording():
    call = card()
    leading = call.step("sato-leading")
    assert leading is not None
    assert better_wording(call, leading) == call.step("sato-what").text  # the person's own open question
    assert better_wording(call, call.step("sato-what")) is None  # not leading
    data = floor_call()
    data["steps"][5]["better"] = {"ja": "そのときのことを話してください。", "en": "Tell me about that moment."}
    authored = FloorCallCard.model_validate(data)
    assert better_wording(authored, authored.step("sato-leading")) == Text(ja="そのときのことを話してください。",
                                                                          en="Tell me about that moment.")


def test_the_debrief_lays_out_the_deciding_steps_the_conflicts_the_time_and_the_separation():
    call = apart_card()
    laid = debrief(call, investigate(call, ["kimura-what", "sato-leading", "apart", "hand"]))
    assert [(f.fact, f.gathered, [(s.id, taken) for s, taken in f.steps]) for f in laid.findings] == [
        ("intentional", False, [("sleeves", False), ("takada-saw", False)]),
        ("identifiable", True, [("hand", True)]),
    ]
    assert [(q.step.id, q.person.id if q.person else None) for q in laid.leading] == [("sato-leading", "sato")]
    [conflict] = laid.conflicts
    assert [(e.step.id, heard) for e, heard in conflict.replies] == [("takada-saw", False), ("sato-leading", True)]
    assert (laid.seconds, laid.budget_seconds, laid.over_budget) == (30 + 30 + 15 + 60, 300, False)
    assert laid.separate and laid.separated is False
    assert [e.step.id for e in laid.overheard] == ["kimura-what", "sato-leading"]
    assert round_clock(135) == "2:15" and round_clock(0) == "0:00"


def test_practice_can_hold_floor_calls_only(content):
    every = card_pool(content, content.rulesets)
    floor_calls = card_pool(content, content.rulesets, kinds=pool_choice("floor_calls").kinds)
    assert floor_calls and set(floor_calls) < set(every)
    assert {content.cards[c].kind for c in floor_calls} == {"floor_call"}
    assert pool_choice("no such choice") == PRACTICE_POOLS[0] and PRACTICE_POOLS[0].kinds is None
