"""OpenID Connect links: an account linked to one provider subject is found by it (unless
disabled), the link is audited, and a subject opens at most one account."""

from __future__ import annotations

import pytest

from quiz.access.oidc_links import account_for_oidc, link_oidc
from quiz.access.stores import create_store
from quiz.access.supervisors import account, create_account, disable_account
from quiz.db import audit
from quiz.model.errors import AccountError, NameTakenError
from tests.scopes import EVERY_STORE

ISSUER = "https://id.example.org"
OTHER_ISSUER = "https://other.example.org"


@pytest.fixture
def accounts(store):
    shop = create_store(store, "Shibuya", None)
    admin = create_account(store, "Owner", "owner-pass-1", "admin", None, None)
    tencho = create_account(store, "Tencho", "tencho-pass", "supervisor", shop.id, admin)
    return admin, tencho


def test_a_linked_subject_opens_its_account_only_at_its_issuer(store, accounts):
    admin, tencho = accounts
    assert account_for_oidc(store, ISSUER, "alice") is None
    assert link_oidc(store, "tencho", ISSUER, "alice", admin) == tencho  # any case of the name
    assert account_for_oidc(store, ISSUER, "alice") == tencho
    assert account_for_oidc(store, OTHER_ISSUER, "alice") is None  # the same sub elsewhere is someone else
    assert account_for_oidc(store, ISSUER, "alice2") is None
    [row] = [e for e in audit.entries(store, EVERY_STORE) if e.action == "account_linked"]
    assert (row.actor, row.target, row.store_id) == (admin.name, "Tencho", tencho.store_id)
    assert row.detail == {"subject": f"{ISSUER} alice"}


def test_linking_again_replaces_the_link_and_a_subject_opens_one_account(store, accounts):
    admin, tencho = accounts
    link_oidc(store, "Tencho", ISSUER, "alice", None)
    link_oidc(store, "Tencho", ISSUER, "alice-new", None)
    assert account_for_oidc(store, ISSUER, "alice") is None
    assert account_for_oidc(store, ISSUER, "alice-new") == tencho
    with pytest.raises(NameTakenError):
        link_oidc(store, "Owner", ISSUER, "alice-new", None)
    assert account_for_oidc(store, ISSUER, "alice-new") == tencho


def test_a_disabled_account_is_not_opened_by_its_subject(store, accounts):
    _, tencho = accounts
    link_oidc(store, "Tencho", ISSUER, "alice", None)
    disable_account(store, account(store, "Tencho").seen, None)
    assert account_for_oidc(store, ISSUER, "alice") is None


@pytest.mark.parametrize(("name", "issuer", "sub", "rule"), [
    ("Nobody", ISSUER, "alice", "unknown"),
    ("Tencho", "", "alice", "oidc"),
    ("Tencho", ISSUER, " ", "oidc"),
    ("Tencho", ISSUER, "x" * 300, "oidc"),
])
def test_a_link_is_refused_without_an_account_issuer_or_subject(store, accounts, name, issuer, sub, rule):
    with pytest.raises(AccountError) as refused:
        link_oidc(store, name, issuer, sub, None)
    assert refused.value.rule == rule
    assert not [e for e in audit.entries(store, EVERY_STORE) if e.action == "account_linked"]
