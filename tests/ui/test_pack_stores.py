"""A store's pack on the pages: its trainees are dealt its cards; another store's trainee is
not, even when the session asks for one of its cards by id (a practice round). Both databases."""

from __future__ import annotations

from sqlalchemy import insert, update

from quiz.db.packs import import_pack
from quiz.db.tables import stores, trainees
from quiz.model.attempt import utc_now
from tests.pack_files import scenario

PRACTICE = "quiz/ui/pages/practice.py"
ROUND_KEY = "practice_round"  # quiz/ui/pages/practice.py: card ids of a round started elsewhere
CARD = "pack-store-a-only"


def store_a_pack(store) -> None:
    """Stores A and B, the trainee Aki in A and Bea in B, and a pack of A with one card."""
    with store.engine.begin() as conn:
        a, b = (int(conn.execute(insert(stores).values(name=name, created_at=utc_now()).returning(stores.c.id))
                    .scalar_one()) for name in ("A", "B"))
    for name, store_id in (("Aki", a), ("Bea", b)):
        store.trainee(name)
        with store.engine.begin() as conn:
            conn.execute(update(trainees).where(trainees.c.name == name).values(store_id=store_id))
    assert import_pack(store, None, "a.yaml", scenario(CARD).encode("utf-8"), store_id=a).ok


def practise_the_round(open_app, trainee: str):
    """The practice page of ``trainee`` after a round of the pack's card was asked for."""
    at = open_app(trainee)
    at.session_state[ROUND_KEY] = [CARD]
    at.switch_page(PRACTICE)
    at.run()
    assert not at.exception, at.exception
    return at


def test_another_stores_trainee_is_never_dealt_the_pack_card_even_asked_by_id(open_app, store):
    store_a_pack(store)
    at = practise_the_round(open_app, "Bea")
    assert CARD not in at.session_state["shell"].content.cards
    assert at.session_state["practice"].card != CARD  # the round is dropped: a card of the pool instead
    # no round's caption ("Practising 1 recent mistake.") nor its way back: not any caption that
    # says "round" (a floor call, dealt at random, says "round time" in its investigation's)
    assert not [c for c in at.caption if c.value.startswith("Practising ")]
    assert not [b for b in at.button if b.label == "Back to all cards"]


def test_the_stores_own_trainee_is_dealt_it(open_app, store):
    store_a_pack(store)
    at = practise_the_round(open_app, "Aki")
    assert CARD in at.session_state["shell"].content.cards
    assert at.session_state["practice"].card == CARD


def test_the_stores_supervisor_reviews_the_pack_card_without_a_trainee_sign_in(open_app, store, monkeypatch):
    """Card review and Team report on the scope's store's cards: a supervisor of A (signed in
    as no trainee) finds A's pack card a trainee of A answered; B's supervisor does not."""
    from sqlalchemy import select

    from quiz.model.attempt import AttemptRecord
    from tests.recording import record
    from tests.ui import supervisor

    store_a_pack(store)
    with store.engine.connect() as conn:
        a, b = conn.execute(select(stores.c.id).order_by(stores.c.id)).scalars().all()
    aki = store.find_trainee("Aki")
    record(store, AttemptRecord(trainee_id=aki.id, card_id=CARD, ruleset="yugioh-ocg", category="yugioh-ocg/tardiness",
                                card_kind="scenario", correct=False, seconds=5.0, answered_at=utc_now(),
                                chosen_infraction="tardiness", standard_infraction="tardiness",
                                chosen_penalty="warning", standard_penalty="match_loss",
                                infraction_result="correct", penalty_result="wrong", fixes_result="correct"))
    supervisor.prepare(monkeypatch)
    supervisor.make_account("the-admin-pass")  # a deployment's first admin, before any store's account
    for name, store_id, sees in (("Boss A", a, True), ("Boss B", b, False)):
        supervisor.make_account("pack-review-pass", name=name, role="supervisor", store_id=store_id)
        at = supervisor.unlock(open_app(trainee=None, page="quiz/ui/pages/items.py"), "pack-review-pass", name=name)
        assert not at.exception, at.exception
        offered = at.selectbox(key="items-card").options  # cards by their titles
        assert ("Seated fifteen minutes in" in offered) is sees, (name, offered)
        if sees:
            at.selectbox(key="items-card").set_value(CARD).run()
            assert any("Seated fifteen minutes in" in h.value for h in at.subheader), [h.value for h in at.subheader]
