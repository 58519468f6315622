"""A new card or a new page starts at its top.

Streamlit keeps the main area's scroll offset across reruns, which is right while a page is
read, and wrong when what is read changes: a trainee who taps Next card at the end of the
feedback (~2 phone screens down) landed in the middle of the next card's scenario, and a page
opened from the menu could open part way down, as far as the page before had been scrolled.

A run that shows something new draws a mark (``to_top_when_new``: an empty, hidden element
whose ``data-quiz-top`` says what kind of thing is new and which); the page's own script
(``streamlit_internals.words.page_script``, in the one iframe drawn once per page load) watches the page
and scrolls the main area to its top when a mark of a kind shows another value than the last
of that kind. The page's mark is drawn with every full run (it changes with the page); a
card's only in the run that deals it after Next card. The marks on the page when the script
loads are taken as seen, not scrolled to: a script loaded late (a busy server, a language
changed) does not pull a reader who has scrolled meanwhile back to the top. No iframe is added or given a new page
for this: a frame's navigation enters the browser's history, and Back then stepped through
invisible pages instead of the app's.

The marks hold only our own names (a page's path, a card's form key), escaped for HTML.
"""

from __future__ import annotations

from html import escape

import streamlit as st

MARK = "data-quiz-top"
# The marks' elements take no room and are never seen or read out.
SCROLL_CSS = f'[data-testid="stElementContainer"]:has([{MARK}]) {{display: none}}'
# Part of the page's script (one watcher for the page): ``doc`` is the app's document.
WATCH_JS = """
  var lastTop = {};
  function toTop(scroll) {  // scroll: false when the script loads (the marks already there are not new)
    doc.querySelectorAll("[MARK]").forEach(function (mark) {
      var value = mark.getAttribute("MARK"), kind = value.split(":")[0];
      if (lastTop[kind] !== value) {
        lastTop[kind] = value;
        var main = doc.querySelector("[data-testid='stMain']");
        if (main && scroll) { main.scrollTo(0, 0); }
      }
    });
  }
""".replace("MARK", MARK)


def mark(kind: str, what: str) -> str:
    """The mark's HTML: ``kind`` (``page``, ``card``) and ``what``, escaped."""
    return f'<span {MARK}="{escape(kind)}:{escape(what)}"></span>'


def to_top_when_new(kind: str, what: str) -> None:
    """The main area scrolls to its top when ``what`` differs from the last ``kind`` shown."""
    st.html(mark(kind, what))


def page_from_its_top(url_path: str) -> None:
    """Drawn by the router before the page (the app's, and the benchmark's floors, which have
    the same shape): a page opened from the menu starts at its top."""
    to_top_when_new("page", url_path)
