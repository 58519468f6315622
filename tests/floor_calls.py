"""A small floor call of the Yu-Gi-Oh! ruleset as data, for tests to change one thing of and
load (``floor_call_yaml``): an extra draw whose intent is decided by what the sleeves show and
what a spectator saw, not by the player's word."""

from __future__ import annotations

import copy
from typing import Any

import yaml


def _text(ja: str, en: str) -> dict[str, str]:
    return {"ja": ja, "en": en}


FLOOR_CALL: dict[str, Any] = {
    "id": "t-floor-call",
    "kind": "floor_call",
    "ruleset": "yugioh-ocg",
    "title": _text("ドローの2枚", "Two at the draw"),
    "call": _text("相手が手を挙げている。佐藤は裏向きのカードを2枚持って止まっている。",
                  "The opponent has raised a hand. Sato has stopped holding two face-down cards."),
    "people": [
        {"id": "sato", "role": "offender", "name": _text("佐藤", "Sato")},
        {"id": "kimura", "role": "opponent", "name": _text("木村", "Kimura")},
        {"id": "takada", "role": "witness", "name": _text("高田", "Takada")},
    ],
    "steps": [
        {"id": "kimura-what", "ask": "kimura", "text": _text("何がありましたか？", "What happened?"),
         "reply": _text("「2枚引きました。」", '"He drew two."')},
        {"id": "sato-what", "ask": "sato", "text": _text("何がありましたか？", "What happened?"),
         "reply": _text("「1枚引いたら2枚でした。」", '"I drew one and there were two."')},
        {"id": "hand", "check": "hand", "text": _text("手札を数える。", "Count the hand."),
         "reply": _text("手札は5枚、2枚は別に持たれている。", "Five in hand, the two held apart."),
         "shows": ["identifiable"]},
        {"id": "sleeves", "check": "sleeves", "after": ["hand"], "text": _text("スリーブを見る。", "Look at the sleeves."),
         "reply": _text("2枚は汚れで貼りついている。", "The two are stuck together by a stain."),
         "shows": ["intentional"]},
        {"id": "takada-saw", "ask": "takada", "text": _text("見ていたことは？", "What did you see?"),
         "reply": _text("「すぐ手を止めました。」", '"He stopped at once."'), "shows": ["intentional"]},
        {"id": "sato-leading", "ask": "sato", "leading": True,
         "text": _text("わざとじゃないですよね？", "Not on purpose, right?"),
         "reply": _text("「もちろんです。」", '"Of course."'), "shows": ["intentional"]},
        {"id": "clock", "check": "clock", "text": _text("時計を見る。", "Look at the clock."),
         "reply": _text("残り30分。", "30 minutes left.")},
    ],
    "infraction": "extra_draw",
    "facts": {"intentional": False, "identifiable": True},
    "findings": {
        "intentional": {"evidence": _text("汚れで貼りつき、観戦者も見ていた。", "Stuck by a stain; the spectator saw it.")},
        "identifiable": {"evidence": _text("2枚は別に持たれていた。", "The two were held apart.")},
    },
    "expect": {"penalty": "warning", "fixes": ["return_extra_to_top"]},
    "source": _text("- 故意ではなく、過剰にカードを引いた", "Drew too many cards, not on purpose"),
}


def floor_call(**changes: Any) -> dict[str, Any]:
    """A deep copy of ``FLOOR_CALL`` with top-level ``changes``."""
    card = copy.deepcopy(FLOOR_CALL)
    card.update(changes)
    return card


def floor_call_yaml(*cards: dict[str, Any]) -> str:
    """A card file holding ``cards`` (``FLOOR_CALL`` when none)."""
    return yaml.safe_dump({"cards": list(cards) or [FLOOR_CALL]}, allow_unicode=True, sort_keys=False)
