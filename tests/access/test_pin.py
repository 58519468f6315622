"""PINs: the length rule, salted scrypt hashes, and matching."""

from __future__ import annotations

import pytest

from quiz.access.pins import PIN_MAX, PIN_MIN, PinRuleError, check_new_pin, check_pin_rule, hash_pin, pin_matches


def test_a_pin_matches_its_own_hash_only():
    stored = hash_pin("2468")
    assert pin_matches("2468", stored)
    assert not pin_matches("2467", stored)
    assert not pin_matches("24680", stored)
    assert not pin_matches("", stored)


def test_the_hash_holds_neither_the_pin_nor_a_repeatable_value():
    first, second = hash_pin("2468"), hash_pin("2468")
    assert "2468" not in first
    assert first != second  # a fresh salt each time
    assert pin_matches("2468", second)


@pytest.mark.real_hash_costs
def test_the_same_salt_gives_the_same_hash():
    salt = bytes(range(16))
    assert hash_pin("2468", salt) == hash_pin("2468", salt)
    assert hash_pin("2468", salt).split("$")[:4] == ["scrypt", "16384", "8", "1"]


def test_full_width_digits_equal_ascii_ones():
    # a Japanese keyboard in full-width mode types ２４６８
    assert pin_matches("２４６８", hash_pin("2468"))


@pytest.mark.parametrize("pin, rule", [("", "too_short"), ("123", "too_short"), ("x" * (PIN_MAX + 1), "too_long")])
def test_pins_outside_the_length_rule_are_refused(pin, rule):
    with pytest.raises(PinRuleError) as caught:
        hash_pin(pin)
    assert caught.value.rule == rule


def test_the_length_rule_bounds_are_allowed():
    assert check_pin_rule("1" * PIN_MIN) == "1" * PIN_MIN
    assert pin_matches("あ" * PIN_MAX, hash_pin("あ" * PIN_MAX))


@pytest.mark.parametrize("stored", ["", "plain-text-pin", "md5$abc", "scrypt$x$8$1$AAAA$AAAA", "scrypt$16384$8$1$%%%$AAAA"])
def test_a_malformed_stored_hash_matches_nothing(stored):
    assert not pin_matches("2468", stored)


def test_checks_from_many_threads_all_run_on_one_worker_thread(monkeypatch):
    """Each derivation takes 16 MB, which the allocator keeps per thread: one thread only."""
    import threading

    from quiz.access import pins as pin

    stored = hash_pin("2468")
    seen: set[str] = set()
    original = pin._scrypt

    def spy(*args):
        seen.add(threading.current_thread().name)
        return original(*args)

    monkeypatch.setattr(pin, "_scrypt", spy)
    results: list[bool] = []
    threads = [threading.Thread(target=lambda: results.append(pin_matches("2468", stored))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * 8
    assert len(seen) == 1 and next(iter(seen)).startswith("pin-scrypt")


@pytest.mark.parametrize("pin", ["0000", "1111", "1234", "4321", "0123", "9876", "123456", "１２３４", "aaaa", "abcd", "ＡＢＣＤ"])
def test_a_new_pin_too_easy_to_guess_is_refused(pin):
    with pytest.raises(PinRuleError) as caught:
        check_new_pin(pin)
    assert caught.value.rule == "weak"


@pytest.mark.parametrize("pin", ["2468", "1357", "1122", "9753", "8642", "5820", "1243", "0987", "kenji-1357"])
def test_other_new_pins_are_accepted(pin):
    assert check_new_pin(pin) == pin


def test_a_weak_pin_set_before_the_rule_still_matches():
    assert pin_matches("1111", hash_pin("1111"))  # the strength rule is for new PINs only


def test_input_longer_than_any_pin_is_refused_unread(monkeypatch):
    from quiz.access import pins as pin

    stored = hash_pin("2468")
    monkeypatch.setattr(pin, "_scrypt", lambda *args: pytest.fail("derived a key from oversized input"))
    huge = "2" * (8 * 2**20)
    assert not pin_matches(huge, stored)
    with pytest.raises(PinRuleError) as caught:
        check_pin_rule(huge)
    assert caught.value.rule == "too_long"
    assert pin.PIN_INPUT_MAX >= 4 * PIN_MAX  # decomposed kana still fit before NFKC
