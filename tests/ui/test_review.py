"""The review page: due cards first, answers saved with mode review and rescheduled."""

from __future__ import annotations

from datetime import datetime, timedelta

from quiz.db import reviews as review_store
from quiz.model.attempt import utc_now
from quiz.training.scheduling import next_schedule
from quiz.ui import shell as shell_module
from tests.shipped_content import shipped_content
from tests.ui import answering, seeding

CONTENT = shipped_content()
PAGE = "quiz/ui/pages/review.py"
SCENARIOS = [c for c in CONTENT.scenario_cards if not getattr(c, "parameters", None)]
KNOWLEDGE = CONTENT.knowledge_cards


def seed(store, trainee_id: int, card, correct: bool, when: datetime) -> None:
    seeding.seed(store, CONTENT, trainee_id, card, correct, when)


def answer_right(at, card) -> None:
    """Fill in the standard answer of the card shown and press "Check"."""
    answering.fill(at, card, answering.right_answer(CONTENT, card))


def test_without_a_trainee_the_page_asks_for_one(open_app):
    at = open_app(trainee=None, page=PAGE)
    assert at.title[0].value == "Review"
    assert any("Sign in, or add yourself" in i.value for i in at.info)


def test_the_most_overdue_card_is_served_first_and_a_right_answer_reschedules_it(open_app, store):
    trainee = store.trainee("Aiko")
    now = utc_now()
    first, second, later = SCENARIOS[0], SCENARIOS[1], KNOWLEDGE[0]
    seed(store, trainee.id, second, False, now - timedelta(hours=1))  # due 50 minutes ago
    seed(store, trainee.id, first, False, now - timedelta(hours=3))  # due 2 h 50 min ago: most overdue
    seed(store, trainee.id, later, True, now - timedelta(hours=1))  # due in about two days
    before = review_store.schedule(store, trainee.id, first.id)

    at = open_app(page=PAGE)

    assert at.session_state["review"].card == first.id
    assert at.subheader[0].value == "How do you rule?"  # the title may give the answer away
    assert "Due now: 2" in [c.value for c in at.caption]
    assert answering.sidebar_due(at).endswith("Due for review: 2")

    answer_right(at, first)

    assert not at.exception
    assert [s.value for s in at.success] == ["Right on every part."]
    assert at.subheader[0].value == first.title.en  # answered: the card's own title
    attempts = store.attempts(trainee.id)
    row = attempts.iloc[-1]
    assert len(attempts) == 4
    assert (row["card_id"], row["mode"], bool(row["correct"])) == (first.id, "review", True)
    expected = next_schedule(before, True, row["answered_at"].to_pydatetime())
    assert review_store.schedule(store, trainee.id, first.id) == expected
    assert expected.due - row["answered_at"].to_pydatetime() >= timedelta(days=1)
    assert any(i.value.startswith("This card comes back in") for i in at.info)
    assert answering.sidebar_due(at).endswith("Due for review: 1")

    next(b for b in at.button if b.label == "Next card").click().run()
    assert at.session_state["review"].card == second.id


def test_a_wrong_answer_brings_the_card_back_in_ten_minutes(open_app, store):
    trainee = store.trainee("Aiko")
    card = KNOWLEDGE[0]
    seed(store, trainee.id, card, True, utc_now() - timedelta(days=5))  # due three days ago
    at = open_app(page=PAGE)
    assert at.session_state["review"].card == card.id

    wrong = next(c for c in card.choices if c.id != card.answer)
    choice = next(r for r in at.radio if r.label == "Your answer")
    choice.set_value(wrong.id)
    next(b for b in at.button if b.label == "Check").click().run()

    row = store.attempts(trainee.id).iloc[-1]
    assert (row["mode"], bool(row["correct"]), row["chosen_choice"]) == ("review", False, wrong.id)
    schedule = review_store.schedule(store, trainee.id, card.id)
    # A forgotten review card relearns: one ten-minute step.
    assert schedule.due - row["answered_at"].to_pydatetime() == timedelta(minutes=10)
    assert "This card comes back in 10 minutes." in [i.value for i in at.info]


