"""The app's pages, in one table: ``app.py`` routes to them and the benchmark reads them
(its floors' router, and which pages it measures), so a new page cannot fall out of it.
Importing this module draws nothing and imports no Streamlit."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

PAGES_DIR = Path(__file__).resolve().parent / "pages"


class PageEntry(NamedTuple):
    file: str  # under quiz/ui/pages
    title: str  # its key in the string tables
    icon: str
    url_path: str | None  # None: the default page, at the app's root
    uploads: bool = False  # draws a file uploader: its session may upload (quiz.ui.streamlit_internals.upload_limit)


PAGE_TABLE: tuple[PageEntry, ...] = (  # the router's order; the first is the default
    PageEntry("practice.py", "nav.practice", ":material/style:", None),
    PageEntry("review.py", "review.nav", ":material/event_repeat:", "review"),
    PageEntry("exam.py", "exam.nav", ":material/timer:", "exam"),
    PageEntry("progress.py", "nav.progress", ":material/monitoring:", "progress"),
    PageEntry("reference.py", "nav.reference", ":material/menu_book:", "reference"),
    PageEntry("team.py", "nav.team", ":material/groups:", "team"),
    PageEntry("assignments.py", "assign.nav", ":material/assignment:", "assignments"),
    PageEntry("content.py", "nav.content", ":material/upload_file:", "content", uploads=True),
    PageEntry("items.py", "nav.items", ":material/fact_check:", "items"),
    PageEntry("stores.py", "stores.nav", ":material/storefront:", "stores"),
)


def draws_uploader(url_path: str | None) -> bool:
    """Whether the page at ``url_path`` (Streamlit's: "" for the default page) may draw a file
    uploader; a session on any other page keeps no uploads."""
    return any(entry.uploads and (entry.url_path or "") == (url_path or "") for entry in PAGE_TABLE)
