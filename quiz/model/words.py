"""The app's words: the string tables in Japanese and English (``locales/`` beside this
module), ``t``, ``template`` and ``Wording``, a text of the tables with its values, and which
language a page is in (``pick_language``).

They live in the model, below every stage, so that the core can word what it reports (a
content problem, an error) once, as a ``Wording``, and every page says it in its reader's
language: one home for every word the app says (the rules' and reports' too).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Iterable, Union

from quiz.model.safe_yaml import safe_load
from quiz.model.text import LANGUAGES, Language, Text

LOCALES_DIR = Path(__file__).with_name("locales")
DEFAULT_LANGUAGE: Language = "ja"
COUNT_NAMES = ("count", "n")  # the placeholders that hold a count
UNTRANSLATED = "problem.untranslated"  # a text the app has only in English
JOINED = "problem.joined"  # two texts said one after the other


@cache
def strings(language: str) -> dict[str, str]:
    """The string table of ``language``: key -> text with ``{name}`` placeholders."""
    path = LOCALES_DIR / f"{language}.yaml"
    data = safe_load(path.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def t(key: str, language: str, /, **values: object) -> str:
    """The text for ``key`` in ``language``; raises KeyError for a key no table has.

    A text with a count may have a singular, ``key.one``: it is used when the count
    (``count`` or ``n``) is 1, ``key`` itself for every other count ("1 rule", "2 rules").
    """
    table = strings(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    text = table[plural_key(table, key, values)]
    return text.format(**values) if values else text


def template(key: str, language: str, /) -> str:
    """The text for ``key`` in ``language`` as written, placeholders unfilled (for a caller that
    fills them itself); KeyError for a key no table has."""
    return strings(language if language in LANGUAGES else DEFAULT_LANGUAGE)[key]


def plural_key(table: dict[str, str], key: str, values: dict[str, object]) -> str:
    """``key.one`` when the count among ``values`` is 1 and the table has it; else ``key``."""
    count = next((values[name] for name in COUNT_NAMES if name in values), None)
    singular = f"{key}.one"
    return singular if count == 1 and singular in table else key


WordingValue = Union[str, int, Text, "Wording"]


@dataclass(frozen=True, slots=True, init=False)
class Wording:
    """A text of the string tables, by key, with its values: said in any language by ``say``.

    A value is a plain text or number (an id, a file name, a count: the same in every
    language), a ``Text`` (said in the language) or another ``Wording`` (said in the same
    language). Any other value is kept as its ``str``. ``str()`` of a wording is its English.
    """

    key: str
    values: tuple[tuple[str, WordingValue], ...]

    def __init__(self, key: str, /, **values: object) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "values", tuple((name, _value(value)) for name, value in values.items()))

    @classmethod
    def untranslated(cls, text: str) -> Wording:
        """A text the app has only in English (a library's message): said as it is, marked so
        in the other languages."""
        return cls(UNTRANSLATED, message=text)

    @classmethod
    def joined(cls, parts: Iterable[Wording]) -> Wording:
        """Several wordings said one after the other (``a; b`` in English)."""
        first, *rest = parts
        return first if not rest else cls(JOINED, first=first, rest=cls.joined(rest))

    def say(self, language: str) -> str:
        """The text in ``language``."""
        return t(self.key, language, **{name: _said(value, language) for name, value in self.values})

    @property
    def english(self) -> str:
        return self.say("en")

    def replaced(self, **values: object) -> Wording:
        """The same wording with some of its values replaced."""
        return Wording(self.key, **{**dict(self.values), **values})

    def __str__(self) -> str:
        return self.english


def _value(value: object) -> WordingValue:
    if isinstance(value, (str, Text, Wording)) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return str(value)


def _said(value: WordingValue, language: str) -> str | int:
    if isinstance(value, Wording):
        return value.say(language)
    if isinstance(value, Text):
        return value.get(language)
    return value


def pick_language(requested: str | None, browser_locale: str | None) -> Language:
    """The language asked for in the URL, else the browser's, else Japanese."""
    for language in LANGUAGES:  # the Literal itself, not the str that matched it
        if requested == language:
            return language
    if browser_locale:
        return "ja" if browser_locale.lower().startswith("ja") else "en"
    return DEFAULT_LANGUAGE
