"""Answer forms: a knowledge card checked empty, and choices kept across a language switch."""

from __future__ import annotations

from quiz.model.cards import KnowledgeCard, ScenarioCard
from tests.shipped_content import shipped_content
from tests.ui import answering

CONTENT = shipped_content()


def test_a_knowledge_card_checked_with_nothing_chosen_asks_for_an_answer(open_app, store):
    at = open_app()
    answering.deal_until(at, CONTENT, KnowledgeCard)
    answering.widget(at.button, "check").click().run()
    assert [w.value for w in at.warning] == ["Choose an answer first."]
    assert store.attempts().empty


def test_a_knowledge_card_checked_empty_in_japanese(open_app, store):
    at = open_app(lang="ja")
    answering.deal_until(at, CONTENT, KnowledgeCard)
    answering.widget(at.button, "check").click().run()
    [warning] = at.warning
    assert "違反" not in warning.value and "罰則" not in warning.value


def test_switching_language_keeps_the_choices_of_a_scenario_card(open_app):
    """Choices sent with Check (an incomplete answer: no penalty) are kept across a switch.
    (Choices not yet sent with the form stay in the browser.)"""
    at = open_app(lang="en")
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    ruleset = CONTENT.rulesets[card.ruleset]
    infraction = ruleset.infractions[-1].id
    fix = ruleset.fixes[-1].id if ruleset.fixes else None
    answering.widget(at.selectbox, "infraction").set_value(infraction)
    if fix:
        answering.widget(at.multiselect, "fixes").set_value([fix])
    answering.widget(at.button, "check").click().run()
    assert at.warning  # incomplete: nothing stored, the form stays
    at.radio(key="language").set_value("ja").run()
    assert at.title[0].value == "練習"
    assert answering.widget(at.selectbox, "infraction").value == infraction
    if fix:
        assert answering.widget(at.multiselect, "fixes").value == [fix]
    at.radio(key="language").set_value("en").run()
    assert answering.widget(at.selectbox, "infraction").value == infraction


def _give_and_take() -> None:
    import streamlit as st

    from quiz.ui import form_answers

    form_answers.give("answer-1", "choice-a")
    form_answers.give("answer-2", "choice-b")  # a second click before a run took the first
    st.session_state["taken"] = [form_answers.take_given("answer-1"), form_answers.take_given("answer-2")]
    form_answers.give("answer-3", None)  # "I don't know": a blank answer is still an answer given
    st.session_state["blank"] = form_answers.take_given("answer-3")
    st.session_state["again"] = form_answers.take_given("answer-3")


def test_a_given_answer_is_taken_once_by_its_own_form_and_none_lingers():
    from streamlit.testing.v1 import AppTest

    from quiz.ui.form_answers import FormAnswer

    at = AppTest.from_function(_give_and_take)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["taken"] == [None, None]  # the first was replaced; the second dropped by the first take
    assert at.session_state["blank"] == FormAnswer("answer-3", None)
    assert at.session_state["again"] is None
