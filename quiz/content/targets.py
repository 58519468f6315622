"""The shipped content's targets: enough scenario cards, most of them asking findings, every
infraction taught through several distinct stories; and per game, enough floor calls, most
of them weighing accounts that disagree, each a story of its own.

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
from quiz.model.cards import RulingCard
from quiz.model.words import Wording

MIN_SCENARIO_CARDS = 260
MIN_FLOOR_SHARE = 0.6
MIN_STORIES = 5
MIN_FLOOR_CALLS = 24  # per game
MIN_CONFLICT_SHARE = 0.4  # of a game's floor calls: two replies disagree on a finding
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
    by_infraction: dict[tuple[str, str], list[RulingCard]] = defaultdict(list)
    for card in cards:
        by_infraction[(card.ruleset, card.infraction)].append(card)
    for ruleset in content.rulesets.values():
        for infraction in ruleset.infractions:
            count = distinct_stories(by_infraction[(ruleset.id, infraction.id)])
            targets.append(Target(Wording("problem.target.stories", ruleset=ruleset.id, infraction=infraction.id,
                                          count=count, needed=MIN_STORIES), count >= MIN_STORIES))
    return targets + floor_call_targets(content)


def floor_call_targets(content: Content) -> list[Target]:
    """Per game: at least ``MIN_FLOOR_CALLS`` floor calls, ``MIN_CONFLICT_SHARE`` of them with
    replies that disagree on a finding, and no two the same story (names swapped)."""
    targets = []
    for ruleset in content.rulesets.values():
        calls = [call for call in content.floor_calls if call.ruleset == ruleset.id and not call.retired]
        disagreeing = sum(1 for call in calls if call.accounts_disagree)
        share = disagreeing / len(calls) if calls else 0.0
        stories = distinct_stories(list(calls))
        targets += [
            Target(Wording("problem.target.floor_calls", ruleset=ruleset.id, count=len(calls), needed=MIN_FLOOR_CALLS),
                   len(calls) >= MIN_FLOOR_CALLS),
            Target(Wording("problem.target.floor_call_conflicts", ruleset=ruleset.id, share=round(100 * share),
                           needed=round(100 * MIN_CONFLICT_SHARE)), share >= MIN_CONFLICT_SHARE),
            Target(Wording("problem.target.floor_call_stories", ruleset=ruleset.id, count=stories, calls=len(calls)),
                   stories == len(calls)),
        ]
    return targets


def distinct_stories(cards: list[RulingCard]) -> int:
    """How many of ``cards`` tell a story no earlier card of the list already told."""
    told: list[list[str]] = []
    for card in cards:
        words = _WORD.findall(card.situation.en.lower())
        if not any(SequenceMatcher(None, words, other, autojunk=False).ratio() >= SAME_STORY for other in told):
            told.append(words)
    return len(told)
