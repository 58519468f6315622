"""Practice: one card at a time, answered, checked, stored and explained."""

from __future__ import annotations

import random

import streamlit as st

from quiz.db.submissions import Submission
from quiz.model.attempt import Mode
from quiz.training.kinds import showing_of
from quiz.training.pools import PRACTICE_POOLS, card_pool, pool_choice
from quiz.training.selection import RECENT, RECENT_ANSWERS, next_card
from quiz.ui import answer_flow, assignment_views, card_views, exam_widgets, first_visit, rounds
from quiz.ui import shell as shell_module
from quiz.ui.page_state import PracticeState

POOL_KEY = "practice-pool"  # which cards: a PRACTICE_POOLS id
ROUND_KEY = assignment_views.ROUND_KEY  # card ids of a round started elsewhere (recent mistakes, an assignment)

shell = shell_module.current()
st.title(shell.t("practice.title"), anchor=False)
trainee = shell_module.require_trainee(shell)
exam_widgets.wait_for_closed_book_exam(shell)  # a closed-book exam running: not drawn
assignment_views.my_assignments(shell, trainee)  # first: what a supervisor asked of them
first_visit.ask_first(shell)  # a first visit: which game, how many cards a day

state: PracticeState = st.session_state.setdefault("practice", PracticeState())
round_ids = [cid for cid in st.session_state.get(ROUND_KEY) or [] if cid in shell.content.cards]
if not round_ids:  # which cards: every kind, or floor calls only (PRACTICE_POOLS)
    pool_words = {choice.id: shell.t(choice.words) for choice in PRACTICE_POOLS}
    st.segmented_control(shell.t("practice.pool"), list(pool_words), format_func=pool_words.__getitem__,
                         key=POOL_KEY, default=PRACTICE_POOLS[0].id, label_visibility="collapsed")
pool = round_ids or card_pool(shell.content, shell.rulesets, shell.categories,
                              pool_choice(st.session_state.get(POOL_KEY)).kinds)
if round_ids:
    words, worded = st.session_state.get(assignment_views.ROUND_WORDS_KEY) or ("practice.round", ())
    st.caption(shell.t(words if tuple(round_ids) == worded else "practice.round", count=len(round_ids)))
    if st.button(shell.t("practice.end_round")):
        st.session_state.pop(ROUND_KEY, None)
        state.queue = []
        state.go_on()
        st.rerun()
if not pool:
    st.warning(shell.t("practice.empty_pool"))
    st.stop()


def deal_next() -> None:
    """The next card of the queue; a new deal, weighed by the trainee's results, when it is
    empty (which also tells which cards the trainee never answered)."""
    new_deal = not state.queue
    results = shell.store.card_results(trainee.id, last=RECENT, newest=RECENT_ANSWERS) if new_deal else {}
    card_id, state.queue = next_card(state.queue, pool, results, random.Random())
    if new_deal:
        state.answered_cards = set(results)
    state.deal(card_id)


def go_on() -> None:
    """Next card (a callback, before the run that deals and draws it: no second run; the
    database is read in that run, where a failure is shown as such)."""
    if round_ids and not state.queue:  # the round is over: back to the chosen pool
        st.session_state.pop(ROUND_KEY, None)
    state.go_on()


def practice_card() -> Submission | None:
    """The card, its form and, once checked, Next card and the feedback; the answer submitted in this run."""
    if round_ids and ROUND_KEY not in st.session_state:  # the round just ended: the page, for the pool
        st.rerun(scope="app")
    if state.card not in pool and not state.answered:
        deal_next()
    assert state.card is not None, "a pool of cards deals one"
    card = shell.content.cards[state.card]
    showing = showing_of(card, state.seed)
    submitted = answer_flow.card_until_answered(shell, card, state, f"answer-{state.n}", Mode.PRACTICE, showing)
    if submitted is not None:
        rounds.count_towards_goal(shell, trainee)  # the day's goal reached: said (a toast, kept over a rerun)
        if assignment_views.moves_an_assignment(card.id):
            st.rerun(scope="app")  # "your assignments", above the fragment, shows the answer's progress
    if state.outcome is not None:
        answer_flow.next_card_button(shell, f"next-{state.n}", on_click=go_on)  # above the feedback: no scrolling
        card_views.feedback(shell, card, state.outcome)
    return submitted


answer_flow.card_fragment(shell, practice_card)
