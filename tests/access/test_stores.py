"""Stores and join codes: codes expire (an injected clock), are revoked, are redeemed once per
use; supervisors make codes only for their own store; moving and leaving."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from quiz.access.stores import (
    CODE_ALPHABET,
    CODE_LENGTH,
    codes_in,
    create_store,
    leave_store,
    list_stores,
    make_join_code,
    move_trainee,
    redeem,
    rename_store,
    revoke_join_code,
    store_by_name,
    trainee_seen,
)
from quiz.access.supervisors import create_account
from quiz.db import audit
from quiz.model.errors import JoinCodeError, NameTakenError, OutOfScopeError

PASSWORD = "店長-password-1"
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class Calendar:
    """A clock of datetimes the test moves."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def world(store):
    """Two stores, a supervisor of each, an admin."""
    admin = create_account(store, "Owner", PASSWORD, "admin", None, None)
    shibuya, osaka = create_store(store, "Shibuya", admin), create_store(store, "Osaka", admin)
    tencho = create_account(store, "Tencho", PASSWORD, "supervisor", shibuya.id, admin)
    sakura = create_account(store, "Sakura", PASSWORD, "supervisor", osaka.id, admin)
    return admin, shibuya, osaka, tencho, sakura


def test_stores_are_made_renamed_and_listed_by_admins(store, world):
    admin, shibuya, osaka, tencho, _ = world
    with pytest.raises(NameTakenError):
        create_store(store, "Shibuya", admin)
    with pytest.raises(OutOfScopeError):
        create_store(store, "Kyoto", tencho)
    rename_store(store, osaka.seen, "Osaka Namba", admin)
    assert [(s.name, s.trainees) for s in list_stores(store)] == [("Osaka Namba", 0), ("Shibuya", 0)]
    assert [e.action for e in audit.entries(store, admin.scope())].count("store_made") == 2


def test_store_names_are_compared_as_trainee_names_are(store, world):
    """Finding L4: ``ＳｔｏｒｅＡ`` and ``storea`` were accepted beside ``StoreA``."""
    admin, shibuya, osaka, _, _ = world
    for near in ("shibuya", "ＳＨＩＢＵＹＡ", " SHIBUYA"):
        with pytest.raises(NameTakenError):
            create_store(store, near, admin)
        with pytest.raises(NameTakenError):
            rename_store(store, osaka.seen, near, admin)
    rename_store(store, shibuya.seen, "SHIBUYA", admin)  # its own name in another case: allowed
    assert [s.name for s in list_stores(store)] == ["Osaka", "SHIBUYA"]
    assert store_by_name(store, "ｓｈｉｂｕｙａ").id == shibuya.id


def test_a_store_made_before_keys_still_blocks_its_look_alikes(store, world):
    from sqlalchemy import insert

    from quiz.db.tables import stores
    from quiz.model.attempt import utc_now

    admin = world[0]
    with store.engine.begin() as conn:  # as a store made before the key column, which has none
        conn.execute(insert(stores).values(name="Kyoto", created_at=utc_now()))
    with pytest.raises(NameTakenError):
        create_store(store, "KYOTO", admin)


def test_a_join_code_is_readable_and_redeemed_into_its_store(store, world):
    _, shibuya, _, tencho, _ = world
    clock = Calendar()
    code = make_join_code(store, tencho, shibuya.id, now=clock)
    assert len(code.code) == CODE_LENGTH and set(code.code) <= set(CODE_ALPHABET)
    assert not set("01OIL") & set(CODE_ALPHABET)
    assert code.expires_at == START + timedelta(days=14)
    aiko, ben = store.trainee("Aiko"), store.trainee("Ben")
    typed = f" {code.code[:4].lower()}-{code.code[4:]} "  # as a person types it
    assert redeem(store, aiko.id, typed, now=clock).id == shibuya.id
    redeem(store, ben.id, code.code, now=clock)
    assert store.find_trainee("Aiko").store_id == shibuya.id
    assert [c.uses for c in codes_in(store, tencho.scope())] == [2]
    made = [e for e in audit.entries(store, tencho.scope()) if e.action == "join_code_made"]
    assert [(e.actor, e.target, e.store_id) for e in made] == [("Tencho", code.code, shibuya.id)]


def test_expired_revoked_and_unknown_codes_are_refused(store, world):
    _, shibuya, _, tencho, _ = world
    clock = Calendar()
    aiko = store.trainee("Aiko")
    expiring = make_join_code(store, tencho, shibuya.id, days=1, now=clock)
    clock.now += timedelta(days=1)
    with pytest.raises(JoinCodeError) as expired:
        redeem(store, aiko.id, expiring.code, now=clock)
    assert expired.value.rule == "unusable"  # finding L5: one answer, whatever the reason
    revoked = make_join_code(store, tencho, shibuya.id, now=clock)
    revoke_join_code(store, tencho, revoked.seen, now=clock)
    with pytest.raises(JoinCodeError) as refused:
        redeem(store, aiko.id, revoked.code, now=clock)
    assert refused.value.rule == "unusable"
    assert str(refused.value) == str(expired.value)
    for typed in ("ZZZZZZZZ", "", "x" * 100):
        with pytest.raises(JoinCodeError) as unknown:
            redeem(store, aiko.id, typed, now=clock)
        assert unknown.value.rule == "unusable" and str(unknown.value) == str(expired.value)
    assert store.find_trainee("Aiko").store_id is None
    assert sorted(c.uses for c in codes_in(store, tencho.scope())) == [0, 0]


def test_a_supervisor_touches_only_their_own_stores_codes(store, world):
    admin, shibuya, osaka, tencho, sakura = world
    with pytest.raises(OutOfScopeError):
        make_join_code(store, tencho, osaka.id)
    theirs = make_join_code(store, sakura, osaka.id)
    with pytest.raises(OutOfScopeError):
        revoke_join_code(store, tencho, theirs.seen)
    assert codes_in(store, tencho.scope()) == []
    make_join_code(store, admin, shibuya.id)  # an admin, for any store
    assert len(codes_in(store, admin.scope())) == 2 and len(codes_in(store, admin.scope(osaka.id))) == 1


def test_an_admin_moves_a_trainee_and_a_trainee_leaves(store, world):
    admin, shibuya, osaka, tencho, _ = world
    aiko = store.trainee("Aiko")
    with pytest.raises(OutOfScopeError):
        move_trainee(store, tencho, trainee_seen(aiko), shibuya.id)
    move_trainee(store, admin, trainee_seen(aiko), osaka.id)
    assert store.find_trainee("Aiko").store_id == osaka.id
    leave_store(store, aiko.id)
    assert store.find_trainee("Aiko").store_id is None


def test_a_new_trainee_joins_with_a_code_or_is_not_added(store, world):
    from quiz.access.accounts import add_trainee

    _, shibuya, _, tencho, _ = world
    code = make_join_code(store, tencho, shibuya.id)
    assert add_trainee(store, "Aiko", "2468", code.code.lower()).id == store.find_trainee("Aiko").id
    assert store.find_trainee("Aiko").store_id == shibuya.id
    with pytest.raises(JoinCodeError):
        add_trainee(store, "Ben", "2468", "ZZZZZZZZ")
    assert store.find_trainee("Ben") is None  # a wrong code adds nobody
    assert add_trainee(store, "Chie", "2468").store_id is None  # no code: a self-study player
