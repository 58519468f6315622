"""Untrusted text stays literal in Markdown."""

from quiz.ui.markdown import escape_markdown, quote_block


def test_links_html_and_emphasis_are_escaped():
    text = "[click](http://evil) <script>alert(1)</script> **bold** :red[x]"
    escaped = escape_markdown(text)
    assert "\\[click\\]\\(http\\:" in escaped
    assert "\\<script\\>" in escaped and "\\*\\*bold\\*\\*" in escaped and "\\:red\\[x\\]" in escaped


def test_quote_block_quotes_every_line():
    assert quote_block("a\n- b") == "> a  \n> \\- b  "
