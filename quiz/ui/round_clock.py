"""The round clock of a floor call's investigation (``quiz.ui.investigation_view``): sticky
below Streamlit's header, as the Next card bar is (``quiz.ui.next_bar``), so the time used of
the budget stays in view while the conversation and the steps scroll beneath it.

Its rule is part of the page's style sheet, drawn with every full run
(``quiz.ui.streamlit_words.widget_words_css``)."""

ROUND_CLOCK_KEY = "round-clock"
ROUND_CLOCK_CSS = (f'[data-testid="stLayoutWrapper"]:has(> .st-key-{ROUND_CLOCK_KEY})'
                   " {position: sticky; top: 3.75rem; z-index: 4}"
                   f" .st-key-{ROUND_CLOCK_KEY} {{background: var(--background-color, white);"
                   " padding: 0.25rem 0}")
