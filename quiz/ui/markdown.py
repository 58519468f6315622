"""Showing untrusted text (YAML content, trainee names) literally inside Markdown."""

from __future__ import annotations

import re
from functools import lru_cache

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$&:])")
WORD_JOINER = "\u2060"  # invisible, zero width, no line break: the text reads the same
# Where GitHub-flavoured Markdown's autolink literals begin, in the text as parsed (after
# backslash escapes are resolved, so escaping alone does not stop them): "://" of
# http(s) URLs, "www." and the "@" of e-mail (and mailto:/xmpp:) addresses.
_AUTOLINK_STARTS = re.compile(r"(?<=:)(?=/)|(?<=www)(?=\.)|(?<=@)", re.IGNORECASE)


@lru_cache(maxsize=4096)  # content's texts come back on every card: escaped once per server
def escape_markdown(text: str) -> str:
    """Backslash-escape every character Markdown or Streamlit could read as markup, and
    break every bare URL and e-mail address so that none becomes a link.

    Streamlit never renders raw HTML unless asked; this also keeps links, images, emphasis
    and ``:colour[...]`` directives in content from taking effect. Streamlit's Markdown
    (remark-gfm) makes ``https://…``, ``www.…`` and ``name@host`` links by themselves, even
    escaped: a word joiner (U+2060, invisible) after ``:`` before ``/``, between ``www``
    and ``.``, and after ``@`` keeps them text.
    """
    return _SPECIAL.sub(r"\\\1", _AUTOLINK_STARTS.sub(WORD_JOINER, text))


def quote_block(text: str) -> str:
    """A Markdown block quote of ``text``, each line escaped."""
    return "\n".join(f"> {escape_markdown(line)}  " for line in text.split("\n"))
