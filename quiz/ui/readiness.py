"""The readiness section: per category, the predicted chance of a right answer today."""

from __future__ import annotations

import streamlit as st

from quiz.content.categories import category_keys, category_labels
from quiz.db import reviews as review_store
from quiz.db.store import Trainee
from quiz.model.attempt import utc_now
from quiz.report import charts
from quiz.training import scheduling as review
from quiz.training.pools import card_pool
from quiz.ui.shell import Shell


def render_readiness(shell: Shell, trainee: Trainee) -> None:
    """Readiness of ``trainee`` in the sidebar's games; nothing when no card of them was answered."""
    keys = category_keys(shell.content)
    counted = {card: keys[card] for card in card_pool(shell.content, shell.rulesets)}
    table = review.readiness(review_store.schedules(shell.store, trainee.id), counted, utc_now())
    if table.empty:
        return
    names = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
    table["category_key"] = table["category_key"].map(lambda key: names.get(key, key))
    labels = {"readiness": shell.t("review.chart_readiness"), "cards": shell.t("review.chart_cards")}
    st.subheader(shell.t("review.readiness"), anchor=False)
    st.caption(shell.t("review.readiness_help"))
    st.altair_chart(charts.readiness_bars(table, "category_key", labels), width="stretch")
