"""quiz.ui.streamlit_internals.stale_widgets: a long practice session keeps no widget of the cards it left.

The first test fails when Streamlit changes under the module (a private attribute it reaches
gone; another version than the one written for fails test_version.py): then it does nothing,
and an upgrade has to look there again.
"""

from __future__ import annotations

import re

import pytest

from quiz.model.cards import ScenarioCard
from quiz.ui.streamlit_internals import stale_widgets, version
from tests.shipped_content import shipped_content
from tests.ui import answering

CONTENT = shipped_content()
ANSWERS = 12
CARD_NUMBER = re.compile(r"-(?:answer|next)-(\d+)(?:-|$)")  # a card's form and Next button: keyed by its number
FOLDS = re.compile(r"-(?:report|details)-.*-open$")  # the feedback's folds (details, "report a problem"): keyed by the answer


def test_written_for_the_pinned_streamlit() -> None:
    assert stale_widgets.check_internals() == []
    assert stale_widgets.enabled()


@pytest.fixture
def not_yet_checked():
    """The module's check made afresh (it is made once per process)."""
    stale_widgets.enabled.cache_clear()
    yield
    stale_widgets.enabled.cache_clear()


def _kept(at) -> tuple[set[int], int, int]:
    """What Streamlit keeps of the session's widgets: the numbers of the cards they belong
    to, how many are feedbacks' folds (details and report, two per answer), and how many there
    are in all."""
    ids = list(at._session_state._state._new_widget_state.widget_metadata)
    numbers = {int(found.group(1)) for found in map(CARD_NUMBER.search, ids) if found}
    return numbers, sum(1 for widget_id in ids if FOLDS.search(widget_id)), len(ids)


def _answer_and_go_on(at) -> None:
    card = CONTENT.cards[at.session_state["practice"].card]
    answering.fill(at, card, answering.right_answer(CONTENT, card, answering.practice_showing(at, card)))
    assert not at.exception, at.exception
    next(b for b in at.button if b.label == "Next card").click().run()
    assert not at.exception, at.exception


def _after_answers(open_app):
    """A practice session after ``ANSWERS`` answers, its page showing the next card."""
    at = open_app()
    answering.deal_until(at, CONTENT, ScenarioCard)
    for _ in range(ANSWERS):
        _answer_and_go_on(at)
    return at


def test_the_widgets_of_cards_answered_before_are_forgotten(open_app) -> None:
    at = _after_answers(open_app)
    shown = at.session_state["practice"].n
    numbers, folds, _ = _kept(at)
    assert numbers <= {shown - 1, shown}  # the card on the page, and the Next button that dealt it
    assert folds <= 2  # the last answer's, at most


def test_under_another_streamlit_it_forgets_nothing_and_streamlit_keeps_every_cards_widgets(
    open_app, another_streamlit, not_yet_checked, caplog: pytest.LogCaptureFixture,
) -> None:
    """The gate, and the cost this module removes (if Streamlit stops keeping them, this
    fails: drop the module)."""
    with caplog.at_level("ERROR", logger=version.__name__):
        at = _after_answers(open_app)
    numbers, folds, kept = _kept(at)
    assert len(numbers) > ANSWERS and folds == 2 * ANSWERS
    assert kept >= ANSWERS * 4  # at least a form's three parts and its Check button per answer
    problem = version.version_problem()  # said once, whatever asked
    said = [r.getMessage() for r in caplog.records if problem and r.getMessage().startswith(problem)]
    assert len(said) == 1 and "the forgetting of stale widgets and the batched" in said[0]


def test_outside_a_run_nothing_is_forgotten() -> None:
    assert stale_widgets.forget_stale_widgets() == 0
