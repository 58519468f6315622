"""The part every floor shares: the app's own sidebar over constant data, and a router with
as many pages.

A floor measures what a page of the same shape costs without the page's own work: the
sidebar is drawn by the app's code (so it can never drift from it), with constant content
and due count; the page bodies draw the same kinds of widgets with constant data.
"""

from functools import lru_cache
from pathlib import Path
from typing import Callable

import streamlit as st

from quiz.content.loader import Content, load_content
from quiz.ui.shell import SidebarData, render_sidebar

PAGE_TITLES = ("Practice", "Review", "Mock exam", "Progress", "Reference", "Team", "Content", "Card review")
# The other pages are files, as the app's are: Streamlit resolves and checks a file page's
# path on every run, which a callable page does not cost.
PAGE_FILES = Path(__file__).resolve().parent / "router_pages"  # not pages/: Streamlit would list it itself




@lru_cache(maxsize=1)
def _constant_content() -> Content:
    """The shipped rulesets without a card: the sidebar's games and categories, loaded once."""
    return load_content(card_paths=[])


FLOOR_SIDEBAR = SidebarData(content=_constant_content, due=lambda *_: 3)


def run_floor(body: Callable[[], None], title: str, needs_trainee: bool = True) -> None:
    """Draw the app's own sidebar (``quiz.ui.shell.render_sidebar``) over constant content and
    a constant due count, then route to ``body`` as the app routes to a page.

    The sidebar's trainee panel is the app's too: a floor opened signed out shows the app's
    sign-in form (a cold start types the PIN into it, on the same database as the app), and a
    page that needs a trainee only asks to sign in until then.
    """
    st.set_page_config(page_title="Floor", layout="wide")
    shell = render_sidebar(FLOOR_SIDEBAR)
    shown = body if shell.trainee is not None or not needs_trainee else lambda: _ask_to_sign_in(title)
    pages = [st.Page(shown, title=title, url_path="floor", default=True)]
    pages += [st.Page(PAGE_FILES / f"floor_{n}.py", title=name, url_path=f"floor-{n}")
              for n, name in enumerate(PAGE_TITLES) if name != title]
    st.navigation(pages, position="top").run()


def _ask_to_sign_in(title: str) -> None:
    st.title(title)
    st.info("Sign in, or add yourself, in the sidebar to start.")
