"""A new card or a new page starts at its top.

Streamlit keeps the main area's scroll offset across reruns, which is right while a page is
read, and wrong when what is read changes: a trainee who taps Next card at the end of the
feedback (~2 phone screens down) landed in the middle of the next card's scenario, and a page
opened from the menu could open part way down, as far as the page before had been scrolled.

``to_top_when_new(what)`` draws, out of the page's flow, a small script of ours in an
iframe of the page's origin (as the exam clock's) that scrolls the main area to its top.
Its page carries ``what`` (the card's number, the page's path): React keeps the iframe while
``what`` is the same, so a rerun of the same card or page scrolls nothing; a new ``what``
loads the iframe again, and its script runs once. Nothing but the scroll is written: ``what``
is only in a comment, escaped for HTML and never closes it.
"""

from __future__ import annotations

from html import escape

import streamlit as st

from quiz.ui.streamlit_words import draw_style

FRAME_NAME = "quiz-scroll-top"  # the iframe's title: how the style sheet finds it
# Its element takes no room and is never seen or read out: out of the flow and hidden, the
# iframe still loads and runs. Drawn with every full run (a card's own run keeps it).
SCROLL_CSS = (f'[data-testid="stElementContainer"]:has(iframe[title="{FRAME_NAME}"])'
              " {position: absolute; width: 1px; height: 1px; overflow: hidden; visibility: hidden}")
_SCRIPT = """<!doctype html><html><body><!-- %(what)s --><script>
(function () {
  var main = window.parent.document.querySelector("[data-testid='stMain']");
  if (main) { main.scrollTo(0, 0); }
  window.parent.scrollTo(0, 0);
})();
</script></body></html>"""


def scroll_script(what: str) -> str:
    """The iframe's page: the scroll to the top, marked with ``what`` (``--`` cannot end the comment)."""
    return _SCRIPT % {"what": escape(what).replace("--", "- -")}


def to_top_when_new(what: str) -> None:
    """Scroll the main area to its top when ``what`` differs from what this spot of the page
    showed in the run before (one element; ``SCROLL_CSS`` takes it out of sight)."""
    st.iframe(scroll_script(what), height=1, tab_index=-1, alt=FRAME_NAME)


def page_from_its_top(url_path: str) -> None:
    """Drawn by the router before the page (the app's, and the benchmark's floors, which have
    the same shape): a page opened from the menu starts at its top."""
    draw_style(SCROLL_CSS)
    to_top_when_new(url_path)
