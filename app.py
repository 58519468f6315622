"""Streamlit entry point: the sidebar shared by every page, and the page router."""

import base64

import streamlit as st

from quiz.model.words import t
from quiz.ui import resources
from quiz.ui.errors import database_guard
from quiz.ui.page_table import PAGE_TABLE, PAGES_DIR, draws_uploader
from quiz.ui.scroll import page_from_its_top
from quiz.ui.shell import page_language, render_sidebar
from quiz.ui.streamlit_internals.loop_handoff import install as install_loop_handoff
from quiz.ui.streamlit_internals.rerun_limit import install as install_rerun_limit
from quiz.ui.streamlit_internals.upload_limit import install as install_upload_limit
from quiz.ui.streamlit_internals.upload_limit import release_uploads
from quiz.ui.trainee_session import resume_signed_in

# A data URL, read once: a file path would be read and registered again on every rerun.
FAVICON_FILE = PAGES_DIR.parent / "static" / "favicon.png"
FAVICON = "data:image/png;base64," + base64.b64encode(FAVICON_FILE.read_bytes()).decode()

PAGES_KEY = "router_pages"


def router_pages(language: str) -> list:
    """The router's pages in ``language``, made once per session and language: making a page
    resolves its file's path on disk (a system call per folder of it), which on every run cost
    more than the sidebar's queries. Per session, not shared: Streamlit marks the page it is
    about to run on the page object itself."""
    made = st.session_state.get(PAGES_KEY)
    if not (isinstance(made, tuple) and made[0] == language):
        made = (language, [
            st.Page(PAGES_DIR / file, title=t(title, language), icon=icon, default=url_path is None, url_path=url_path)
            for file, title, icon, url_path, _ in PAGE_TABLE
        ])
        st.session_state[PAGES_KEY] = made
    return made[1]


# Reruns at a person's pace per session and per client: a flood of rerun requests on one
# websocket held every other tab off for seconds to minutes (quiz.ui.streamlit_internals.rerun_limit).
install_rerun_limit()
# Uploads only for a session whose page draws an uploader, to the file ids issued to it, and
# within a bound per session and per server: Streamlit keeps any upload to any open session
# in memory until the session ends (quiz.ui.streamlit_internals.upload_limit).
install_upload_limit()
# A script run's messages reach the event loop in batches, not one wake-up of the loop each
# (quiz.ui.streamlit_internals.loop_handoff): under load, fewer CPU seconds per answer.
install_loop_handoff()
# The sidebar holds the sign-in: open while nobody is signed in, on a phone too; once signed in,
# "auto" (open on a desktop, closed on a phone) closes it over the page. Streamlit applies a
# change of this setting only until the visitor opens or closes the sidebar by hand: it then
# keeps their choice in the browser (localStorage), and no page setting closes it.
# A reload signs back in with this device's token first (quiz.ui.device_sign_in), so that a
# trainee signed in that way finds the sidebar closed on a phone, as after signing in.
with database_guard():
    signed_in_now = resume_signed_in(resources.store())
st.set_page_config(page_title=t("app.name", page_language()), page_icon=FAVICON, layout="wide",
                   initial_sidebar_state="auto" if signed_in_now is not None else "expanded")
# A database that cannot be opened or written shows what is wrong and what to do, never a
# traceback (quiz.ui.errors); the server's log keeps the detail.
with database_guard():
    shell = render_sidebar()
    page = st.navigation(router_pages(shell.language), position="top")
    if not draws_uploader(page.url_path):  # the uploader is gone: so are the session's files
        release_uploads()
    page_from_its_top(page.url_path)
    page.run()
