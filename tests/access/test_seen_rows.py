"""Admin acts name their row by its key and act only on it as the person saw it: a row that
changed since it was read is refused with ``ChangedMeanwhileError`` and nothing changes, no
other row included; every act is in the audit log; a disabled account can be enabled again."""

from __future__ import annotations

import pytest

from quiz.access.stores import (
    codes_in,
    create_store,
    list_stores,
    make_join_code,
    move_trainee,
    rename_store,
    revoke_join_code,
    trainee_seen,
)
from quiz.access.supervisors import (
    account,
    accounts,
    create_account,
    credential_version,
    disable_account,
    enable_account,
    sign_in,
)
from quiz.access.throttles import LoginThrottle
from quiz.db import audit
from quiz.model.errors import AccountError, ChangedMeanwhileError, OutOfScopeError
from tests.scopes import EVERY_STORE

PASSWORD = "店長-password-1"


@pytest.fixture
def world(store):
    """An admin (supA), two stores, three supervisors."""
    admin = create_account(store, "supA", PASSWORD, "admin", None, None)
    shibuya, osaka = create_store(store, "Shibuya", admin), create_store(store, "Osaka", admin)
    for name, shop in (("tmpone", shibuya), ("tmptwo", shibuya), ("tmpthree", osaka)):
        create_account(store, name, PASSWORD, "supervisor", shop.id, admin)
    return admin, shibuya, osaka


def states(store) -> dict[str, bool]:
    return {found.supervisor.name: found.disabled for found in accounts(store)}


def actions(store, *names: str) -> list[tuple[str, str, str]]:
    return [(e.actor, e.action, e.target) for e in audit.entries(store, EVERY_STORE) if e.action in names]


def test_disabling_an_account_disabled_meanwhile_is_refused_and_touches_no_other(store, world):
    admin, *_ = world
    seen_in_tab_one = account(store, "tmptwo").seen
    disable_account(store, account(store, "tmptwo").seen, admin)  # tab two
    before = states(store)
    with pytest.raises(ChangedMeanwhileError):
        disable_account(store, seen_in_tab_one, admin)
    assert states(store) == before == {"supA": False, "tmpone": False, "tmpthree": False, "tmptwo": True}
    assert actions(store, "account_disabled", "account_enabled") == [("supA", "account_disabled", "tmptwo")]


def test_a_disabled_account_is_enabled_again_signs_in_and_both_acts_are_audited(store, world):
    admin, shibuya, _ = world
    disable_account(store, account(store, "tmptwo").seen, admin)
    assert credential_version(store, account(store, "tmptwo").supervisor.id) is None  # signs in no more
    seen_disabled = account(store, "tmptwo").seen
    enable_account(store, seen_disabled, admin)
    assert sign_in(store, "tmptwo", PASSWORD, LoginThrottle()).supervisor is not None
    with pytest.raises(ChangedMeanwhileError):  # enabled meanwhile: the second press does nothing
        enable_account(store, seen_disabled, admin)
    rows = [(e.actor, e.action, e.target, e.store_id) for e in audit.entries(store, EVERY_STORE)
            if e.action in ("account_disabled", "account_enabled")]
    assert rows == [("supA", "account_enabled", "tmptwo", shibuya.id), ("supA", "account_disabled", "tmptwo", shibuya.id)]


def test_only_an_admin_switches_accounts_and_the_last_admin_stays_with_no_audit_row(store, world):
    admin, *_ = world
    tmpone = account(store, "tmpone").supervisor
    with pytest.raises(OutOfScopeError):
        disable_account(store, account(store, "tmptwo").seen, tmpone)
    with pytest.raises(AccountError) as last:
        disable_account(store, account(store, "supA").seen, admin)
    assert last.value.rule == "last_admin"
    assert not any(states(store).values()) and actions(store, "account_disabled") == []


def test_revoking_a_code_revoked_meanwhile_is_refused_and_no_other_code_is_revoked(store, world):
    admin, shibuya, _ = world
    first, second = make_join_code(store, admin, shibuya.id), make_join_code(store, admin, shibuya.id)
    seen_in_tab_one = next(code for code in codes_in(store, EVERY_STORE) if code.code == first.code).seen
    revoke_join_code(store, admin, first.seen)  # tab two
    with pytest.raises(ChangedMeanwhileError):
        revoke_join_code(store, admin, seen_in_tab_one)
    revoked = {code.code: code.revoked_at is not None for code in codes_in(store, EVERY_STORE)}
    assert revoked == {first.code: True, second.code: False}
    assert actions(store, "join_code_revoked") == [("supA", "join_code_revoked", first.code)]


def test_renaming_is_audited_and_a_store_renamed_meanwhile_is_refused(store, world):
    admin, shibuya, osaka = world
    seen_in_tab_one = shibuya.seen
    rename_store(store, shibuya.seen, "Shibuya East", admin)  # tab two
    with pytest.raises(ChangedMeanwhileError):
        rename_store(store, seen_in_tab_one, "Shibuya West", admin)
    assert sorted(info.name for info in list_stores(store)) == ["Osaka", "Shibuya East"]
    rows = [(e.actor, e.target, e.store_id, e.detail) for e in audit.entries(store, EVERY_STORE)
            if e.action == "store_renamed"]
    assert rows == [("supA", "Shibuya East", shibuya.id, {"from": "Shibuya"})]


def test_moving_a_trainee_moved_meanwhile_is_refused(store, world):
    admin, shibuya, osaka = world
    aiko = store.trainee("Aiko")
    seen_in_tab_one = trainee_seen(aiko)
    move_trainee(store, admin, trainee_seen(aiko), shibuya.id)  # tab two
    with pytest.raises(ChangedMeanwhileError):
        move_trainee(store, admin, seen_in_tab_one, osaka.id)
    assert store.find_trainee("Aiko").store_id == shibuya.id
    assert actions(store, "trainee_moved") == [("supA", "trainee_moved", "Aiko")]


def test_a_row_of_one_table_is_not_taken_for_another(store, world):
    admin, shibuya, _ = world
    with pytest.raises(ValueError):
        disable_account(store, shibuya.seen, admin)
    assert not any(states(store).values())
