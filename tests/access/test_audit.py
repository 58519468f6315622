"""The audit log: a PIN reset and a lock lifted name the account that did them, in the same
transaction; rows are read by scope; the CSV export is the safe one."""

from __future__ import annotations

import pytest

from quiz.access.accounts import LOCK_AFTER, add_trainee, lift_lockout, name_throttles, set_pin, sign_in
from quiz.access.stores import create_store, move_trainee, trainee_seen
from quiz.access.supervisors import create_account
from quiz.access.throttles import LoginThrottle
from quiz.db import audit
from quiz.report.csv_export import csv_bytes
from tests.fake_clock import FakeClock

PASSWORD = "店長-password-1"


@pytest.fixture
def world(store):
    admin = create_account(store, "Owner", PASSWORD, "admin", None, None)
    shibuya, osaka = create_store(store, "Shibuya", admin), create_store(store, "Osaka", admin)
    tencho = create_account(store, "Tencho", PASSWORD, "supervisor", shibuya.id, admin)
    aiko = add_trainee(store, "Aiko", "2468")
    move_trainee(store, admin, trainee_seen(aiko), shibuya.id)
    return admin, shibuya, osaka, tencho, aiko


def test_a_pin_reset_names_the_account(store, world):
    admin, shibuya, _, tencho, aiko = world
    set_pin(store, aiko.id, "8642", tencho)
    rows = [e for e in audit.entries(store, tencho.scope()) if e.action == "pin_reset"]
    assert [(e.account_id, e.actor, e.target, e.store_id) for e in rows] == [(tencho.id, "Tencho", "Aiko", shibuya.id)]


def test_a_lock_lifted_names_the_account_and_nothing_lifted_records_nothing(store, world):
    _, shibuya, _, tencho, aiko = world
    assert not lift_lockout(store, aiko.id, tencho)
    clock = FakeClock()
    names = name_throttles(clock)
    for _ in range(LOCK_AFTER):
        sign_in(store, "Aiko", "0000", names, LoginThrottle(clock))
        clock.advance(120.0)
    assert lift_lockout(store, aiko.id, tencho, names)
    rows = [e for e in audit.entries(store, tencho.scope()) if e.action == "lock_lifted"]
    assert [(e.actor, e.target, e.store_id) for e in rows] == [("Tencho", "Aiko", shibuya.id)]


def test_the_command_line_is_recorded_as_the_system(store, world):
    admin, *_, aiko = world
    set_pin(store, aiko.id, "8642", None)
    assert [e.actor for e in audit.entries(store, admin.scope()) if e.action == "pin_reset"] == [audit.SYSTEM]


def test_a_password_change_is_recorded_and_a_rehash_is_not(store, world):
    """Finding L3: a supervisor's password change (theirs, or the console's) left no row."""
    from quiz.access.supervisors import change_password, set_password

    admin, shibuya, _, tencho, _ = world
    assert change_password(store, tencho, PASSWORD, "another-password-2", LoginThrottle())
    set_password(store, tencho.id, "third-password-3")
    rows = [(e.actor, e.target, e.store_id) for e in audit.entries(store, admin.scope()) if e.action == "password_changed"]
    assert rows == [(audit.SYSTEM, "Tencho", shibuya.id), ("Tencho", "Tencho", shibuya.id)]  # newest first


def test_a_failed_act_leaves_no_row(store, world):
    admin, *_, aiko = world
    with pytest.raises(ValueError):
        set_pin(store, aiko.id, "1", admin)
    assert not [e for e in audit.entries(store, admin.scope()) if e.action == "pin_reset"]


def test_entries_are_read_by_scope_and_export_as_safe_csv(store, world):
    admin, shibuya, osaka, tencho, _ = world
    audit.record(store, admin, "pack_imported", "=HYPERLINK(evil)", osaka.id, {"files": 2})
    assert all(e.store_id == shibuya.id for e in audit.entries(store, tencho.scope()))
    assert [e.target for e in audit.entries(store, admin.scope(osaka.id))] == ["=HYPERLINK(evil)", "Osaka"]
    text = csv_bytes(audit.entries_frame(audit.entries(store, admin.scope(osaka.id)))).decode("utf-8-sig")
    assert "'=HYPERLINK(evil)" in text and "files=2" in text and "Owner" in text
    with pytest.raises(ValueError):
        audit.record(store, admin, "made_up", "x", None)  # type: ignore[arg-type]
