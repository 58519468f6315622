"""Streamlit's own words in the reader's language: the style sheets, their escaping, and the
pages that draw them (the browser's view is tests/e2e/test_streamlit_words.py)."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from quiz.model.text import LANGUAGES
from quiz.model.words import strings, t
from quiz.ui.streamlit_internals.words import (
    ARIA_LABELS,
    EMPTY_LIST,
    HINTS,
    NAMED,
    SIDEBAR_BUTTON,
    TOUCH,
    css_string,
    page_script,
    replaced,
    uploader_css,
    widget_words_css,
)

ESCAPE = re.compile(r"\\([0-9a-f]{1,6}) ")


def css_unquoted(quoted: str) -> str:
    """The text of a CSS string written by ``css_string`` (hexadecimal escapes only)."""
    assert quoted[0] == quoted[-1] == '"'
    body = quoted[1:-1]
    assert '"' not in body and "\n" not in body and "<" not in body and ">" not in body
    return ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), body)


@given(st.text())
def test_any_text_reads_back_the_same_and_cannot_leave_its_string(text: str) -> None:
    assert css_unquoted(css_string(text)) == text


def test_markup_and_quotes_are_escaped() -> None:
    quoted = css_string('</style><script>"x"\\')
    assert "<" not in quoted and "\\" + "3c " in quoted
    assert quoted.count('"') == 2
    assert css_string("Enter キーで送信") == '"Enter キーで送信"'  # letters, spaces, Japanese as they are


def test_english_keeps_streamlit_s_own_words() -> None:
    english = widget_words_css("en")
    assert "::before {content: \"" not in english and EMPTY_LIST not in english
    assert uploader_css("en", ("yaml", "zip"), 2) == "" and '"Open"' not in page_script("en")  # no labels to say


def test_every_language_leaves_the_keyboard_hints_out_on_a_touch_screen_last() -> None:
    """"Ctrl + Enter" must not show on phones. The touch rule comes last, so that it wins
    over a language's own hint of the same specificity."""
    for language in LANGUAGES:
        css = widget_words_css(language)
        touch = css.rindex(TOUCH)
        for where, _ in HINTS:
            assert css.index(f"{where} > span:first-child {{display: none}} {where}::before", touch) > touch
        assert all(css.rfind(f"{where}::before {{content: \"") < touch for where, _ in HINTS)


def test_the_aria_label_script_says_every_label_and_cannot_leave_its_script() -> None:
    script = page_script("ja")
    for english, key in ARIA_LABELS.items():
        assert f'"{english}": "{t(key, "ja")}"' in script
    assert script.count("</script>") == 1  # only its own end: every word is JSON with < escaped


def test_a_button_whose_words_are_replaced_is_named_in_the_readers_language() -> None:
    """The upload button's word hidden and drawn by the style sheet left the button with no
    name for a screen reader (axe's button-name, critical) on a Japanese page."""
    script = page_script("ja")
    for where, key in NAMED.items():
        assert f"{json.dumps(where)}: {json.dumps(t(key, 'ja'), ensure_ascii=False)}" in script
    assert json.dumps(next(iter(NAMED))) not in page_script("en")  # Streamlit's own words stay in English


def test_every_language_labels_the_sidebar_button() -> None:
    for language in LANGUAGES:
        assert f"{SIDEBAR_BUTTON}::after {{content: {css_string(t('streamlit.menu', language))};" in widget_words_css(
            language)


def test_every_other_language_hides_each_hint_and_says_it() -> None:
    for language in (lang for lang in LANGUAGES if lang != "en"):
        css = widget_words_css(language)
        for where, key in HINTS:
            assert f"{where} > span:first-child {{display: none}}" in css
            assert f"{where}::before {{content: {css_string(t(key, language))}}}" in css
        for rule in replaced(EMPTY_LIST, t("streamlit.no_results", language), "0.875rem"):
            assert rule in css


def test_a_replaced_text_is_hidden_and_its_replacement_shown() -> None:
    hide, show = replaced("p", "アップロード", "1rem")
    assert hide == "p {font-size: 0; visibility: hidden}"
    assert show == 'p::after {content: "アップロード"; font-size: 1rem; visibility: visible}'


def test_the_uploader_s_limit_is_its_own() -> None:
    css = uploader_css("ja", ("yaml", "yml", "zip"), 2)
    assert css_string("1ファイル2MBまで・YAML, YML, ZIP") in css
    assert css_string("アップロード") in css
    assert css_string("1ファイル5MBまで・ZIP") in uploader_css("ja", ("zip",), 5)


