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
    assert not [c for c in at.caption if "round" in c.value.lower()]


def test_the_stores_own_trainee_is_dealt_it(open_app, store):
    store_a_pack(store)
    at = practise_the_round(open_app, "Aki")
    assert CARD in at.session_state["shell"].content.cards
    assert at.session_state["practice"].card == CARD
