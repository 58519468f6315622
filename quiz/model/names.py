"""The rules of a trainee's name: what a new name may hold, and its canonical form.

Pure functions of a string. ``quiz.access`` owns accounts and sign-in, but ``quiz.db``
needs the same rules where it creates a trainee and keys the name (``Store.trainee``), and
the stages only import downwards (access sits above db), so the rules live here, below both.
"""

from __future__ import annotations

import unicodedata

from quiz.model.errors import NameRuleError

NAME_MAX = 60  # characters of a trainee's name, stripped
NAME_KEY_MAX = 200  # characters of its canonical form (NFKC expands a few characters)
NAME_INPUT_MAX = 4 * NAME_MAX  # characters looked at: longer input is refused before any other work
# Control, format (zero-width, bidi controls, soft hyphen, BOM), surrogate, private-use and
# unassigned characters, and line/paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Scripts written together in one word in East Asian names (Japanese mixes Han, hiragana,
# katakana and Latin letters); any other two scripts in one word are refused.
_EAST_ASIAN_SCRIPTS = frozenset({"Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"})
_SCRIPT_OF_PREFIX = {"CJK": "Han", "IDEOGRAPHIC": "Han", "KATAKANA-HIRAGANA": "Katakana"}


def valid_name(name: str) -> str:
    """The name stripped, for a new trainee; ``NameRuleError`` (a ValueError) unless it is 1 to
    60 characters, none of them hidden (control, format, zero-width, bidi, separators), with
    no word mixing two alphabets (Latin with Cyrillic or Greek; Han, kana and Latin together
    are fine) and a canonical form (``name_key``) that fits its column."""
    def too_long(length: int) -> NameRuleError:
        return NameRuleError("length", f"a trainee name must be 1 to {NAME_MAX} characters, got {length}")

    if len(name) > NAME_INPUT_MAX:
        raise too_long(len(name))
    stripped = name.strip()
    if not 1 <= len(stripped) <= NAME_MAX:
        raise too_long(len(stripped))
    hidden = [char for char in stripped if unicodedata.category(char) in HIDDEN_CATEGORIES]
    if hidden:
        codes = ", ".join(f"U+{ord(char):04X}" for char in dict.fromkeys(hidden))
        raise NameRuleError("invisible", f"a trainee name cannot hold invisible or control characters ({codes})")
    mixed = mixed_scripts(stripped)
    if mixed:
        word, scripts = mixed[0]
        raise NameRuleError("mixed_script", f"the word {word!r} mixes letters of {' and '.join(scripts)}")
    if len(name_key(stripped)) > NAME_KEY_MAX:  # NFKC expands a few characters up to 18-fold
        raise NameRuleError("length", f"a trainee name must be 1 to {NAME_MAX} characters, and shorter once normalised")
    return stripped


def name_key(name: str) -> str:
    """The canonical form of a name, one per account and per name throttle: Unicode NFKC
    (full-width and half-width forms as the usual ones), case-folded, hidden characters dropped
    and runs of white space made one space. "Alice", " ALICE ", "Ａｌｉｃｅ" give "alice"."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(" " if char.isspace() else char for char in text
                   if char.isspace() or unicodedata.category(char) not in HIDDEN_CATEGORIES)
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def mixed_scripts(name: str) -> list[tuple[str, tuple[str, ...]]]:
    """The words of a name (after NFKC) holding letters of two or more alphabets, with them
    (Han, hiragana, katakana, hangul and bopomofo go with any one alphabet: "Tシャツ" is fine)."""
    found = []
    for word in unicodedata.normalize("NFKC", name).split():
        scripts = {script for char in word if (script := _script(char)) is not None} - _EAST_ASIAN_SCRIPTS
        if len(scripts) > 1:
            found.append((word, tuple(sorted(scripts))))
    return found


def _script(char: str) -> str | None:
    """The script of a letter (Latin, Cyrillic, Greek, Han, Hiragana, ...) from its Unicode
    name; None for digits, punctuation, marks and symbols, which go with any script."""
    if not unicodedata.category(char).startswith("L"):
        return None
    prefix = unicodedata.name(char, "").split(" ", 1)[0]
    if prefix in ("", "MODIFIER"):
        return None
    return _SCRIPT_OF_PREFIX.get(prefix, prefix.title())

