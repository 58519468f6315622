"""The answer a card's form gave, handed from its submit button's callback to the run the
click starts: the callback reads the form before the run (``widgets.check_button``), so the
run that grades the answer need not draw the form again (under load, every element is server
time)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from quiz.training.given_answer import CardAnswer

GIVEN_KEY = "given_answer"  # the FormAnswer a click gave, for the run it started
TAKEN_KEY = "taken_answer"  # the same, once a run took it: given again by "Try again" (give_again)


@dataclass(frozen=True, slots=True)
class FormAnswer:
    """What the answer form ``form_key`` gave: ``chosen`` is None for a blank answer ("I don't know")."""

    form_key: str
    chosen: CardAnswer


def give(form_key: str, chosen: CardAnswer) -> None:
    """Keep ``chosen`` as given to the form ``form_key``, for the run that follows (a callback)."""
    st.session_state[GIVEN_KEY] = FormAnswer(form_key, chosen)


def give_again() -> None:
    """Give the answer this session took last once more (a callback: "Try again" after the
    database failed to save it); its run grades and saves it as if the form were sent again."""
    taken = st.session_state.pop(TAKEN_KEY, None)
    if isinstance(taken, FormAnswer):
        st.session_state[GIVEN_KEY] = taken


def answer_pending() -> bool:
    """Whether a click has given an answer that its run has yet to take (``take_given``)."""
    return GIVEN_KEY in st.session_state


def drop_given() -> None:
    """Forget an answer given and not yet taken: its page will not grade it (a closed-book
    exam started meanwhile; ``exam_widgets.wait_for_closed_book_exam``)."""
    st.session_state.pop(GIVEN_KEY, None)


def take_given(form_key: str) -> FormAnswer | None:
    """The answer given to the form ``form_key`` by the click that started this run, once.

    One answer is pending at most: taking drops one given to another form (a page left before
    its run could take it). The answer taken is kept aside until the next is given, so that
    one whose saving failed can be given again (``give_again``)."""
    pending = st.session_state.pop(GIVEN_KEY, None)
    st.session_state[TAKEN_KEY] = pending
    return pending if isinstance(pending, FormAnswer) and pending.form_key == form_key else None
