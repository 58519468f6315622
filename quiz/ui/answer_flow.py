"""An answer's way on a page, from the click on its form to the store: the card and its form,
the answer given (``form_answers``) graded and saved at once with the click's PIN check, in
the card's fragment; and the buttons around it ("I don't know", Next card)."""

from __future__ import annotations

import time
from typing import Callable

import streamlit as st

from quiz.db.exams import closed_book_deadline
from quiz.db.submissions import Submission, submit_answer
from quiz.model.attempt import Mode, utc_now
from quiz.model.cards import AnyCard
from quiz.model.errors import CredentialChangedError
from quiz.rules.variants import CardShowing
from quiz.training.given_answer import GivenAnswer
from quiz.training.kinds import blank_answer
from quiz.ui import form_answers, widgets
from quiz.ui.card_views import answer_form
from quiz.ui.errors import database_guard
from quiz.ui.investigation_view import steps_key
from quiz.ui.next_bar import NEXT_BAR_KEY
from quiz.ui.page_state import CardState
from quiz.ui.scroll import to_top_when_new
from quiz.ui.shell import Shell, count_answer, draw_due
from quiz.ui.streamlit_internals.fragments import running_alone
from quiz.ui.streamlit_internals.stale_widgets import forget_stale_widgets
from quiz.ui.trainee_session import answer_guard, still_signed_in


def dont_know_button(shell: Shell, card: AnyCard, form_key: str) -> None:
    """ "I don't know": a blank answer given to the form, counted wrong, and the answer shown
    (with a floor call's steps taken so far, the form's steps part)."""
    st.button(shell.t("answer.dont_know"), key=f"{form_key}-dont-know", type="tertiary", icon=":material/help:",
              help=shell.t("answer.dont_know_help"), on_click=_give_blank, args=(card, form_key))


def _give_blank(card: AnyCard, form_key: str) -> None:
    form_answers.give(form_key, blank_answer(card, st.session_state.get(steps_key(form_key))))


def card_until_answered(
    shell: Shell, card: AnyCard, state: CardState, form_key: str, mode: Mode, showing: CardShowing | None = None
) -> Submission | None:
    """The card (header, situation) and, until it is answered, its answer form; returns the
    answer submitted in this run, if any.

    ``state.outcome`` is set once the answer is graded and saved, before anything is drawn.
    The run that checks the answer draws the answered card (its title shown, no form), so
    the page needs no second run and no placeholder for the feedback: under load, every run
    and every element an answer takes is server time.
    """
    assert shell.trainee is not None, "answering needs a trainee"
    taken = form_answers.take_given(form_key) if not state.answered else None
    submitted = None
    if taken is not None:  # graded and saved before anything is drawn: the page is drawn once
        submitted = store_given(shell, GivenAnswer(
            card, taken.chosen, shell.trainee.id, time.time() - state.shown_at, mode, showing=showing,
            never_answered=state.never_answered(card.id)))
        state.took_answer(card.id)
        count_answer(shell, card.id, submitted.next_due)
        state.outcome = submitted.outcome
    if state.to_top:  # dealt by Next card: from its top, not where the feedback ended (this run only)
        to_top_when_new("card", form_key)
        state.to_top = False
    widgets.card_header(shell, card, answered=state.answered, showing=showing)
    widgets.card_body(shell, card, showing)
    form_place = st.container()  # on every run, answered or not: what follows keeps its place
    if not state.answered:  # (an open expander below stays open)
        with form_place:
            answer_form(shell, card, form_key)
            dont_know_button(shell, card, form_key)
    return submitted


def store_given(shell: Shell, given: GivenAnswer) -> Submission:
    """Grade and store the answer this run was given, with the click's PIN check made in the
    transaction that stores it (``trainee_session.answer_guard``; ``Submission.guarded`` says whether
    it was, for ``card_fragment``)."""
    return submit_answer(shell.store, shell.content, given, guard=answer_guard(shell.store))


def card_fragment(shell: Shell, body: Callable[[], Submission | None], study_page: bool = True) -> None:
    """Run ``body`` (a page's card, its answer form and feedback; it returns the answer it
    submitted, if any) as a Streamlit fragment:
    Check and Next card then run only it again, not the sidebar and the page around it
    (under load, the rest of the app was a third of each click's server time).

    The mock exam's question (Save, Next, the navigator) runs in one too. (With a
    countdown fragment inside it that reran every second, a Save was taken as if nothing
    was chosen under load; the countdown now runs in the browser, ``exam_clock``, drawn with
    the page above the question, and its fragment runs alone only at the deadline.)

    A fragment's own run does not pass through ``app.py``, so it does here what the app does
    around a full run: the database guard, and the check that the trainee's PIN still holds
    (else the whole app runs, and signs the trainee out); a full run, which draws the card on
    its way, had that check from ``app.py``'s sidebar already. A click that gives an answer has
    that check made in the transaction that stores the answer (``trainee_session.answer_guard``): one
    connection less per answer, and no answer stored once the PIN change is known (on
    PostgreSQL the check reads the version the server keeps until a notice says it changed).
    It ends with the sidebar's due count drawn in its place from here (a fragment may write
    to a place outside it only if it wrote there in the full run before).

    On a ``study_page`` (Practice, Review) a fragment's own run first asks whether the
    trainee's closed-book exam started meanwhile (in another tab or on another device); if so
    the whole page runs, and waits for the exam (``exam_widgets.wait_for_closed_book_exam``)
    instead of grading or dealing. On PostgreSQL the answer is kept in memory until an exam
    starts or closes (``exams.closed_book_deadline``): no query per click.
    """

    @st.fragment
    def card_area() -> None:
        forget_stale_widgets()  # the cards before this one: their widgets' metadata
        alone = running_alone()  # else a full run: app.py checked the PIN in this run already
        with database_guard(retry=form_answers.give_again):
            answer_given = form_answers.answer_pending()  # its PIN check is made where it is stored
            if alone and study_page and _closed_book_exam_runs(shell):
                st.rerun(scope="app")
            if alone and not answer_given and not still_signed_in(shell.store):
                st.rerun(scope="app")
            try:
                submitted = body()
            except CredentialChangedError:
                st.rerun(scope="app")
            # an answer given to a form no longer shown is dropped unstored: checked here instead
            checked = submitted is not None and submitted.guarded
            if answer_given and not checked and not still_signed_in(shell.store):
                st.rerun(scope="app")
            draw_due(shell)

    card_area()


def _closed_book_exam_runs(shell: Shell) -> bool:
    trainee = shell.trainee
    return trainee is not None and closed_book_deadline(shell.store, trainee.id, utc_now()) is not None


def next_card_button(shell: Shell, key: str, on_click: Callable[[], None]) -> None:
    """The "Next card" button, drawn between the card and its feedback (where the Check
    button was); the N key presses it. It stays in view while the feedback below is read
    (``quiz.ui.next_bar``: sticky under the page's header), so a phone's reader, ~2 screens
    down, never scrolls back up for it. ``on_click`` deals the next card before the run that
    draws it (one run, not two)."""
    with st.container(key=NEXT_BAR_KEY, width="content"):
        st.button(shell.t("practice.next"), type="primary", key=key, icon=":material/arrow_forward:",
                  icon_position="right", shortcut="N", on_click=on_click)


