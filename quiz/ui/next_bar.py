"""The bar that holds the "Next card" button: sticky below Streamlit's header (3.75rem) while
the feedback under it is in view; the button's own fill hides what scrolls beneath it.

Its rule is part of the page's style sheet, drawn with every full run
(``quiz.ui.streamlit_internals.words.widget_words_css``), not with each answer: an answer is a run of
the card's fragment alone, and a style element drawn there was one more message per answer.
"""

NEXT_BAR_KEY = "next-card-bar"
NEXT_BAR_CSS = (f'[data-testid="stLayoutWrapper"]:has(> .st-key-{NEXT_BAR_KEY})'  # the container's own box
                " {position: sticky; top: 3.75rem; z-index: 5}")
