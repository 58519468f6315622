"""The app's own words in Japanese and English, from the string tables in quiz/report/locales/.

The tables, ``t`` and ``Wording`` are defined in ``quiz.model.words`` (so that the core can word
its problems); pages import them from here, with ``pick_language``.
"""

from __future__ import annotations

from quiz.model.text import LANGUAGES, Language
from quiz.model.words import DEFAULT_LANGUAGE, Wording, strings, t

__all__ = ["DEFAULT_LANGUAGE", "Wording", "pick_language", "strings", "t"]


def pick_language(requested: str | None, browser_locale: str | None) -> Language:
    """The language asked for in the URL, else the browser's, else Japanese."""
    for language in LANGUAGES:  # the Literal itself, not the str that matched it
        if requested == language:
            return language
    if browser_locale:
        return "ja" if browser_locale.lower().startswith("ja") else "en"
    return DEFAULT_LANGUAGE