def test_nothing_due_says_when_the_next_card_is(open_app, store):
    trainee = store.trainee("Aiko")
    seed(store, trainee.id, KNOWLEDGE[0], True, utc_now())
    at = open_app(page=PAGE)
    assert at.session_state["review"].card is None
    assert [s.value for s in at.success] == ["Nothing is due for review right now."]
    # A first right answer gets stability w[2] = 2.3065 days; at the 90 % retention the
    # interval equals the stability, rounded to whole days: two days.
    assert [i.value for i in at.info] == ["The next card is due in 2 days."]


def test_with_nothing_scheduled_new_cards_can_be_practised(open_app, store):
    at = open_app(page=PAGE)
    assert [i.value for i in at.info][0].startswith("No card has a review date yet.")
    pool_size = sum(not card.retired for card in CONTENT.cards.values())  # retired cards are never dealt
    start = next(b for b in at.button if b.label.startswith("Practise new cards"))
    assert start.label == f"Practise new cards ({pool_size} left)"
    start.click().run()

    card_id = at.session_state["review"].card
    assert card_id in CONTENT.cards and at.session_state["review"].mode == "practice"
    assert f"New card · {pool_size} never answered in your selection" in [c.value for c in at.caption]
    answer_right(at, CONTENT.cards[card_id])

    row = store.attempts().iloc[-1]
    assert (row["card_id"], row["mode"]) == (card_id, "practice")
    schedule = review_store.schedule(store, int(row["trainee_id"]), card_id)
    assert schedule is not None and schedule.last_review == row["answered_at"].to_pydatetime()


def test_review_in_japanese(open_app, store):
    trainee = store.trainee("Aiko")
    seed(store, trainee.id, KNOWLEDGE[0], False, utc_now() - timedelta(hours=1))
    at = open_app(lang="ja", page=PAGE)
    assert at.title[0].value == "復習"
    assert "復習待ち: 1枚" in [c.value for c in at.caption]
    assert answering.sidebar_due(at).endswith("復習待ちのカード: 1枚")


def test_the_sidebar_count_follows_answers_and_due_moments_without_reading_again_until_the_horizon(
        open_app, store, monkeypatch):
    """The count moves by the answer's own new schedule, and a card counts from the moment it
    falls due, with no query; the due moments are read again once ``DUE_HORIZON`` is past,
    which takes in answers given in another tab."""
    trainee = store.trainee("Aiko")
    now = utc_now()
    first, second, third = SCENARIOS[0], SCENARIOS[1], SCENARIOS[2]
    seed(store, trainee.id, second, False, now - timedelta(hours=1))
    seed(store, trainee.id, first, False, now - timedelta(hours=3))
    clock, counted = [now], []
    real_times = shell_module.due_times
    monkeypatch.setattr(shell_module, "utc_now", lambda: clock[0])
    monkeypatch.setattr(shell_module, "due_times", lambda *args: counted.append(args) or real_times(*args))

    at = open_app(page=PAGE)
    assert answering.sidebar_due(at).endswith("Due for review: 2") and len(counted) == 1

    answer_right(at, first)
    assert answering.sidebar_due(at).endswith("Due for review: 1") and len(counted) == 1

    seed(store, trainee.id, second, True, now)  # answered in another tab
    seed(store, trainee.id, third, False, now - timedelta(minutes=3))  # wrong in another tab: back in 7 minutes
    next(b for b in at.button if b.label == "Next card").click().run()
    assert answering.sidebar_due(at).endswith("Due for review: 1") and len(counted) == 1  # within the horizon
    clock[0] = now + shell_module.DUE_HORIZON
    at.run()
    assert answering.sidebar_due(at).endswith("Due for review: 0") and len(counted) == 2

    comes_back = review_store.schedule(store, trainee.id, third.id).due
    assert clock[0] < comes_back < clock[0] + shell_module.DUE_HORIZON  # read with its moment, not yet due
    clock[0] = comes_back - timedelta(seconds=1)
    at.run()
    assert answering.sidebar_due(at).endswith("Due for review: 0")
    clock[0] = comes_back
    at.run()
    assert answering.sidebar_due(at).endswith("Due for review: 1") and len(counted) == 2  # at its moment, no read
