"""Trainee PINs: the rules a PIN must meet, and storing it as a salted scrypt hash.

Every PIN is 4 to 64 characters (after NFKC); a NEW one (a trainee added, a PIN changed or
replaced) must also not be one character repeated or a straight run like ``1234``/``9876``
(``check_new_pin``): PINs set before that rule keep working. Longer input than
``PIN_INPUT_MAX`` is refused before it is even normalised, so an 8 MiB "PIN" sent over the
websocket costs nothing.

A stored hash reads ``scrypt$<n>$<r>$<p>$<salt>$<key>`` (salt and key in URL-safe base64),
so the cost can be raised later and older hashes still check. PINs are compared through
their derived keys in constant time; the PIN itself is never stored or logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata
from concurrent.futures import ThreadPoolExecutor

from quiz.model.errors import PinRuleError

PIN_MIN = 4
PIN_MAX = 64
PIN_INPUT_MAX = 4 * PIN_MAX  # characters as typed (NFKC may shorten them to PIN_MAX); longer is refused unread
SCHEME = "scrypt"
COST_N, BLOCK_R, PARALLEL_P = 2**14, 8, 1  # about 16 MB and tens of milliseconds per check
KEY_BYTES = 32
SALT_BYTES = 16
# Every derivation runs on this one thread: each takes 16 MB, and the C allocator keeps
# such blocks in the arena of the thread that used them, so twenty sessions signing in at
# once on twenty threads would leave the server 300 MB bigger for good.
_DERIVER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pin-scrypt")


def normalise_pin(pin: str) -> str:
    """The PIN as compared: Unicode NFKC, so full-width digits equal ASCII ones."""
    return unicodedata.normalize("NFKC", pin)


def same_pin(pin: str, again: str) -> bool:
    """Whether a PIN typed twice is the same PIN as sign-in compares it (``１２３４`` is ``1234``)."""
    return normalise_pin(pin) == normalise_pin(again)


def check_pin_rule(pin: str) -> str:
    """The normalised PIN, or ``PinRuleError`` when it is not 4 to 64 characters."""
    if len(pin) > PIN_INPUT_MAX:
        raise PinRuleError("too_long", f"a PIN has at most {PIN_MAX} characters")
    normal = normalise_pin(pin)
    if len(normal) < PIN_MIN:
        raise PinRuleError("too_short", f"a PIN needs at least {PIN_MIN} characters")
    if len(normal) > PIN_MAX:
        raise PinRuleError("too_long", f"a PIN has at most {PIN_MAX} characters")
    return normal


def check_new_pin(pin: str) -> str:
    """``check_pin_rule``, and for a PIN being set: ``PinRuleError("weak")`` when it is one
    character repeated (``0000``, ``１１１１``) or a straight run up or down (``1234``, ``9876``,
    ``abcd``), the guesses an attacker tries first."""
    normal = check_pin_rule(pin)
    if is_weak_pin(normal):
        raise PinRuleError("weak", "a PIN of one repeated character or a straight run (like 1234) is too easy to guess")
    return normal


def is_weak_pin(normal: str) -> bool:
    """Whether a normalised PIN is one character repeated or a straight run (steps of +1 or -1)."""
    folded = normal.casefold()
    steps = {ord(b) - ord(a) for a, b in zip(folded, folded[1:])}
    return steps in ({0}, {1}, {-1})


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """The stored form of a PIN that meets the rule (a fresh random salt unless given)."""
    normal = check_pin_rule(pin)
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = _derive(normal, salt, COST_N, BLOCK_R, PARALLEL_P)
    return "$".join((SCHEME, str(COST_N), str(BLOCK_R), str(PARALLEL_P), _encode(salt), _encode(key)))


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the PIN behind ``stored``; False for a malformed ``stored``, and for
    input longer than any PIN (without deriving anything)."""
    if len(pin) > PIN_INPUT_MAX:
        return False
    try:
        scheme, n, r, p, salt, key = stored.split("$")
        if scheme != SCHEME:
            return False
        expected = _decode(key)
        given = _derive(normalise_pin(pin), _decode(salt), int(n), int(r), int(p))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(given, expected)


def _derive(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return _DERIVER.submit(_scrypt, pin.encode("utf-8"), salt, n, r, p).result()


def _scrypt(secret: bytes, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(secret, salt=salt, n=n, r=r, p=p, maxmem=64 * 2**20, dklen=KEY_BYTES)


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii")


def _decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text.encode("ascii"))
