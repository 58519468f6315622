"""The scroll-to-top script's page (``quiz.ui.scroll``): a new ``what`` makes a new page (so
the iframe loads again and scrolls once), the same ``what`` the same page (so a rerun scrolls
nothing), and no ``what`` can end the comment it is kept in or add markup."""

from __future__ import annotations

from quiz.ui.scroll import FRAME_NAME, SCROLL_CSS, scroll_script


def test_the_page_changes_with_what_and_only_with_it() -> None:
    assert scroll_script("answer-3") == scroll_script("answer-3")
    assert scroll_script("answer-3") != scroll_script("answer-4")
    assert scroll_script("") != scroll_script("exam")


def test_what_cannot_end_its_comment_or_add_markup() -> None:
    hostile = '--><script>alert(1)</script><!--'
    page = scroll_script(hostile)
    assert page.count("<script>") == 1 and page.count("</script>") == 1  # ours only
    comment = page[page.index("<!--") + 4:page.index("-->")]
    assert "--" not in comment and "<" not in comment  # the whole of what, inside the comment
    assert page.index("-->") < page.index("<script>")


def test_the_style_sheet_finds_the_frame_by_its_title() -> None:
    assert f'iframe[title="{FRAME_NAME}"]' in SCROLL_CSS
    assert "visibility: hidden" in SCROLL_CSS and "position: absolute" in SCROLL_CSS
