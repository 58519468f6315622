"""Answers written straight through save_answer, so page tests start from a known history."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from quiz.answers import save_answer
from quiz.attempt import AttemptRecord
from quiz.card_model import KnowledgeCard, ScenarioCard
from quiz.grading import ScenarioAnswer
from quiz.loader import Content
from quiz.practice import answer_knowledge, answer_scenario, verdict_for
from quiz.store import Store


def attempt(content: Content, trainee_id: int, card: ScenarioCard | KnowledgeCard, correct: bool,
            when: datetime) -> AttemptRecord:
    """The record of answering ``card`` right (or with a wrong choice or penalty) at ``when``."""
    if isinstance(card, KnowledgeCard):
        wrong = next(c.id for c in card.choices if c.id != card.answer)
        record = answer_knowledge(card, card.answer if correct else wrong, trainee_id, 5.0).record
    else:
        verdict = verdict_for(content, card)
        ladder = content.rulesets[card.ruleset].ladder
        penalty = verdict.penalty if correct else next(p.id for p in ladder if p.id not in verdict.accepted)
        answer = ScenarioAnswer(infraction=verdict.infraction, penalty=penalty, fixes=verdict.fixes)
        record = answer_scenario(content, card, answer, trainee_id, 5.0).record
    return replace(record, answered_at=when)


def seed(store: Store, content: Content, trainee_id: int, card: ScenarioCard | KnowledgeCard, correct: bool,
         when: datetime) -> None:
    """Answer ``card`` at ``when`` as the app does: the attempt and its schedule."""
    save_answer(store, attempt(content, trainee_id, card, correct, when))