def test_every_language_has_the_words() -> None:
    keys = {key for _, key in HINTS} | {"streamlit.menu", "streamlit.no_results", "streamlit.upload", "streamlit.upload_limit"}
    for language in LANGUAGES:
        assert keys <= strings(language).keys(), language


def _styles(at) -> list[str]:
    return [element.proto.body for element in at.get("html") if "<style>" in element.proto.body]


def test_every_page_carries_the_style_sheet_of_its_language(open_app) -> None:
    for language in LANGUAGES:
        styles = _styles(open_app(lang=language))
        assert styles.count(f"<style>\n{widget_words_css(language)}\n</style>") == 1, styles
        others = [other for other in LANGUAGES if other != language]
        assert not any(f"<style>\n{widget_words_css(other)}\n</style>" in styles for other in others)


def test_the_content_page_says_its_uploader_s_words(open_app) -> None:
    styles = _styles(open_app(lang="ja", page="quiz/ui/pages/content.py"))
    assert any(css_string("アップロード") in style for style in styles), styles


def test_the_next_card_bar_is_made_sticky_by_the_page_s_sheet_not_by_each_answer(open_app) -> None:
    """An answer runs the card's fragment alone: the bar's rule comes with the full run's
    sheet, and the answered card draws no style element of its own."""
    from quiz.model.cards import KnowledgeCard
    from quiz.ui.next_bar import NEXT_BAR_CSS, NEXT_BAR_KEY
    from tests.shipped_content import shipped_content
    from tests.ui import answering

    for language in LANGUAGES:
        assert NEXT_BAR_CSS in widget_words_css(language)
    at = open_app()
    card = answering.deal_until(at, shipped_content(), KnowledgeCard)
    answering.fill(at, card, card.answer)
    assert any(button.label == "Next card" for button in at.button)
    assert any(NEXT_BAR_KEY in str(block.proto) for block in at.get("flex_container"))
    assert _styles(at) == [f"<style>\n{widget_words_css('en')}\n</style>"]


def test_screen_readers_hear_help_and_the_number_steppers_in_the_readers_language() -> None:
    """Streamlit's "Help", "Help for <label>", "Decrement" and "Increment" were read out in
    English on Japanese pages."""
    script = page_script("ja")
    for english in ("Help", "Decrement", "Increment"):
        assert f'"{english}": "{t(ARIA_LABELS[english], "ja")}"' in script
    assert '"Help for ": "「{item}」のヘルプ"' in script
    assert '"Shortcut ": "ショートカット {item}"' in script


def test_every_multiselect_has_the_apps_placeholder_and_no_select_all() -> None:
    """Streamlit's "Choose options", "No options to select" and "Select all" showed on
    Japanese pages: every multiselect is drawn by ``streamlit_internals.words.multiselect``, or gives
    both itself."""
    from pathlib import Path

    ui = Path(__file__).resolve().parents[3] / "quiz" / "ui"
    drawer = ui / "streamlit_internals" / "words.py"
    sources = [path for path in ui.rglob("*.py") if path != drawer]
    assert drawer.exists() and len(sources) > 50  # the pages' modules, found where they are
    for path in sources:
        source = path.read_text(encoding="utf-8")
        calls = re.findall(r"st\.multiselect\((.*?)\n\s*\)", source, re.S)  # each up to its own line's ")"
        assert source.count("st.multiselect(") == len(calls), path
        for call in calls:
            assert "placeholder=" in call and "select_all=False" in call, path


def test_a_japanese_page_s_multiselects_speak_japanese(open_app, store) -> None:
    from quiz.model.words import t as words

    at = open_app(lang="ja", page="quiz/ui/pages/exam.py")
    games = at.multiselect(key="exam-custom-games")
    assert games.proto.placeholder == words("streamlit.choose_options", "ja")
    at.multiselect(key="exam-custom-games").set_value([]).run()
    assert at.multiselect(key="exam-custom-categories").proto.placeholder == words("streamlit.no_options", "ja")
    assert not any(m.proto.select_all for m in at.multiselect if hasattr(m.proto, "select_all"))


def test_the_exam_clock_is_kept_in_view_on_a_wide_screen_only() -> None:
    from quiz.ui.round_clock import EXAM_BANNER_KEY, WIDE

    css = widget_words_css("ja")
    wide = css.index(WIDE)
    assert css.index(f".st-key-{EXAM_BANNER_KEY}", wide) > wide
    assert f".st-key-{EXAM_BANNER_KEY}" not in css[:wide]
