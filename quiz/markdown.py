"""Showing untrusted text (YAML content, trainee names) literally inside Markdown."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$&:])")


def escape_markdown(text: str) -> str:
    """Backslash-escape every character Markdown or Streamlit could read as markup.

    Streamlit never renders raw HTML unless asked; this also keeps links, images, emphasis
    and ``:colour[...]`` directives in content from taking effect.
    """
    return _SPECIAL.sub(r"\\\1", text)


def quote_block(text: str) -> str:
    """A Markdown block quote of ``text``, each line escaped."""
    return "\n".join(f"> {escape_markdown(line)}  " for line in text.split("\n"))
