"""Review: the trainee's due cards, most overdue first, answered and explained as in practice."""

from __future__ import annotations

import random
import time
from datetime import datetime

import streamlit as st

from quiz.db import reviews as review_store
from quiz.model.attempt import utc_now
from quiz.rules.variants import DEFAULT_SEED, new_seed
from quiz.training import scheduling as review
from quiz.training.answering import card_pool
from quiz.training.kinds import showing_of
from quiz.ui import answering, card_views
from quiz.ui import shell as shell_module

shell = shell_module.current()
st.title(shell.t("review.title"), anchor=False)
if shell.trainee is None:
    st.info(shell.t("practice.need_trainee"))
    st.stop()
pool = card_pool(shell.content, shell.rulesets, shell.categories)
if not pool:
    st.warning(shell.t("practice.empty_pool"))
    st.stop()

blank = {"card": None, "mode": "review", "seed": DEFAULT_SEED, "outcome": None, "shown_at": 0.0, "n": 0,
         "new": False, "trainee": shell.trainee.id}
state = st.session_state.setdefault("review", dict(blank))
if state["trainee"] != shell.trainee.id:  # another trainee: start over
    state.update(blank)
trainee = shell.trainee


def review_card() -> None:
    """The most overdue card (or what to do when none is due), its form, and once checked,
    Next card and the feedback."""
    now = utc_now()
    schedules = review_store.schedules(shell.store, trainee.id)
    due = review.due_first(schedules, pool, now)

    def when(until: datetime) -> str:
        """"in 3 days" and the like, in the page's language."""
        n, unit = review.wait(until, now)
        return shell.t(f"review.in_{unit.removesuffix('s') if n == 1 else unit}", n=n)

    if state["card"] not in pool and state["outcome"] is None:  # nothing dealt yet, or filtered out
        card_id = review.next_card(schedules, pool, now, random.Random() if state["new"] else None)
        state.update(card=card_id, mode="review" if card_id in schedules else "practice", seed=new_seed(),
                     shown_at=time.time(), n=state["n"] + 1)

    st.caption(shell.t("review.intro"))
    if state["card"] is None:
        st.success(shell.t("review.nothing_due"))
        next_due = review.next_due_at(schedules, pool)
        st.info(shell.t("review.next_due", when=when(next_due)) if next_due else shell.t("review.none_scheduled"))
        fresh = review.new_cards(schedules, pool)
        if fresh:
            st.button(shell.t("review.practise_new", n=len(fresh)), type="primary", on_click=state.update,
                      kwargs={"new": True})
        else:
            st.caption(shell.t("review.all_seen"))
        st.button(shell.t("review.check_again"))
        return

    card = shell.content.cards[state["card"]]
    # a variant card draws its values from the seed dealt with it: the same showing on every rerun
    showing = showing_of(card, state["seed"])
    count = st.empty()  # drawn after the answer: an answered card is no longer due
    if answering.card_until_answered(shell, card, state, f"review-{state['n']}", state["mode"], showing):
        schedules = review_store.schedules(shell.store, trainee.id)
        due = review.due_first(schedules, pool, now)
    if state["mode"] == "review":
        count.caption(shell.t("review.due_now", n=len(due)))
    else:  # a new card, asked for when nothing was due
        count.caption(shell.t("review.new_card", n=len(review.new_cards(schedules, pool))))

    if state["outcome"] is not None:
        answering.next_card_button(shell, f"review-next-{state['n']}", on_click=go_on)  # above the feedback
        if card.id in schedules:
            st.info(shell.t("review.comes_back", when=when(schedules[card.id].due)), icon=":material/event_repeat:")
        card_views.feedback(shell, card, state["outcome"])


def go_on() -> None:
    """Next card (a callback: the next card is dealt in the run that draws it)."""
    state.update(card=None, outcome=None)


answering.card_fragment(shell, review_card)
