"""The touch targets' rules: drawn on every page, only on a touch screen (the browser's
measure is tests/e2e/test_touch_targets.py)."""

from __future__ import annotations

from quiz.model.text import LANGUAGES
from quiz.ui.streamlit_internals.words import SHORTCUT_BADGE_CSS, TOUCH, widget_words_css
from quiz.ui.touch_targets import LEAST, TOUCH_TARGETS_CSS


def test_every_language_draws_the_touch_targets_in_the_touch_screen_rules_only() -> None:
    for language in LANGUAGES:
        css = widget_words_css(language)
        assert css.count(TOUCH_TARGETS_CSS) == 1
        assert css.index(TOUCH_TARGETS_CSS) > css.rindex(TOUCH)  # inside the touch media query, which is last
        assert css.rstrip().endswith("}")


def test_buttons_radio_rows_and_boxes_are_44_px_at_least() -> None:
    assert LEAST == "44px"
    for control in ("button", "summary", "[role='tab']", "[data-testid='stRadio'] label",
                    "[data-testid='stCheckbox'] label", "input[type='number']", "[role='group']"):
        assert control in TOUCH_TARGETS_CSS


def test_the_shortcut_hint_is_opaque_on_every_screen() -> None:
    """At Streamlit's 60 % opacity the hint on a primary button was 2.7:1 against its blue."""
    for language in LANGUAGES:
        css = widget_words_css(language)
        assert SHORTCUT_BADGE_CSS in css and css.index(SHORTCUT_BADGE_CSS) < css.rindex(TOUCH)
