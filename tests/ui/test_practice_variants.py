"""A variant card on the practice page: each seed its own story, judged and explained by its values."""

from __future__ import annotations

from quiz.rules.variants import SEED_LIMIT, show_card
from quiz.ui.markdown import escape_markdown
from tests.shipped_content import shipped_content
from tests.ui import answering

CONTENT = shipped_content()
CARD_ID = "ygo-variant-tardiness-empty-seat"
CARD = CONTENT.cards[CARD_ID]


def show(at, seed: int):
    """Put the variant card on the page with ``seed`` and rerun."""
    state = at.session_state["practice"]
    state.card, state.seed, state.outcome = CARD_ID, seed, None
    at.run()
    assert not at.exception, at.exception


def story(at) -> str:
    return next(m.value for m in at.markdown if "round" in m.value and "minute mark" in m.value)


def seeds_with_different_minutes() -> tuple[int, int]:
    first = show_card(CARD, 0).values["minutes"]
    other = next(s for s in range(1, 100) if show_card(CARD, s).values["minutes"] != first)
    return 0, other


def test_a_dealt_card_carries_a_fresh_seed(open_app):
    at = open_app()
    seed = at.session_state["practice"].seed
    assert isinstance(seed, int) and 0 <= seed < SEED_LIMIT


def test_two_showings_of_the_same_card_differ_and_each_is_stable(open_app):
    first_seed, second_seed = seeds_with_different_minutes()
    at = open_app()
    show(at, first_seed)
    first = story(at)
    assert first == escape_markdown(show_card(CARD, first_seed).situation.en)
    at.run()  # a rerun keeps the showing
    assert story(at) == first
    show(at, second_seed)
    second = story(at)
    assert second == escape_markdown(show_card(CARD, second_seed).situation.en)
    assert second != first


def test_the_answer_is_judged_and_explained_with_the_drawn_minutes(open_app, store):
    seed = next(s for s in range(100) if show_card(CARD, s).values["minutes"] >= 10)
    minutes = show_card(CARD, seed).values["minutes"]
    at = open_app()
    show(at, seed)
    if "minutes_late" in CARD.findings:  # the trainee reads the minutes off the evidence
        answering.finding_widget(at, "minutes_late").set_value(show_card(CARD, seed).facts["minutes_late"])
    next(w for w in at.selectbox if w.label == "Infraction").set_value("tardiness")
    next(w for w in at.radio if w.label == "Penalty").set_value("match_loss")  # 10 minutes or more
    next(b for b in at.button if b.label == "Check").click().run()
    answering.open_details(at)
    assert not at.exception, at.exception
    assert [s.value for s in at.success] == ["Right on every part."]
    row = store.attempts().iloc[0]
    assert (row["card_id"], row["standard_penalty"], bool(row["correct"])) == (CARD_ID, "match_loss", True)
    texts = [m.value for m in at.markdown]
    assert f"**{escape_markdown('Drawn for this showing:')}**" in texts
    assert f"- {escape_markdown(f'The player was {minutes} minutes late after the call')}" in texts
