"""One canonical form of a trainee name, used for uniqueness, signing in and the throttle;
look-alike names refused (new); server-side length limits on every text the
sign-in, new-trainee, change-PIN and supervisor forms accept, checked before any work."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from quiz.access import pins as pin_module
from quiz.access import supervisors
from quiz.access.accounts import (
    NameTakenError,
    add_trainee,
    change_pin,
    name_throttles,
    sign_in,
    throttle_key,
)
from quiz.access.pins import PinRuleError
from quiz.access.throttles import LoginThrottle
from quiz.model.errors import NameRuleError
from quiz.model.names import name_key, valid_name
from tests.scopes import EVERY_STORE

PIN = "2468"
HUGE = "x" * (8 * 2**20)  # 8 MiB, as a websocket client can send it


def test_case_width_and_spaces_give_one_key():
    keys = {name_key(name) for name in ("Alice", "ALICE", "alice", "Ａｌｉｃｅ", "Ａlice", "  Alice ")}
    assert keys == {"alice"}
    assert name_key("Aiko  Tanaka") == name_key("aiko\u3000tanaka") == "aiko tanaka"  # ideographic space
    assert name_key("ﾀﾅｶ") == name_key("タナカ")  # half-width katakana
    assert throttle_key("ＡＬＩＣＥ") == name_key("alice")


@pytest.mark.parametrize("taken", ["ALICE", "alice", "Ａlice", " Alice  ", "ａｌｉｃｅ"])
def test_a_name_differing_only_in_case_or_width_is_taken(store, taken):
    alice = add_trainee(store, "Alice", PIN)
    with pytest.raises(NameTakenError):
        add_trainee(store, taken, "5820")
    assert store.trainees(EVERY_STORE) == [alice]


@pytest.mark.parametrize("typed", ["Alice", "ALICE", "alice", "Ａlice", " ａｌｉｃｅ "])
def test_signing_in_finds_the_account_by_its_canonical_name(store, typed):
    alice = add_trainee(store, "Alice", PIN)
    assert sign_in(store, typed, PIN, name_throttles(), LoginThrottle()).trainee == alice
    assert store.find_trainee(typed) == alice
    assert store.trainee(typed) == alice  # got, not made again


@pytest.mark.parametrize(
    "name, rule",
    [
        ("Alice\u200b", "invisible"),  # zero-width space
        ("Al\u200dice", "invisible"),  # zero-width joiner
        ("\u202eecilA", "invisible"),  # right-to-left override
        ("Alice\u2066", "invisible"),  # left-to-right isolate
        ("Ali\u00adce", "invisible"),  # soft hyphen
        ("Alice\tB", "invisible"),  # a control character
        ("\ufeffAlice", "invisible"),  # byte order mark
        ("Alic\u0435", "mixed_script"),  # Cyrillic е
        ("\u0410lice", "mixed_script"),  # Cyrillic А
        ("Al\u03b9ce", "mixed_script"),  # Greek ι
        ("Bob Alic\u0435", "mixed_script"),  # one word of two is mixed
        ("x" * 61, "length"),
        ("   ", "length"),
    ],
)
def test_look_alike_and_hidden_names_are_refused_with_a_reason(store, name, rule):
    with pytest.raises(NameRuleError) as caught:
        add_trainee(store, name, PIN)
    assert caught.value.rule == rule
    assert str(caught.value)  # a message for the log and the CLI
    with pytest.raises(NameRuleError):
        store.trainee(name)
    assert store.trainees(EVERY_STORE) == []


@pytest.mark.parametrize(
    "name",
    ["山田 太郎", "やまだ たろう", "ヤマダ・タロウ", "田中さん", "Tシャツ太郎", "田中2号", "O'Brien", "Jean-Luc Picard",
     "Müller", "Сергей Петров", "Ελένη", "김민준", "x" * 60],
)
def test_real_names_of_many_scripts_are_kept(store, name):
    assert valid_name(name) == name
    assert add_trainee(store, name, PIN).name == name


def test_a_name_too_long_once_normalised_is_refused():
    with pytest.raises(NameRuleError) as caught:
        valid_name("\ufdfa" * 12)  # one character, 18 once normalised
    assert caught.value.rule == "length"


# --- server-side length limits, before any hashing or database work ------------------------------


@pytest.fixture
def work(store, monkeypatch):
    """Counts of scrypt derivations and SQL statements while the test runs."""
    counts = {"scrypt": 0, "sql": 0}
    original = pin_module._scrypt

    def counting(*args):
        counts["scrypt"] += 1
        return original(*args)

    def statement(*_args):
        counts["sql"] += 1

    monkeypatch.setattr(pin_module, "_scrypt", counting)
    event.listen(store.engine, "before_cursor_execute", statement)
    yield counts
    event.remove(store.engine, "before_cursor_execute", statement)


def test_an_8_mib_name_is_refused_at_sign_in_without_hashing_or_sql(store, work):
    result = sign_in(store, HUGE, PIN, name_throttles(), LoginThrottle())
    assert result.trainee is None and result.too_long
    assert work == {"scrypt": 0, "sql": 0}


def test_an_8_mib_pin_is_refused_at_sign_in_without_hashing_or_sql(store, work):
    result = sign_in(store, "Aiko", HUGE, name_throttles(), LoginThrottle())
    assert result.trainee is None and result.too_long
    assert work == {"scrypt": 0, "sql": 0}


def test_an_8_mib_name_or_pin_adds_no_trainee_without_hashing(store, work):
    with pytest.raises(NameRuleError):
        add_trainee(store, HUGE, PIN)
    with pytest.raises(PinRuleError) as caught:
        add_trainee(store, "Aiko", HUGE)
    assert caught.value.rule == "too_long"
    with pytest.raises(NameRuleError):
        store.trainee(HUGE)
    assert store.find_trainee(HUGE) is None
    assert work == {"scrypt": 0, "sql": 0}


def test_an_8_mib_pin_change_is_refused_without_hashing_or_sql(store, work):
    aiko = add_trainee(store, "Aiko", PIN)
    work.update(scrypt=0, sql=0)  # counted from here
    with pytest.raises(PinRuleError):
        change_pin(store, aiko, PIN, HUGE, name_throttles(), LoginThrottle())
    refused = change_pin(store, aiko, HUGE, "5820", name_throttles(), LoginThrottle())
    assert not refused.unlocked and refused.too_long
    assert work == {"scrypt": 0, "sql": 0}


def test_an_8_mib_supervisor_name_or_password_is_refused_without_hashing_or_sql(store, work, monkeypatch):
    hashed = []
    monkeypatch.setattr(supervisors, "_verify", lambda *a: hashed.append(1) or False)
    for name, password in ((HUGE, "right-password"), ("Tencho", HUGE)):
        result = supervisors.sign_in(store, name, password, LoginThrottle(), bootstrap="right-password")
        assert result.supervisor is None and result.too_long
    assert hashed == [] and work["sql"] == 0
