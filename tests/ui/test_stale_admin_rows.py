"""Two admin tabs on the Stores page (two AppTest sessions, both databases): the second acts on
a row, the first, still showing that row picked, presses the same button: "this changed
meanwhile", and no other row is touched (before, the first tab's picker fell back to its first
option and the act hit another account or code, unaudited). A disabled account is enabled
again on the page."""

from __future__ import annotations

import pytest

from quiz.access.stores import codes_in, create_store, list_stores, make_join_code
from quiz.access.supervisors import account, accounts
from quiz.db import audit
from tests.scopes import EVERY_STORE
from tests.ui import supervisor

STORES = "quiz/ui/pages/stores.py"
PASSWORD = "店長-gate-pass"
CHANGED = "This changed meanwhile"


@pytest.fixture(autouse=True)
def gate(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


def two_tabs(open_app):
    return [supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD) for _ in range(2)]


def states(store) -> dict[str, bool]:
    return {found.supervisor.name: found.disabled for found in accounts(store)}


def test_a_stale_disable_is_refused_and_no_other_account_is_disabled(open_app, store):
    supervisor.make_account(PASSWORD)  # Tencho, the admin in both tabs
    shibuya = create_store(store, "Shibuya", None)
    supervisor.make_account("supA password", name="supA")  # another admin: first in the picker
    for name in ("tmpone", "tmptwo"):
        supervisor.make_account("temp password", name=name, role="supervisor", store_id=shibuya.id)
    tmptwo = account(store, "tmptwo").supervisor.id
    one, two = two_tabs(open_app)
    one.selectbox(key="account-pick").set_value(tmptwo).run()
    two.selectbox(key="account-pick").set_value(tmptwo).run()
    two.button(key="account-disable").click().run()
    assert "Account tmptwo disabled: it signs in no more." in [s.value for s in two.success]
    one.button(key="account-disable").click().run()  # tab one still shows tmptwo enabled
    assert any(CHANGED in e.value for e in one.error), [e.value for e in one.error]
    assert states(store) == {"supA": False, "Tencho": False, "tmpone": False, "tmptwo": True}
    assert [e.target for e in audit.entries(store, EVERY_STORE) if e.action == "account_disabled"] == ["tmptwo"]
    assert one.selectbox(key="account-pick").value == tmptwo  # redrawn as it is now: enable it again
    one.button(key="account-enable").click().run()
    assert "Account tmptwo enabled again: it signs in with its password." in [s.value for s in one.success]
    assert not any(states(store).values())
    two.button(key="account-enable").click().run()  # tab two still shows tmptwo disabled
    assert any(CHANGED in e.value for e in two.error)
    assert not any(states(store).values())
    rows = [(e.actor, e.action, e.target) for e in audit.entries(store, EVERY_STORE)
            if e.action in ("account_disabled", "account_enabled")]
    assert rows == [("Tencho", "account_enabled", "tmptwo"), ("Tencho", "account_disabled", "tmptwo")]


def test_a_stale_revoke_is_refused_and_no_other_code_is_revoked(open_app, store):
    admin = supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", None)
    first, second = make_join_code(store, admin, shibuya.id), make_join_code(store, admin, shibuya.id)
    one, two = two_tabs(open_app)
    for tab in (one, two):
        tab.selectbox(key="join-code-revoke-pick").set_value(second.code).run()
    two.button(key="join-code-revoke").click().run()
    assert f"Code {second.code} revoked." in [s.value for s in two.success]
    one.button(key="join-code-revoke").click().run()
    assert any(CHANGED in e.value for e in one.error), [e.value for e in one.error]
    revoked = {code.code: code.revoked_at is not None for code in codes_in(store, EVERY_STORE)}
    assert revoked == {first.code: False, second.code: True}
    assert [e.target for e in audit.entries(store, EVERY_STORE) if e.action == "join_code_revoked"] == [second.code]


def test_a_stale_rename_is_refused_and_a_rename_is_audited(open_app, store):
    supervisor.make_account(PASSWORD)
    osaka, shibuya = create_store(store, "Osaka", None), create_store(store, "Shibuya", None)
    one, two = two_tabs(open_app)
    for tab, name in ((one, "Shibuya West"), (two, "Shibuya East")):
        tab.selectbox(key="store-rename-pick").set_value(shibuya.id)
        tab.text_input(key="store-rename-name").input(name)
    two.button(key="store-rename-submit").click().run()
    assert "Store renamed to Shibuya East." in [s.value for s in two.success]
    one.button(key="store-rename-submit").click().run()
    assert any(CHANGED in e.value for e in one.error), [e.value for e in one.error]
    assert sorted(info.name for info in list_stores(store)) == ["Osaka", "Shibuya East"]
    rows = [(e.actor, e.target, e.store_id, e.detail) for e in audit.entries(store, EVERY_STORE)
            if e.action == "store_renamed"]
    assert rows == [("Tencho", "Shibuya East", shibuya.id, {"from": "Shibuya"})] and osaka.id != shibuya.id


def test_the_japanese_page_says_it_changed_meanwhile(open_app, store):
    admin = supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", None)
    code = make_join_code(store, admin, shibuya.id)
    one, two = [supervisor.unlock(open_app(trainee=None, lang="ja", page=STORES), PASSWORD) for _ in range(2)]
    two.button(key="join-code-revoke").click().run()
    one.button(key="join-code-revoke").click().run()
    assert any("表示の後に変更されました" in e.value for e in one.error), [e.value for e in one.error]
    assert [e.target for e in audit.entries(store, EVERY_STORE) if e.action == "join_code_revoked"] == [code.code]
