"""The round clock of a floor call's investigation (``quiz.ui.investigation_view``): sticky
below Streamlit's header, as the Next card bar is (``quiz.ui.next_bar``), so the time used of
the budget stays in view while the conversation and the steps scroll beneath it.

Its rule is part of the page's style sheet, drawn with every full run
(``quiz.ui.streamlit_internals.words.widget_words_css``)."""

ROUND_CLOCK_KEY = "round-clock"
EXAM_BANNER_KEY = "exam-banner"  # the mock exam's name and clock (pages/exam.py): sticky on a wide screen only
WIDE = "@media (min-width: 640px)"  # a phone keeps its first screen for the question


def sticky_css(key: str, z_index: int) -> str:
    """The rule that keeps the keyed container in view below Streamlit's header, on an opaque
    background so that what scrolls beneath it does not show through."""
    return (f'[data-testid="stLayoutWrapper"]:has(> .st-key-{key})'
            f" {{position: sticky; top: 3.75rem; z-index: {z_index}}}"
            f" .st-key-{key} {{background: var(--background-color, white); padding: 0.25rem 0}}")


ROUND_CLOCK_CSS = sticky_css(ROUND_CLOCK_KEY, 4) + f" {WIDE} {{ {sticky_css(EXAM_BANNER_KEY, 4)} }}"
