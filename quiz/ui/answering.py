"""Answering one card on a page: the form, the grade saved at once, and the feedback."""

from __future__ import annotations

import time
from typing import Callable

import streamlit as st

from quiz.db.submissions import submit_answer
from quiz.model.cards import AnyCard, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.rules.variants import CardShowing
from quiz.training.answering import KnowledgeOutcome, Outcome, ScenarioOutcome, blank_answer
from quiz.training.grading import ScenarioAnswer
from quiz.ui import widgets
from quiz.ui.report_problem import report_problem
from quiz.ui.shell import ANSWERS_KEY, Shell, draw_due


def answer_form(
    shell: Shell, card: AnyCard, form_key: str, submit_label: str | None = None
) -> ScenarioAnswer | str | None:
    """The card's answer form; once submitted with every part, what ``quiz.training.answering.answer_card``
    takes: a ``ScenarioAnswer``, or the chosen id of a knowledge card or judgement call."""
    if isinstance(card, ScenarioCard):
        return widgets.scenario_form(shell, card, form_key, submit_label)
    if isinstance(card, JudgementCallCard):
        return widgets.judgement_form(shell, card, form_key, submit_label)
    return widgets.knowledge_form(shell, card, form_key, submit_label)


def answer_card(
    shell: Shell, card: AnyCard, form_key: str, shown_at: float, mode: str,
    showing: CardShowing | None = None,
) -> Outcome | None:
    """Draw the card's answer form; once checked, grade and save the answer and return the outcome.

    ``shown_at`` is the ``time.time()`` the card appeared, for the seconds taken; ``showing``
    the values a variant card was shown with (they decide its verdict). The attempt and the
    card's review schedule are written before this returns.
    """
    assert shell.trainee is not None, "answering needs a trainee"
    given = answer_form(shell, card, form_key)
    if given is None and not st.button(shell.t("answer.dont_know"), key=f"{form_key}-dont-know", type="tertiary",
                                       icon=":material/help:", help=shell.t("answer.dont_know_help")):
        return None
    if given is None:  # "I don't know": counted wrong, and the answer shown
        given = blank_answer(card)
    submitted = submit_answer(
        shell.store, shell.content, card, given, shell.trainee.id, time.time() - shown_at, mode=mode, showing=showing
    )
    note_answer(shell)
    return submitted.outcome


def note_answer(shell: Shell) -> None:
    """Count an answer given in this session, and draw the sidebar's due count again, recounted."""
    st.session_state[ANSWERS_KEY] = st.session_state.get(ANSWERS_KEY, 0) + 1
    draw_due(shell)


def card_until_answered(
    shell: Shell, card: AnyCard, state: dict, form_key: str, mode: str, showing: CardShowing | None = None
) -> bool:
    """The card (header, situation) and, until it is answered, its answer form; returns whether
    it was answered in this run.

    ``state`` is the page's card state: ``shown_at`` (the ``time.time()`` the card appeared)
    is read, ``outcome`` is set once the card is answered. The run that checks the answer
    also draws what comes after it: the form's place is emptied and the header gets the
    card's title, so the page needs no second run (``st.rerun``) to show the feedback: under
    load, every run an answer takes is server time.
    """
    header = st.empty()
    widgets.card_body(shell, card, showing)
    answered_now = False
    form_slot = st.empty()  # on every run, answered or not: what follows keeps its place (an open
    if state.get("outcome") is None:  # expander below stays open)
        with form_slot.container():
            outcome = answer_card(shell, card, form_key, state["shown_at"], mode, showing)
        if outcome is not None:
            state["outcome"] = outcome
            answered_now = True
            form_slot.empty()
    with header.container():
        widgets.card_header(shell, card, answered=state.get("outcome") is not None, showing=showing)
    return answered_now


def next_card_button(shell: Shell, key: str, on_click: Callable[[], None]) -> None:
    """The "Next card" button, drawn between the card and its feedback (where the Check
    button was), so it is reached without scrolling past a long explanation; the N key presses it.
    ``on_click`` deals the next card before the run that draws it (one run, not two)."""
    st.button(shell.t("practice.next"), type="primary", key=key, icon=":material/arrow_forward:",
              icon_position="right", shortcut="N", on_click=on_click)


def feedback(shell: Shell, card: AnyCard, outcome: Outcome, answered: bool | None = None) -> None:
    """The marks and explanations of an answered card, as on the practice page; a question
    left unanswered (in an exam, or "I don't know") is said to be so, with the standard answer
    and no marks. ``answered`` defaults to whether anything was chosen."""
    answered = not outcome.record.blank if answered is None else answered
    if isinstance(card, ScenarioCard) and isinstance(outcome, ScenarioOutcome):
        widgets.scenario_feedback(shell, card, outcome, answered)
    elif isinstance(card, JudgementCallCard) and isinstance(outcome, KnowledgeOutcome):
        widgets.judgement_feedback(shell, card, outcome, answered)
    elif isinstance(card, KnowledgeCard) and isinstance(outcome, KnowledgeOutcome):
        widgets.knowledge_feedback(shell, card, outcome, answered)
    report_problem(shell, card, outcome.record)
