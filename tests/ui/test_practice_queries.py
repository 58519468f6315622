"""What a warm run of the Practice page asks the database: once the page has been drawn, a
rerun with nothing changed sends no statement: the PIN's version, the packs' version, the
closed-book deadline and the trainee's assignments come from the server's memory
(``quiz.db.watches``), and the trainee's time zone is read only when an assignment shows a
due time."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import Engine, event

from quiz.db import reviews as review_store
from quiz.ui import resources
from tests.shipped_content import shipped_content
from tests.ui.test_judging import show
from tests.waiting import wait_until

PRACTICE = "quiz/ui/pages/practice.py"


@contextmanager
def statements_sent() -> Iterator[list[str]]:
    """Every SQL statement any engine of this process sends meanwhile (the app's store is the
    process's own, ``quiz.ui.resources.store``)."""
    sent: list[str] = []

    def seen(_conn, _cursor, statement, *_rest) -> None:
        sent.append(statement)

    event.listen(Engine, "before_cursor_execute", seen)
    try:
        yield sent
    finally:
        event.remove(Engine, "before_cursor_execute", seen)


def test_a_warm_practice_rerun_sends_no_statement(open_app):
    at = open_app(page=PRACTICE)
    # a scenario card, not the one dealt at random: a floor call's warm rerun is the next test
    show(at, next(c.id for c in shipped_content().scenario_cards if not c.retired))
    app_store = resources.store()
    assert len(app_store.watches.channels) == 4  # the PIN's version, the packs' version, the closed-book deadline, assignments
    wait_until(lambda: app_store.watches.live, "the store's watches keep values")
    at.run()  # a run after the watches keep values: this one may still read them
    with statements_sent() as sent:
        at.run()
    assert not at.exception
    assert sent == []


def test_a_warm_rerun_of_a_floor_call_sends_no_statement(open_app):
    """The steps of a call are read when it is first drawn (a reload, another tab: it
    resumes), then kept: a rerun that takes no step asks the database nothing."""
    at = open_app(page=PRACTICE)
    at.segmented_control(key="practice-pool").set_value("floor_calls").run()
    wait_until(lambda: resources.store().watches.live, "the store's watches keep values")
    at.run()
    with statements_sent() as sent:
        at.run()
    assert not at.exception
    assert at.session_state["practice"].card.startswith(("ygo-fc-", "pkm-fc-"))
    assert sent == []


def test_a_change_committed_elsewhere_is_read_on_the_next_run(open_app, store):
    """A PIN set on another server (here: another store on the same database) signs the
    session out at its next run, kept values notwithstanding."""
    from quiz.access.accounts import set_pin

    at = open_app(page=PRACTICE)
    wait_until(lambda: resources.store().watches.live, "the store's watches keep values")
    at.run()
    trainee = store.find_trainee("Aiko")
    assert trainee is not None
    set_pin(store, trainee.id, "2468", None)

    def signed_out_at_its_next_run() -> bool:  # on PostgreSQL the notice comes milliseconds after the commit
        at.run()
        return not any(button.key == "sign-out" for button in at.sidebar.button)

    wait_until(signed_out_at_its_next_run, "the session is signed out by the PIN set elsewhere")


def test_a_card_never_answered_is_saved_without_reading_its_schedule(open_app, store):
    """Practice's deal reads the trainee's results, so it knows which cards were never
    answered: on PostgreSQL such a card's answer is one statement, with no schedule read
    (``quiz.db.answers.save_answer``, ``never_answered``); a card answered before, read
    and moved on."""
    at = open_app(page=PRACTICE)
    state = at.session_state["practice"]
    assert state.answered_cards == set()  # a new trainee: dealt, knowing of no answer
    card = state.card

    def dont_know() -> list[str]:
        with statements_sent() as sent:
            next(b for b in at.button if b.key and b.key.endswith("-dont-know")).click().run()
        assert not at.exception, at.exception
        return [s for s in sent if "review_schedules" in s]

    touching_schedules = dont_know()
    assert at.session_state["practice"].answered_cards == {card}
    if store.one_statement_writes:
        assert len(touching_schedules) == 1 and "INSERT INTO attempts" in touching_schedules[0]  # no read
    first = review_store.schedule(store, store.find_trainee("Aiko").id, card)
    assert first is not None

    again = at.session_state["practice"]  # the same card dealt again: answered before
    again.deal(card)
    at.run()
    touching_schedules = dont_know()
    if store.one_statement_writes:
        assert len(touching_schedules) == 2 and touching_schedules[0].startswith("SELECT")  # read, then moved on
    assert list(store.attempts()["card_id"]) == [card, card]
    assert review_store.schedule(store, store.find_trainee("Aiko").id, card) != first
