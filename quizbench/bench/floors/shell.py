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
from quiz.model.words import t
from quiz.ui.page_table import PAGE_TABLE
from quiz.ui.scroll import page_from_its_top
from quiz.ui.shell import SidebarData, render_sidebar

# The router's other pages are one file, as the app's pages are files: Streamlit resolves and
# checks a file page's path on every run, which a callable page does not cost.
ROUTER_PAGE = Path(__file__).resolve().parent / "router_page.py"
FLOOR_LANGUAGE = "en"  # the benchmark opens every page with ?lang=en


@lru_cache(maxsize=1)
def _constant_content() -> Content:
    """The shipped rulesets without a card: the sidebar's games and categories, loaded once."""
    return load_content(card_paths=[])


FLOOR_SIDEBAR = SidebarData(content=_constant_content, due=lambda *_: 3)


def router_entries(page: str) -> list[tuple[Path | None, str, str, str]]:
    """The floor router's pages, as the app's page table lists them: (script, title, icon, URL
    path), the floor's own ``page`` (a file of the table) first, with None for its script."""
    entries: list[tuple[Path | None, str, str, str]] = []
    for entry in PAGE_TABLE:
        title = t(entry.title, FLOOR_LANGUAGE)
        if entry.file == page:
            entries.insert(0, (None, title, entry.icon, "floor"))
        else:
            entries.append((ROUTER_PAGE, title, entry.icon, entry.url_path or Path(entry.file).stem))
    assert entries and entries[0][0] is None, f"{page} is not a page of quiz.ui.page_table"
    return entries


def run_floor(body: Callable[[], None], page: str, needs_trainee: bool = True) -> None:
    """Draw the app's own sidebar (``quiz.ui.shell.render_sidebar``) over constant content and
    a constant due count, then route to ``body`` as the app routes to ``page`` (its file in
    ``quiz.ui.page_table``), among as many pages as the app has.

    The sidebar's trainee panel is the app's too: a floor opened signed out shows the app's
    sign-in form (a cold start types the PIN into it, on the same database as the app), and a
    page that needs a trainee only asks to sign in until then.
    """
    st.set_page_config(page_title="Floor", layout="wide")
    shell = render_sidebar(FLOOR_SIDEBAR)
    (_, title, icon, url_path), *others = router_entries(page)
    shown = body if shell.trainee is not None or not needs_trainee else lambda: _ask_to_sign_in(title)
    pages = [st.Page(shown, title=title, icon=icon, url_path=url_path, default=True)]
    pages += [st.Page(script, title=name, icon=mark, url_path=path) for script, name, mark, path in others]
    chosen = st.navigation(pages, position="top")
    page_from_its_top(chosen.url_path)  # as the app's router does
    chosen.run()


def _ask_to_sign_in(title: str) -> None:
    st.title(title)
    st.info("Sign in, or add yourself, in the sidebar to start.")
