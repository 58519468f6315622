"""The practice page: answering right and wrong stores the right rows and shows the marks."""

from __future__ import annotations

import pandas as pd

from quiz.model.cards import KnowledgeCard, ScenarioCard
from quiz.rules.engine import judge
from quiz.training.answer_outcomes import asks_players
from quiz.ui.markdown import escape_markdown
from tests.shipped_content import shipped_content
from tests.ui import answering

CONTENT = shipped_content()


def _shown_facts(at, card: ScenarioCard) -> dict:
    """The facts of the showing on the page (a variant card draws them from the kept seed)."""
    showing = answering.practice_showing(at, card)
    assert showing is not None
    return dict(showing.facts)


def _form_widgets(at):
    infraction = answering.widget(at.selectbox, "infraction")
    penalty = answering.widget(at.radio, "penalty")
    fixes = answering.widget(at.multiselect, "fixes")
    check = answering.widget(at.button, "check")
    return infraction, penalty, fixes, check


def _answer_the_standard(at, card):
    """Answer the shown scenario card with the engine's standard answer; its verdict."""
    showing = answering.practice_showing(at, card)
    assert showing is not None
    answering.fill(at, card, answering.right_answer(CONTENT, card, showing))
    return judge(CONTENT.rulesets[card.ruleset], card.infraction, showing.facts)


def test_without_a_trainee_the_page_asks_for_one(open_app):
    at = open_app(trainee=None)
    assert any("Sign in, or add yourself" in i.value for i in at.info)


def test_right_answer_is_stored_and_marked(open_app, store):
    at = open_app()
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    verdict = _answer_the_standard(at, card)
    answering.open_details(at)
    assert not at.exception
    assert [s.value for s in at.success] == ["Right on every part."]
    rows = store.attempts()
    assert len(rows) == 1
    row = rows.iloc[0]
    assert row["card_id"] == card.id and bool(row["correct"])
    assert (row["infraction_result"], row["penalty_result"], row["fixes_result"]) == ("correct", "correct", "correct")
    assert row["standard_penalty"] == verdict.penalty and row["seconds"] >= 0
    parts = 4 if asks_players(CONTENT, card) else 3  # infraction, penalty, (who receives it,) fixes
    assert sum(":green[:material/check_circle:]" in m.value for m in at.markdown) == parts


def test_wrong_answer_is_stored_and_explained(open_app, store):
    at = open_app()
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    ruleset = CONTENT.rulesets[card.ruleset]
    verdict = judge(ruleset, card.infraction, _shown_facts(at, card))
    wrong_penalty = next(p.id for p in ruleset.ladder if p.id not in verdict.accepted)
    wrong_infraction = next(i.id for i in ruleset.infractions if i.id != verdict.infraction)
    infraction, penalty, fixes, check = _form_widgets(at)
    for fact, value in answering.right_answer(CONTENT, card, answering.practice_showing(at, card)).findings:
        answering.finding_widget(at, fact).set_value(value)
    infraction.set_value(wrong_infraction)
    penalty.set_value(wrong_penalty)
    fixes.set_value(list(verdict.fixes))  # the fixes right: some parts wrong, not all
    asked_players = answering.players_question(at) is not None  # a fourth part: who receives it
    if asked_players:
        answering.players_question(at).set_value("offender")
    check.click().run()
    answering.open_details(at)
    assert not at.exception
    right = 1 + (verdict.players == "offender" if asked_players else 0)
    total = 4 if asked_players else 3
    assert [e.value for e in at.error] == [f"{right} of {total} parts right. See below."]  # two wrong: not "so close"
    row = store.attempts().iloc[0]
    assert not bool(row["correct"])
    assert (row["infraction_result"], row["penalty_result"]) == ("wrong", "wrong")
    assert row["chosen_penalty"] == wrong_penalty
    texts = " ".join(m.value for m in at.markdown)
    assert ":red[:material/cancel:]" in texts and "What the document says" in " ".join(m.value for m in at.markdown)
    wrong_name = ruleset.penalty(wrong_penalty).name.en
    assert any(f"{wrong_name} {phrase}" in texts for phrase in ("would be right if", "would be accepted", "is never right"))


def test_incomplete_answer_is_not_stored(open_app, store):
    at = open_app()
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    *_, check = _form_widgets(at)
    check.click().run()
    findings = " Answer every finding too." if card.findings else ""
    assert [w.value for w in at.warning] in (["Choose the infraction and the penalty first." + findings],
                                             ["Choose the infraction, the penalty and who receives it first." + findings])
    assert store.attempts().empty


def test_next_card_after_an_answer(open_app, store):
    at = open_app()
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    _answer_the_standard(at, card)
    next(b for b in at.button if b.label == "Next card").click().run()
    assert at.session_state["practice"].card != card.id
    assert at.session_state["practice"].outcome is None


def test_switching_language_changes_the_texts(open_app):
    at = open_app(lang="en")
    assert at.title[0].value == "Practice"
    at.radio(key="language").set_value("ja").run()
    assert at.title[0].value == "練習"
    assert at.query_params["lang"] == ["ja"] or at.query_params["lang"] == "ja"


def test_i_dont_know_counts_wrong_and_shows_the_answer(open_app, store):
    at = open_app()
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    next(b for b in at.button if b.label == "I don't know — show the answer").click().run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == ["Not answered — the standard answer is below."]
    assert any("The standard answer" in m.value for m in at.markdown)
    row = store.attempts().iloc[0]
    assert (row["card_id"], bool(row["correct"])) == (card.id, False)  # stored, as wrong
    assert pd.isna(row["chosen_infraction"]) and pd.isna(row["chosen_penalty"])  # nothing chosen


def test_next_card_comes_before_the_explanation(open_app, store):
    """Reached without scrolling past the feedback: the button is drawn right after the card."""
    at = open_app()
    card = answering.deal_until(at, CONTENT, ScenarioCard)
    _answer_the_standard(at, card)
    main = list(at.main)
    order = [type(e).__name__ + ":" + str(getattr(e, "label", getattr(e, "value", ""))) for e in main]
    nxt = next(i for i, item in enumerate(order) if item == "Button:Next card")
    verdict = next(i for i, item in enumerate(order) if item.startswith("Success:"))
    assert nxt < verdict


def test_a_knowledge_answer_shows_the_choice_made(open_app, store):
    at = open_app()
    card = answering.deal_until(at, CONTENT, KnowledgeCard)
    assert isinstance(card, KnowledgeCard)
    wrong = next(c for c in card.choices if c.id != card.answer)
    answering.fill(at, card, wrong.id)
    answering.open_details(at)
    assert any(c.value == f"Your answer: {escape_markdown(wrong.text.en)}" for c in at.caption)


def test_reaching_the_daily_goal_while_practising_is_said_once(open_app, store):
    """A goal of two cards: the second answer of the day says the goal is reached; the third
    says nothing more."""
    from quiz.db.goals import set_daily_goal

    set_daily_goal(store, store.trainee("Aiko").id, 2)
    at = open_app()
    said = []
    for _ in range(3):
        card = answering.deal_until(at, CONTENT, ScenarioCard)
        _answer_the_standard(at, card)
        assert not at.exception, at.exception
        said.append([toast.value for toast in at.toast])
        next(b for b in at.button if b.label == "Next card").click().run()
    assert said == [[], ["Daily goal reached: 2 cards today. Well done!"], []]
