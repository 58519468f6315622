"""Practice: one card at a time, answered, checked, stored and explained."""

from __future__ import annotations

import random
import time

import streamlit as st

from quiz.rules.variants import DEFAULT_SEED, new_seed
from quiz.training.answering import card_pool
from quiz.training.kinds import showing_of
from quiz.training.selection import RECENT, RECENT_ANSWERS, next_card
from quiz.ui import answering, card_views
from quiz.ui import shell as shell_module

ROUND_KEY = "practice_round"  # card ids of a round started elsewhere (e.g. recent mistakes)

shell = shell_module.current()
st.title(shell.t("practice.title"), anchor=False)
if shell.trainee is None:
    st.info(shell.t("practice.need_trainee"))
    st.stop()
trainee = shell.trainee

state = st.session_state.setdefault("practice", {"queue": [], "card": None, "outcome": None, "shown_at": 0.0, "n": 0})
round_ids = [cid for cid in st.session_state.get(ROUND_KEY) or [] if cid in shell.content.cards]
pool = round_ids or card_pool(shell.content, shell.rulesets, shell.categories)
if round_ids:
    st.caption(shell.t("practice.round", count=len(round_ids)))
    if st.button(shell.t("practice.end_round")):
        st.session_state.pop(ROUND_KEY, None)
        state.update(queue=[], card=None, outcome=None)
        st.rerun()
if not pool:
    st.warning(shell.t("practice.empty_pool"))
    st.stop()


def deal_next() -> None:
    results = shell.store.card_results(trainee.id, last=RECENT, newest=RECENT_ANSWERS) if not state["queue"] else {}
    card_id, state["queue"] = next_card(state["queue"], pool, results, random.Random())
    state.update(card=card_id, seed=new_seed(), outcome=None, shown_at=time.time(), n=state["n"] + 1)


def go_on() -> None:
    """Next card (a callback, before the run that deals and draws it: no second run; the
    database is read in that run, where a failure is shown as such)."""
    if round_ids and not state["queue"]:  # the round is over: back to the chosen pool
        st.session_state.pop(ROUND_KEY, None)
        state.update(queue=[])
    state.update(card=None, outcome=None)


def practice_card() -> None:
    """The card, its form and, once checked, Next card and the feedback."""
    if round_ids and ROUND_KEY not in st.session_state:  # the round just ended: the page, for the pool
        st.rerun(scope="app")
    if state["card"] not in pool and state["outcome"] is None:
        deal_next()
    card = shell.content.cards[state["card"]]
    # a variant card draws its values from the seed kept with it: the same showing on every rerun
    showing = showing_of(card, state.get("seed", DEFAULT_SEED))
    answering.card_until_answered(shell, card, state, f"answer-{state['n']}", "practice", showing)
    if state["outcome"] is not None:
        answering.next_card_button(shell, f"next-{state['n']}", on_click=go_on)  # above the feedback: no scrolling
        card_views.feedback(shell, card, state["outcome"])


answering.card_fragment(shell, practice_card)
