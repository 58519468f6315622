"""Folds drawn only once opened: an expander whose content is sent to the browser when the
reader opens it, not on every run that shows it closed.

Opening or closing one reruns the page (or the fragment it stands in), which then draws its
content; under load every element is server time, and most answers' folds are never opened.
The fold of an answer is keyed by the answer (``answer_key``), so the next answer's is closed.
"""

from __future__ import annotations

import streamlit as st

from quiz.model.attempt import AttemptRecord
from quiz.model.cards import AnyCard
from quiz.ui.streamlit_internals.objects import Container


def answer_key(card: AnyCard, record: AttemptRecord) -> str:
    """A key for what is drawn with the answer ``record`` to ``card``, stable across reruns:
    an exam question's is its exam's and card's (its results grade the answer again on every
    run); a practice answer's its trainee's and moment's."""
    if record.exam_id is not None:
        return f"exam-{record.exam_id}-{card.id}"
    return f"{card.id}-{record.trainee_id}-{record.answered_at.timestamp():.6f}"


def open_key(key: str) -> str:
    """The session-state key of the fold ``key``: whether it is open."""
    return f"{key}-open"


def fold(label: str, key: str, icon: str | None = None) -> Container | None:
    """A closed expander labelled ``label``; the container to draw its content into once it is
    open, None while it is closed (draw nothing into it then)."""
    box = st.expander(label, icon=icon, key=open_key(key), on_change="rerun")
    return box if box.open else None
