"""Counts on pages agree with their nouns in English."""

from __future__ import annotations

from tests.ui.test_exam import PAGE as EXAM_PAGE
from tests.ui.test_exam import answer_right, start_custom


def test_one_unanswered_question_is_singular(open_app, store):
    at = open_app(page=EXAM_PAGE)
    start_custom(at)
    captions = [c.value for c in at.caption]
    assert "2 questions unanswered; they count as wrong when you hand in." in captions
    answer_right(at, store)
    captions = [c.value for c in at.caption]
    assert "1 question unanswered; it counts as wrong when you hand in." in captions
    assert not any("(s)" in c for c in captions)
