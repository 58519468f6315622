"""The shipped content's targets (issue 26): enough scenario cards, most of them asking
findings, and every infraction taught through several distinct stories.

A story is distinct when its situation is not a near copy of another card's of the same
infraction: two situations whose English words match for ``SAME_STORY`` or more of their
length (difflib's ratio) are one story told twice, for example with the names swapped. A
variant card is one card, so it counts once whatever it draws.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher

from quiz.content.loader import Content
from quiz.model.cards import ScenarioCard
from quiz.model.words import Wording

MIN_SCENARIO_CARDS = 260
MIN_FLOOR_SHARE = 0.6
MIN_STORIES = 5
SAME_STORY = 0.7
_WORD = re.compile(r"[A-Za-z]+|\d+")


@dataclass(frozen=True, slots=True)
class Target:
    wording: Wording
    met: bool

    def line(self) -> str:
        return f"{'ok ' if self.met else 'NOT'}  {self.wording.say('en')}"


def content_targets(content: Content) -> list[Target]:
    """Every target, met or not, in a fixed order."""
    cards = [card for card in content.scenario_cards if not card.retired]
    floor = sum(1 for card in cards if card.findings)
    share = floor / len(cards) if cards else 0.0
    targets = [
        Target(Wording("problem.target.scenario_cards", count=len(cards), needed=MIN_SCENARIO_CARDS),
               len(cards) >= MIN_SCENARIO_CARDS),
        Target(Wording("problem.target.floor_share", share=round(100 * share), needed=round(100 * MIN_FLOOR_SHARE)),
               share >= MIN_FLOOR_SHARE),
    ]
    by_infraction: dict[tuple[str, str], list[ScenarioCard]] = defaultdict(list)
    for card in cards:
        by_infraction[(card.ruleset, card.infraction)].append(card)
    for ruleset in content.rulesets.values():
        for infraction in ruleset.infractions:
            count = distinct_stories(by_infraction[(ruleset.id, infraction.id)])
            targets.append(Target(Wording("problem.target.stories", ruleset=ruleset.id, infraction=infraction.id,
                                          count=count, needed=MIN_STORIES), count >= MIN_STORIES))
    return targets


def distinct_stories(cards: list[ScenarioCard]) -> int:
    """How many of ``cards`` tell a story no earlier card of the list already told."""
    told: list[list[str]] = []
    for card in cards:
        words = _WORD.findall(card.situation.en.lower())
        if not any(SequenceMatcher(None, words, other, autojunk=False).ratio() >= SAME_STORY for other in told):
            told.append(words)
    return len(told)
