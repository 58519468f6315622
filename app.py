"""Streamlit entry point: the sidebar shared by every page, and the page router."""

import base64
from pathlib import Path

import streamlit as st

from quiz.report.i18n import t
from quiz.ui.errors import database_guard
from quiz.ui.shell import render_sidebar

PAGES = Path(__file__).resolve().parent / "quiz" / "ui" / "pages"
# A data URL, read once: a file path would be read and registered again on every rerun.
FAVICON = "data:image/png;base64," + base64.b64encode((PAGES.parent / "static" / "favicon.png").read_bytes()).decode()

st.set_page_config(page_title="Judge Trainer", page_icon=FAVICON, layout="wide")
# A database that cannot be opened or written shows what is wrong and what to do, never a
# traceback (quiz.ui.errors); the server's log keeps the detail.
with database_guard():
    shell = render_sidebar()
    navigation = st.navigation(
        [
            st.Page(
                PAGES / "practice.py", title=t("nav.practice", shell.language), icon=":material/style:", default=True
            ),
            st.Page(
                PAGES / "review.py",
                title=t("review.nav", shell.language),
                icon=":material/event_repeat:",
                url_path="review",
            ),
            st.Page(PAGES / "exam.py", title=t("exam.nav", shell.language), icon=":material/timer:", url_path="exam"),
            st.Page(
                PAGES / "progress.py",
                title=t("nav.progress", shell.language),
                icon=":material/monitoring:",
                url_path="progress",
            ),
            st.Page(
                PAGES / "reference.py",
                title=t("nav.reference", shell.language),
                icon=":material/menu_book:",
                url_path="reference",
            ),
            st.Page(PAGES / "team.py", title=t("nav.team", shell.language), icon=":material/groups:", url_path="team"),
            st.Page(
                PAGES / "content.py",
                title=t("nav.content", shell.language),
                icon=":material/upload_file:",
                url_path="content",
            ),
        ],
        position="top",
    )
    navigation.run()
