"""Two stores on one database, for the isolation tests of the core, the pages and the
browser: store A (Shibuya) with Aiko, store B (Umeda) with Ben, Solo in no store, their
answers and problem reports, a supervisor account of each store and an admin.

``b_leaks`` names what of store B a frame, a CSV or a page's text holds: it must be nothing
wherever A's supervisor looks.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import insert, update

from quiz.access.supervisors import create_account
from quiz.db.answers import save_answer
from quiz.db.store import Store, Trainee
from quiz.db.tables import problem_reports, stores, trainees
from quiz.model.attempt import AttemptRecord, FindingRecord
from quiz.model.scope import Scope, Supervisor

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
PASSWORD = "correct horse battery"  # every account's
SHARED_CARD = "ygo-tardiness-1min-store"  # answered in both stores
ONLY_B_CARD = "ygo-marked-cards"  # answered in store B alone
B_MARKS = ("Ben-of-Umeda", "Umeda", ONLY_B_CARD, "duel_loss", "Duel Loss", "B's doubt")  # B's trainee, store, card, wrong answer, report


@dataclass(frozen=True)
class TwoStores:
    a: int
    b: int
    aiko: Trainee  # store A
    ben: Trainee  # store B
    solo: Trainee  # no store: a self-study player
    report_a: int
    report_b: int
    supervisor_a: Supervisor  # the account "Sato"
    supervisor_b: Supervisor  # the account "Kobayashi"
    admin: Supervisor  # the account "Admin"

    @property
    def scope_a(self) -> Scope:
        return self.supervisor_a.scope()

    @property
    def scope_b(self) -> Scope:
        return self.supervisor_b.scope()


def answer(trainee: Trainee, card_id: str, correct: bool, chosen: str, fact_right: bool = True,
           at: dt.datetime = NOW) -> AttemptRecord:
    """A scenario answer with one finding (``intentional``)."""
    return AttemptRecord(
        trainee_id=trainee.id, card_id=card_id, ruleset="yugioh-ocg", category="tardiness", card_kind="scenario",
        chosen_infraction="tardiness", standard_infraction="tardiness", chosen_penalty=chosen,
        standard_penalty="warning", infraction_result="correct", penalty_result="correct" if correct else "wrong",
        fixes_result="correct", correct=correct, seconds=6.0 if correct else 30.0, answered_at=at,
        findings=(FindingRecord("intentional", fact_right, True, fact_right),),
        penalty_follows_findings=None if correct else not fact_right,
    )


def report(store: Store, trainee: Trainee, card_id: str, text: str, at: dt.datetime = NOW) -> int:
    """An open problem report, written as the app stores one; its id."""
    with store.engine.begin() as conn:
        return int(conn.execute(insert(problem_reports).values(
            trainee_id=trainee.id, card_id=card_id, reason="key_wrong", text=text, answer={}, created_at=at,
            resolved=False,
        ).returning(problem_reports.c.id)).scalar_one())


def in_store(store: Store, name: str, store_id: int | None) -> Trainee:
    """A trainee of that name in ``store_id`` (as a join code puts one there)."""
    trainee = store.trainee(name)
    with store.engine.begin() as conn:
        conn.execute(update(trainees).where(trainees.c.id == trainee.id).values(store_id=store_id))
    found = store.find_trainee(name)
    assert found is not None and found.store_id == store_id
    return found


def seed_two_stores(store: Store, at: dt.datetime = NOW) -> TwoStores:
    """Aiko of store A answers the shared card 3 times (1 right, the wrong ones 'game_loss'); Ben
    of store B answers it 5 times (all 'duel_loss') and B's own card once; Solo (no store)
    answers the shared card once. Aiko reports the shared card, Ben his own."""
    with store.engine.begin() as conn:
        a, b = (int(conn.execute(insert(stores).values(name=name, created_at=at).returning(stores.c.id)).scalar_one())
                for name in ("Shibuya", "Umeda"))
    aiko, ben, solo = in_store(store, "Aiko", a), in_store(store, "Ben-of-Umeda", b), in_store(store, "Solo", None)
    save_answer(store, answer(aiko, SHARED_CARD, True, "warning", at=at))
    for _ in range(2):
        save_answer(store, answer(aiko, SHARED_CARD, False, "game_loss", at=at))
    for _ in range(5):
        save_answer(store, answer(ben, SHARED_CARD, False, "duel_loss", fact_right=False, at=at))
    save_answer(store, answer(ben, ONLY_B_CARD, False, "duel_loss", at=at))
    save_answer(store, answer(solo, SHARED_CARD, True, "warning", at=at))
    report_a = report(store, aiko, SHARED_CARD, "A's doubt", at)
    report_b = report(store, ben, ONLY_B_CARD, "B's doubt", at)
    accounts = [create_account(store, name, PASSWORD, role, store_id, None)
                for name, role, store_id in (("Sato", "supervisor", a), ("Kobayashi", "supervisor", b),
                                             ("Admin", "admin", None))]
    return TwoStores(a, b, aiko, ben, solo, report_a, report_b, *accounts)


def b_leaks(data: bytes | str | pd.DataFrame) -> list[str]:
    """What of store B ``data`` (a frame, a CSV, a page's text) holds."""
    if isinstance(data, pd.DataFrame):
        text = data.to_csv()
    else:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    return [mark for mark in B_MARKS if mark in text]
