"""Answering in the card's fragment: the PIN check of a click that gives an answer is made in
the answer's own transaction (``trainee_session.answer_guard``); other clicks check it first.

On a real server, a PIN changed before Check signs out and stores nothing:
``tests/e2e/test_card_fragment.py``."""

from __future__ import annotations

import pytest

from quiz.access.accounts import add_trainee
from quiz.model.cards import KnowledgeCard
from quiz.ui import trainee_session
from quiz.ui.form_answers import FormAnswer
from tests.shipped_content import shipped_content
from tests.ui import answering

CONTENT = shipped_content()


@pytest.fixture
def pin_checks(monkeypatch) -> list[int]:
    """The trainee ids of the PIN checks made on their own (a connection and a query each)."""
    checked: list[int] = []
    real = trainee_session.credential_version

    def counted(store, trainee_id):
        checked.append(trainee_id)
        return real(store, trainee_id)

    monkeypatch.setattr(trainee_session, "credential_version", counted)
    return checked


def test_check_makes_no_pin_check_of_its_own_and_next_card_does(open_app, store, pin_checks):
    """AppTest runs the whole app on each click, so the sidebar's check is counted: one for
    Check (the card's run adds none) and one for Next card (in a full run the card fragment
    leaves the check to app.py; run alone, in a browser, it makes its own:
    tests/e2e/test_card_fragment.py)."""
    aiko = add_trainee(store, "Aiko", "2468")
    at = open_app()
    card = answering.deal_until(at, CONTENT, KnowledgeCard)
    pin_checks.clear()
    answering.fill(at, card, answering.right_answer(CONTENT, card))
    assert not at.exception and len(store.attempts()) == 1
    assert pin_checks == [aiko.id]
    pin_checks.clear()
    next(b for b in at.button if b.label == "Next card").click().run()
    assert pin_checks == [aiko.id]


def test_an_answer_left_for_a_form_no_longer_shown_is_not_stored_and_the_pin_is_checked(open_app, store,
                                                                                         pin_checks):
    """A click's answer that its run does not take (given to another form) stores nothing, so
    the run checks the PIN on its own after all."""
    aiko = add_trainee(store, "Aiko", "2468")
    at = open_app()
    answering.deal_until(at, CONTENT, KnowledgeCard)
    pin_checks.clear()
    at.session_state["given_answer"] = FormAnswer("answer-gone", None)
    at.run()
    assert not at.exception and store.attempts().empty
    assert pin_checks == [aiko.id, aiko.id]  # the sidebar's, and the card's after all
