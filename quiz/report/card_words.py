"""The report stage's dispatch over card kinds: what a stored choice names, in words, with a
``match`` that ``assert_never`` keeps exhaustive (``quiz.model.cards.CARD_KINDS``)."""

from __future__ import annotations

from typing import assert_never

from quiz.content.loader import Content
from quiz.model.cards import NO_LISTED_INFRACTION, FloorCallCard, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.words import t


def choice_words(content: Content, card_id: str, choice_id: object, language: str) -> str | None:
    """A knowledge card's chosen answer, or a judgement call's chosen nearest line (or "no line
    comes near"), in ``language``; None for a scenario card (it stores no choice), a card no
    longer shipped, or a choice it does not offer."""
    card = content.cards.get(card_id)
    match card:
        case KnowledgeCard():
            return next((c.text.get(language) for c in card.choices if c.id == choice_id), None)
        case JudgementCallCard():
            if choice_id == NO_LISTED_INFRACTION:
                return t("answer.no_listed_infraction", language)
            infraction = content.rulesets[card.ruleset].infraction(str(choice_id))
            return infraction.name.get(language) if infraction is not None else None
        case ScenarioCard() | FloorCallCard() | None:
            return None
        case _:
            assert_never(card)
