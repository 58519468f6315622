"""Answer forms: a knowledge card checked empty, and choices kept across a language switch."""

from __future__ import annotations

from quiz.content.loader import load_content
from quiz.model.cards import KnowledgeCard
from tests.ui import answering

CONTENT = load_content()


def _until(at, kind):
    """Deal cards until one of ``kind`` shows."""
    for _ in range(80):
        card = CONTENT.cards[at.session_state["practice"]["card"]]
        if isinstance(card, kind):
            return card
        at.session_state["practice"]["card"] = None
        at.run()
    raise AssertionError(f"no {kind.__name__} dealt")


def test_a_knowledge_card_checked_with_nothing_chosen_asks_for_an_answer(open_app, store):
    at = open_app()
    _until(at, KnowledgeCard)
    answering.widget(at.button, "check").click().run()
    assert [w.value for w in at.warning] == ["Choose an answer first."]
    assert store.attempts().empty


def test_a_knowledge_card_checked_empty_in_japanese(open_app, store):
    at = open_app(lang="ja")
    _until(at, KnowledgeCard)
    answering.widget(at.button, "check").click().run()
    [warning] = at.warning
    assert "違反" not in warning.value and "罰則" not in warning.value


