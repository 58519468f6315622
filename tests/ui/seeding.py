"""Answers written straight through save_answer, so page tests start from a known history."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from quiz.content.loader import Content
from quiz.db.answers import save_answer
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.model.cards import NO_LISTED_INFRACTION, AnyCard, JudgementCallCard, KnowledgeCard
from quiz.training.answer_outcomes import verdict_for
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from tests.ui.answering import right_answer


def attempt(content: Content, trainee_id: int, card: AnyCard, correct: bool, when: datetime) -> AttemptRecord:
    """The record of answering ``card`` right (or with a wrong choice or penalty) at ``when``."""
    given = right_answer(content, card)
    if not correct and isinstance(card, KnowledgeCard):
        given = next(c.id for c in card.choices if c.id != card.answer)
    elif not correct and isinstance(card, JudgementCallCard):
        given = NO_LISTED_INFRACTION if card.nearest else content.rulesets[card.ruleset].infractions[0].id
    elif not correct:
        assert isinstance(given, ScenarioAnswer)
        ladder = content.rulesets[card.ruleset].ladder
        accepted = verdict_for(content, card).accepted  # type: ignore[arg-type]
        given = ScenarioAnswer(given.infraction, next(p.id for p in ladder if p.id not in accepted), given.fixes,
                               given.players)
    return replace(answer_card(content, GivenAnswer(card, given, trainee_id, 5.0)).record, answered_at=when)


def seed(store: Store, content: Content, trainee_id: int, card: AnyCard, correct: bool,
         when: datetime) -> None:
    """Answer ``card`` at ``when`` as the app does: the attempt and its schedule."""
    save_answer(store, attempt(content, trainee_id, card, correct, when))
