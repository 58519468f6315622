"""quiz.ui.folds: a fold sends its content only while it is open, and its key is the answer's."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from streamlit.testing.v1 import AppTest

from quiz.model.attempt import AttemptRecord
from quiz.ui.feedback_views import details_key
from quiz.ui.folds import answer_key, open_key
from quiz.ui.report_problem import report_key
from tests.shipped_content import shipped_content


def _page() -> None:
    import streamlit as st

    from quiz.ui.folds import fold

    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    box = fold("Details", "answer-1", icon=":material/menu_book:")
    st.session_state["open"] = box is not None
    if box is not None:
        with box:
            st.markdown("The long part")
    st.markdown("After the fold")


def test_a_fold_draws_its_content_only_while_open() -> None:
    at = AppTest.from_function(_page).run()
    [fold] = at.expander
    assert (fold.label, fold.icon, fold.proto.expanded) == ("Details", ":material/menu_book:", False)
    assert not fold.children and at.session_state["open"] is False
    assert [m.value for m in at.markdown] == ["After the fold"]  # what follows it is drawn still

    at.session_state[open_key("answer-1")] = True  # as tapping it does: a run with it open
    at.run()
    [fold] = at.expander
    assert fold.proto.expanded is True and at.session_state["open"] is True
    assert [m.value for m in fold.markdown] == ["The long part"]

    at.session_state[open_key("answer-1")] = False  # closed again: nothing sent
    at.run()
    assert not at.expander[0].children and [m.value for m in at.markdown] == ["After the fold"]


def test_an_answers_folds_have_keys_of_their_own_that_follow_the_answer() -> None:
    card = next(iter(shipped_content().cards.values()))
    practice = AttemptRecord(trainee_id=1, card_id=card.id, ruleset=card.ruleset, category=None,
                             card_kind="scenario", mode="practice", correct=False, seconds=1.0)
    later = dataclasses.replace(practice, answered_at=practice.answered_at + timedelta(seconds=3))
    assert answer_key(card, practice) != answer_key(card, later)  # the next answer's fold starts closed
    in_exam = dataclasses.replace(practice, mode="exam", exam_id=7)  # results grade it again on every run
    assert answer_key(card, in_exam) == answer_key(card, dataclasses.replace(later, mode="exam", exam_id=7))
    assert details_key(card, practice) != report_key(card, practice)  # the details and the report form: two folds
