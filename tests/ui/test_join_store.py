"""A trainee joins a store with a join code: when adding themselves, or later from the
sidebar's "My store"; a wrong code is refused with a reason and adds nobody."""

from __future__ import annotations

import pytest

from quiz.access.stores import create_store, make_join_code
from quiz.ui.sign_in import STORE_FOLD
from tests.ui import supervisor
from tests.ui.test_sign_in import open_fold, signed_in_name, submit


@pytest.fixture
def code(store, monkeypatch):
    supervisor.prepare(monkeypatch)
    admin = supervisor.make_account("owner password")
    shop = create_store(store, "Shibuya", admin)
    return make_join_code(store, admin, shop.id)


def test_a_new_trainee_joins_with_a_code(open_app, store, code):
    at = submit(open_app(trainee=None), "new-trainee", name="Aiko", pin="2468", pin_again="2468", code=code.code)
    assert signed_in_name(at) == "Aiko"
    assert store.find_trainee("Aiko").store_id == code.store_id


def test_a_wrong_code_adds_nobody_and_says_why(open_app, store, code):
    at = submit(open_app(trainee=None), "new-trainee", name="Aiko", pin="2468", pin_again="2468", code="NOPE2345")
    assert signed_in_name(at) is None and store.find_trainee("Aiko") is None
    assert "cannot be used" in at.error[0].value


def test_every_unusable_code_gets_one_answer_and_guessing_is_held(open_app, store, code, monkeypatch):
    """Finding L5: three messages told a code never made from a revoked or expired one, and
    nothing held a guesser (200 guesses in 18 s)."""
    from sqlalchemy import update

    from quiz.db.tables import join_codes
    from quiz.model.attempt import utc_now

    with store.engine.begin() as conn:  # the code revoked by its supervisor
        conn.execute(update(join_codes).where(join_codes.c.code == code.code).values(revoked_at=utc_now()))
    from quiz.access import work_limits
    from quiz.access.throttles import ThrottlePolicy

    policy = work_limits.JOIN_CODE_POLICY
    monkeypatch.setattr(work_limits, "JOIN_CODE_POLICY", ThrottlePolicy(base=0.001, ceiling=0.001))
    answers = set()
    for typed in ("NOPE2345", code.code):
        at = open_fold(open_app(trainee="Ben"), STORE_FOLD)
        at.text_input(key="join-store-code").input(typed)
        at.button(key="join-store-submit").click().run()
        answers.add(at.error[0].value)
    assert len(answers) == 1 and "cannot be used" in next(iter(answers))
    monkeypatch.setattr(work_limits, "JOIN_CODE_POLICY", policy)
    at = open_fold(open_app(trainee="Ben"), STORE_FOLD)  # a new tab: the same client address (none here) ...
    held = 0
    for n in range(12):  # ... and this session's guesses, as fast as a script sends them
        at.text_input(key="join-store-code").input(f"GUESS{n:03d}")
        at.button(key="join-store-submit").click().run()
        held += "Too many join codes tried" in at.error[0].value
    assert held >= 6
    assert store.find_trainee("Ben").store_id is None


def test_a_signed_in_trainee_joins_and_leaves(open_app, store, code):
    at = open_fold(open_app(trainee="Ben"), STORE_FOLD)
    at.text_input(key="join-store-code").input(code.code)
    at.button(key="join-store-submit").click().run()
    assert store.find_trainee("Ben").store_id == code.store_id
    assert any("You are in the store Shibuya." in c.value for c in at.caption)
    at.button(key="leave-store").click().run()
    assert store.find_trainee("Ben").store_id is None


def test_a_join_codes_link_opens_the_sign_up_with_the_code_filled_in(open_app, store, code):
    """The link of a join code's QR code (quiz.report.join_qr): the sign-up open, its code
    filled in; adding oneself joins the store, and the code leaves the URL."""
    from quiz.report.join_qr import JOIN_PARAM

    at = open_app(trainee=None, query={JOIN_PARAM: code.code})
    assert at.text_input(key="new-trainee-code").value == code.code
    assert at.query_params[JOIN_PARAM] in (code.code, [code.code])  # kept while signed out: a reload keeps it
    at = submit(at, "new-trainee", name="Aiko", pin="2468", pin_again="2468")
    assert signed_in_name(at) == "Aiko"
    assert store.find_trainee("Aiko").store_id == code.store_id
    assert JOIN_PARAM not in at.query_params
