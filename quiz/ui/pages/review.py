"""Review: the trainee's due cards, most overdue first, answered and explained as in practice;
when a card is due follows its game's exam date, if the trainee set one."""

from __future__ import annotations

import random
from datetime import datetime

import streamlit as st

from quiz.db import reviews as review_store
from quiz.db.submissions import Submission
from quiz.model.attempt import Mode, utc_now
from quiz.training import scheduling as review
from quiz.training.exam_dates import card_games
from quiz.training.kinds import showing_of
from quiz.training.pools import card_pool
from quiz.ui import answer_flow, card_views, exam_widgets
from quiz.ui import shell as shell_module
from quiz.ui.page_state import ReviewState

shell = shell_module.current()
st.title(shell.t("review.title"), anchor=False)
trainee = shell_module.require_trainee(shell)
exam_widgets.wait_for_closed_book_exam(shell)  # a closed-book exam running: not drawn
pool = card_pool(shell.content, shell.rulesets, shell.categories)
if not pool:
    st.warning(shell.t("practice.empty_pool"))
    st.stop()

state: ReviewState = st.session_state.setdefault("review", ReviewState(trainee=trainee.id))
if state.trainee != trainee.id:  # another trainee: start over
    state = st.session_state["review"] = ReviewState(trainee=trainee.id)


def review_card() -> Submission | None:
    """The most overdue card (or what to do when none is due), its form, and once checked,
    Next card and the feedback; the answer submitted in this run."""
    now = utc_now()
    schedules = review_store.planned_schedules(shell.store, trainee.id, card_games(shell.content), now)
    due = review.due_first(schedules, pool, now)

    def when(until: datetime) -> str:
        """"in 3 days" and the like, in the page's language."""
        n, unit = review.wait(until, now)
        return shell.t(f"review.in_{unit.removesuffix('s') if n == 1 else unit}", n=n)

    if state.card not in pool and not state.answered:  # nothing dealt yet, or filtered out
        state.deal(review.next_card(schedules, pool, now, random.Random() if state.new else None))
        state.mode = Mode.REVIEW if state.card in schedules else Mode.PRACTICE

    st.caption(shell.t("review.intro"))
    if state.card is None:
        st.success(shell.t("review.nothing_due"))
        next_due = review.next_due_at(schedules, pool)
        st.info(shell.t("review.next_due", when=when(next_due)) if next_due else shell.t("review.none_scheduled"))
        fresh = review.new_cards(schedules, pool)
        if fresh:
            st.button(shell.t("review.practise_new", n=len(fresh)), type="primary", on_click=state.ask_for_new)
        else:
            st.caption(shell.t("review.all_seen"))
        st.button(shell.t("review.check_again"))
        return None

    card = shell.content.cards[state.card]
    showing = showing_of(card, state.seed)
    count = st.empty()  # drawn after the answer: an answered card is no longer due
    submitted = answer_flow.card_until_answered(shell, card, state, f"review-{state.n}", state.mode, showing)
    if submitted is not None:
        schedules = review_store.planned_schedules(shell.store, trainee.id, card_games(shell.content), now)
        due = review.due_first(schedules, pool, now)
    if state.mode is Mode.REVIEW:
        count.caption(shell.t("review.due_now", n=len(due)))
    else:  # a new card, asked for when nothing was due
        count.caption(shell.t("review.new_card", n=len(review.new_cards(schedules, pool))))

    if state.outcome is not None:
        answer_flow.next_card_button(shell, f"review-next-{state.n}", on_click=state.go_on)  # above the feedback
        if card.id in schedules:
            st.info(shell.t("review.comes_back", when=when(schedules[card.id].due)), icon=":material/event_repeat:")
        card_views.feedback(shell, card, state.outcome)
    return submitted


answer_flow.card_fragment(shell, review_card)
