"""quiz.ui.stale_widgets: a long practice session keeps no widget of the cards it left."""

from __future__ import annotations

import pytest

from quiz.content.loader import load_content
from quiz.model.cards import ScenarioCard
from quiz.ui import stale_widgets
from tests.ui import answering

CONTENT = load_content()


def _widget_metadata(at) -> dict:
    """What Streamlit keeps of each widget of the session, by widget id."""
    return at._session_state._state._new_widget_state.widget_metadata


def _answer_and_go_on(at) -> None:
    card = CONTENT.cards[at.session_state["practice"]["card"]]
    answering.fill(at, card, answering.right_answer(CONTENT, card, answering.practice_showing(at, card)))
    assert not at.exception, at.exception
    next(b for b in at.button if b.label == "Next card").click().run()
    assert not at.exception, at.exception


def _kept_after(open_app, cards: int) -> tuple[int, int]:
    at = open_app()
    answering.deal_until(at, CONTENT, ScenarioCard)
    for _ in range(3):
        _answer_and_go_on(at)
    after_three = len(_widget_metadata(at))
    for _ in range(cards - 3):
        _answer_and_go_on(at)
    return after_three, len(_widget_metadata(at))


def test_the_widgets_of_cards_answered_before_are_forgotten(open_app) -> None:
    after_three, after_twelve = _kept_after(open_app, 12)
    assert after_twelve <= after_three + 2  # the page's own, not seven more per card


def test_without_it_streamlit_keeps_every_cards_widgets(open_app, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost this module removes (if Streamlit stops keeping them, this fails: drop the module)."""
    monkeypatch.setattr("quiz.ui.answering.forget_stale_widgets", lambda: 0)  # the one caller's name
    after_three, after_twelve = _kept_after(open_app, 12)
    assert after_twelve >= after_three + 9 * 4


def test_outside_a_run_nothing_is_forgotten() -> None:
    assert stale_widgets.forget_stale_widgets() == 0
