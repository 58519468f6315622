"""The app's own words in Japanese and English, from string tables in quiz/locales/."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from quiz.content.yaml_source import SafeLoader
from quiz.model.text import LANGUAGES, Language

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
DEFAULT_LANGUAGE: Language = "ja"


@cache
def strings(language: str) -> dict[str, str]:
    """The string table of ``language``: key -> text with ``{name}`` placeholders."""
    path = LOCALES_DIR / f"{language}.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)  # noqa: S506 - safe loader
    return {str(k): str(v) for k, v in data.items()}


COUNT_NAMES = ("count", "n")  # the placeholders that hold a count


def t(key: str, language: str, **values: object) -> str:
    """The text for ``key`` in ``language``; raises KeyError for a key no table has.

    A text with a count may have a singular, ``key.one``: it is used when the count
    (``count`` or ``n``) is 1, ``key`` itself for every other count ("1 rule", "2 rules").
    """
    table = strings(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    text = table[plural_key(table, key, values)]
    return text.format(**values) if values else text


def plural_key(table: dict[str, str], key: str, values: dict[str, object]) -> str:
    """``key.one`` when the count among ``values`` is 1 and the table has it; else ``key``."""
    count = next((values[name] for name in COUNT_NAMES if name in values), None)
    singular = f"{key}.one"
    return singular if count == 1 and singular in table else key


def pick_language(requested: str | None, browser_locale: str | None) -> Language:
    """The language asked for in the URL, else the browser's, else Japanese."""
    for language in LANGUAGES:  # the Literal itself, not the str that matched it
        if requested == language:
            return language
    if browser_locale:
        return "ja" if browser_locale.lower().startswith("ja") else "en"
    return DEFAULT_LANGUAGE
