"""Supervisor accounts: argon2 hashes, roles, sign-in throttled per account in the database,
unknown names on the same path, the first admin made once from the old shared password."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from quiz.access import supervisors
from quiz.access.stores import create_store
from quiz.access.supervisors import (
    ACCOUNT_POLICY,
    PASSWORD_ENV,
    PASSWORD_MAX,
    PASSWORD_SECRET,
    accounts,
    change_password,
    configured_password,
    create_account,
    credential_version,
    disable_account,
    has_admin,
    sign_in,
)
from quiz.access.throttles import LoginThrottle
from quiz.db import audit
from quiz.db.tables import supervisor_accounts
from quiz.model.errors import AccountError, NameRuleError, NameTakenError
from quiz.model.scope import Supervisor
from tests.access.cheap_hash import CHEAP
from tests.fake_clock import FakeClock

PASSWORD = "店長-password-1"
SHARED = "old shared password"


@pytest.fixture
def shop(store):
    return create_store(store, "Shibuya", None)


def test_environment_wins_over_secrets():
    assert configured_password({PASSWORD_ENV: "env-pw"}, {PASSWORD_SECRET: "secret-pw"}) == "env-pw"
    assert configured_password({}, {PASSWORD_SECRET: "secret-pw"}) == "secret-pw"


@pytest.mark.parametrize("environ, secrets", [({}, {}), ({PASSWORD_ENV: ""}, {}), ({PASSWORD_ENV: "  "}, {PASSWORD_SECRET: 1})])
def test_missing_or_blank_password_is_not_configured(environ, secrets):
    assert configured_password(environ, secrets) is None


def test_the_password_is_stored_as_an_argon2id_hash_never_itself(store, shop):
    made = create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    with store.engine.connect() as conn:
        stored = conn.execute(select(supervisor_accounts.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert made == Supervisor(made.id, "Tencho", "supervisor", shop.id)


def test_roles_and_stores_go_together(store, shop):
    with pytest.raises(AccountError) as no_store:
        create_account(store, "A", PASSWORD, "supervisor", None, None)
    assert no_store.value.rule == "store"
    with pytest.raises(AccountError):
        create_account(store, "B", PASSWORD, "admin", shop.id, None)
    with pytest.raises(AccountError) as role:
        create_account(store, "C", PASSWORD, "owner", None, None)  # type: ignore[arg-type]
    assert role.value.rule == "role"
    with pytest.raises(AccountError) as short:
        create_account(store, "D", "short", "admin", None, None)
    assert short.value.rule == "password_short"
    with pytest.raises(NameRuleError):
        create_account(store, "Tencho\u200b", PASSWORD, "admin", None, None)


def test_a_canonical_name_has_one_account(store, shop):
    create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    with pytest.raises(NameTakenError):
        create_account(store, "ＴＥＮＣＨＯ", PASSWORD, "admin", None, None)


def test_sign_in_by_canonical_name_gives_the_supervisor_and_its_credential(store, shop):
    made = create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    signed = sign_in(store, " tencho ", PASSWORD, LoginThrottle())
    assert signed.supervisor == made and signed.credential == credential_version(store, made.id)
    assert sign_in(store, "Tencho", PASSWORD + "x", LoginThrottle(FakeClock())).supervisor is None


def test_wrong_passwords_are_throttled_per_account_in_the_database(store, shop):
    clock = FakeClock()
    create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    create_account(store, "Fuku", PASSWORD, "supervisor", shop.id, None)
    wrong = sign_in(store, "Tencho", "guess-guess", LoginThrottle(clock), clock=clock)
    assert wrong.supervisor is None and wrong.retry_after == 1.0
    # a fresh session, even with the right password: the account's wait holds
    assert sign_in(store, "Tencho", PASSWORD, LoginThrottle(clock), clock=clock).throttled
    # another account is not held back
    assert sign_in(store, "Fuku", PASSWORD, LoginThrottle(clock), clock=clock).supervisor is not None
    clock.advance(1.0)
    assert sign_in(store, "Tencho", PASSWORD, LoginThrottle(clock), clock=clock).supervisor is not None


def test_the_account_throttle_fades_and_never_locks():
    assert ACCOUNT_POLICY.half_life == 30.0 and ACCOUNT_POLICY.lock_after is None


def test_an_unknown_name_takes_the_same_path_as_a_wrong_password(store, shop, monkeypatch):
    create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    verified: list[str] = []
    real = supervisors._verify
    monkeypatch.setattr(supervisors, "_verify", lambda stored, given: verified.append(stored) or real(stored, given))
    clock = FakeClock()
    known = sign_in(store, "Tencho", "guess-guess", LoginThrottle(clock), clock=clock)
    unknown = sign_in(store, "Nobody", "guess-guess", LoginThrottle(clock), clock=clock)
    assert len(verified) == 2 and all(hashed.startswith("$argon2id$") for hashed in verified)
    assert known == unknown  # same answer, same wait: the form tells no one which names exist
    assert sign_in(store, "Nobody", "guess-guess", LoginThrottle(clock), clock=clock).throttled


def test_a_password_longer_than_the_limit_is_refused_unhashed(store, monkeypatch):
    monkeypatch.setattr(supervisors, "_verify", lambda *a: pytest.fail("hashed"))
    assert sign_in(store, "Tencho", "x" * (PASSWORD_MAX + 1), LoginThrottle()).too_long


def test_the_shared_password_makes_the_first_admin_once_then_is_refused(store):
    assert not has_admin(store)
    first = sign_in(store, "Admin", SHARED, LoginThrottle(), bootstrap=SHARED)
    assert first.bootstrapped and first.supervisor is not None and first.supervisor.is_admin
    assert has_admin(store)
    made = [e for e in audit.entries(store, first.supervisor.scope()) if e.action == "account_made"]
    assert [(e.actor, e.target, e.detail) for e in made] == [(audit.SYSTEM, "admin", {"role": "admin", "how": "shared password"})]
    # the admin changes the password: the shared one opens nothing more, and says so
    assert change_password(store, first.supervisor, SHARED, "a new admin password", LoginThrottle())
    clock = FakeClock()
    again = sign_in(store, "admin", SHARED, LoginThrottle(clock), bootstrap=SHARED, clock=clock)
    assert again.supervisor is None and again.shared_password and not again.bootstrapped
    assert len(accounts(store)) == 1
    clock.advance(2.0)
    other = sign_in(store, "someone", SHARED, LoginThrottle(clock), bootstrap=SHARED, clock=clock)
    assert other.supervisor is None and other.shared_password


def test_the_shared_password_makes_no_admin_under_another_name_or_once_an_admin_exists(store):
    assert sign_in(store, "root", SHARED, LoginThrottle(), bootstrap=SHARED).supervisor is None
    create_account(store, "Owner", PASSWORD, "admin", None, None)
    assert sign_in(store, "admin", SHARED, LoginThrottle(FakeClock()), bootstrap=SHARED).supervisor is None
    assert [a.supervisor.name for a in accounts(store)] == ["Owner"]


def test_changing_the_password_ends_other_sessions(store, shop):
    made = create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    before = credential_version(store, made.id)
    clock = FakeClock()
    assert not change_password(store, made, "wrong-current", "another password", LoginThrottle(clock), clock=clock)
    assert credential_version(store, made.id) == before
    with pytest.raises(AccountError):
        change_password(store, made, PASSWORD, "short", LoginThrottle(clock), clock=clock)
    clock.advance(5.0)
    assert change_password(store, made, PASSWORD, "another password", LoginThrottle(clock), clock=clock)
    assert credential_version(store, made.id) not in (None, before)
    assert sign_in(store, "Tencho", "another password", LoginThrottle(clock), clock=clock).supervisor == made


def test_a_disabled_account_signs_in_no_more_and_the_last_admin_stays(store, shop):
    admin = create_account(store, "Owner", PASSWORD, "admin", None, None)
    made = create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, admin)
    disable_account(store, supervisors.account(store, "Tencho").seen, admin)
    assert credential_version(store, made.id) is None
    assert sign_in(store, "Tencho", PASSWORD, LoginThrottle()).supervisor is None
    with pytest.raises(AccountError) as last:
        disable_account(store, supervisors.account(store, "Owner").seen, admin)
    assert last.value.rule == "last_admin"


def test_an_old_hash_is_rehashed_with_todays_parameters(store, shop, monkeypatch):
    made = create_account(store, "Tencho", PASSWORD, "supervisor", shop.id, None)
    stronger = supervisors.PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    monkeypatch.setattr(supervisors, "hasher", lambda: stronger)
    before = credential_version(store, made.id)
    assert sign_in(store, "Tencho", PASSWORD, LoginThrottle()).supervisor == made
    with store.engine.connect() as conn:
        stored = conn.execute(select(supervisor_accounts.c.password_hash)).scalar_one()
    assert not stronger.check_needs_rehash(stored) and CHEAP.check_needs_rehash(stored)
    assert credential_version(store, made.id) == before  # a rehash ends no session
