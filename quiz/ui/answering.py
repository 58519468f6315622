"""Answering one card on a page: the form, the grade saved at once, and the feedback."""

from __future__ import annotations

import time

import streamlit as st

from quiz.answers import save_answer
from quiz.card_model import KnowledgeCard, ScenarioCard
from quiz.practice import KnowledgeOutcome, ScenarioOutcome, answer_knowledge, answer_scenario
from quiz.ui import widgets
from quiz.ui.shell import ANSWERS_KEY, Shell
from quiz.variants import CardShowing

Outcome = ScenarioOutcome | KnowledgeOutcome


def answer_card(
    shell: Shell, card: ScenarioCard | KnowledgeCard, form_key: str, shown_at: float, mode: str,
    showing: CardShowing | None = None,
) -> Outcome | None:
    """Draw the card's answer form; once checked, grade and save the answer and return the outcome.

    ``shown_at`` is the ``time.time()`` the card appeared, for the seconds taken; ``showing``
    the values a variant card was shown with (they decide its verdict). The attempt and the
    card's review schedule are written before this returns.
    """
    assert shell.trainee is not None, "answering needs a trainee"
    if isinstance(card, ScenarioCard):
        answer = widgets.scenario_form(shell, card, form_key)
        if answer is None:
            return None
        outcome: Outcome = answer_scenario(
            shell.content, card, answer, shell.trainee.id, time.time() - shown_at, mode=mode, showing=showing
        )
    else:
        chosen = widgets.knowledge_form(shell, card, form_key)
        if chosen is None:
            return None
        outcome = answer_knowledge(card, chosen, shell.trainee.id, time.time() - shown_at, mode=mode)
    save_answer(shell.store, outcome.record)
    note_answer()
    return outcome


def note_answer() -> None:
    """Count an answer given in this session (the sidebar's due count is recounted after it)."""
    st.session_state[ANSWERS_KEY] = st.session_state.get(ANSWERS_KEY, 0) + 1


def feedback(shell: Shell, card: ScenarioCard | KnowledgeCard, outcome: Outcome) -> None:
    """The marks and explanations of an answered card, as on the practice page."""
    if isinstance(card, ScenarioCard) and isinstance(outcome, ScenarioOutcome):
        widgets.scenario_feedback(shell, card, outcome)
    elif isinstance(card, KnowledgeCard) and isinstance(outcome, KnowledgeOutcome):
        widgets.knowledge_feedback(shell, card, outcome)
