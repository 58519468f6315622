"""The marks that bring a new card or page to its top (``quiz.ui.scroll``): one value per
kind and thing, our names only, escaped; and the page's script watches for them."""

from __future__ import annotations

from quiz.ui.scroll import MARK, SCROLL_CSS, WATCH_JS, mark
from quiz.ui.streamlit_internals.words import page_script, widget_words_css


def test_a_mark_says_its_kind_and_what_and_nothing_else() -> None:
    assert mark("card", "answer-3") == f'<span {MARK}="card:answer-3"></span>'
    assert mark("card", "answer-3") != mark("card", "answer-4")
    hostile = mark("page", '"><script>alert(1)</script>')
    assert "<script>" not in hostile and hostile.count('"') == 2  # the attribute's own quotes only


def test_every_page_in_every_language_watches_for_the_marks_and_hides_them() -> None:
    for language in ("ja", "en"):
        script = page_script(language)
        assert WATCH_JS in script
        assert "toTop(false);" in script and "toTop(true);" in script  # marks at load: seen, not scrolled to
        assert SCROLL_CSS in widget_words_css(language)
