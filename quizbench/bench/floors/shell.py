"""The part every floor shares: a sidebar like the app's and a router with as many pages.

Floors measure what Streamlit itself costs for a page of the same shape, so they draw the
same kinds of widgets with constant data and nothing from the app's own code.
"""

from pathlib import Path
from typing import Callable

import streamlit as st

from quizbench.bench.scripts import FLOOR_SIGN_IN_PARAM

PAGE_TITLES = ("Practice", "Review", "Mock exam", "Progress", "Reference", "Team", "Content")
# The other pages are files, as the app's are: Streamlit resolves and checks a file page's
# path on every run, which a callable page does not cost.
PAGE_FILES = Path(__file__).resolve().parent / "router_pages"  # not pages/: Streamlit would list it itself




def run_floor(body: Callable[[], None], title: str) -> None:
    """Draw the constant sidebar, then route to ``body`` as the app routes to a page.

    Signed in by default (the rerun measures); with ``?floor_sign_in=1`` the sidebar first
    shows the app's sign-in form and the page only a request to sign in.
    """
    st.set_page_config(page_title="Floor", layout="wide")
    st.session_state.setdefault("floor-signed-in", st.query_params.get(FLOOR_SIGN_IN_PARAM) != "1")
    with st.sidebar:
        st.markdown("### Judge Trainer")
        st.radio("Language", ["ja", "en"], horizontal=True, key="floor-language")
        st.subheader("Trainee")
        if st.session_state["floor-signed-in"]:
            st.markdown(":material/person: **Aiko**")
            st.button("Sign out", icon=":material/logout:")
            with st.expander("Change my PIN", icon=":material/key:"):
                with st.form("change-pin", border=False):
                    st.text_input("Current PIN", type="password")
                    st.text_input("New PIN", type="password", help="4 or more characters.")
                    st.text_input("Same PIN again", type="password")
                    st.form_submit_button("Change my PIN")
        else:
            _sign_in_form()
        st.caption("Due for review: 3")
        st.subheader("Games")
        st.multiselect("Games", ["yugioh-ocg", "pokemon-card-ja"], default=["yugioh-ocg", "pokemon-card-ja"])
        st.multiselect("Categories", [f"category-{n}" for n in range(15)])
    shown = body if st.session_state["floor-signed-in"] else lambda: _ask_to_sign_in(title)
    pages = [st.Page(shown, title=title, url_path="floor", default=True)]
    pages += [st.Page(PAGE_FILES / f"floor_{n}.py", title=name, url_path=f"floor-{n}")
              for n, name in enumerate(PAGE_TITLES) if name != title]
    st.navigation(pages, position="top").run()


def _ask_to_sign_in(title: str) -> None:
    st.title(title)
    st.info("Sign in, or add yourself, in the sidebar to start.")


def _sign_in_form() -> None:
    with st.form("sign-in", clear_on_submit=True, border=False):
        st.text_input("Name", value=st.query_params.get("trainee", ""))
        st.text_input("PIN", type="password")
        pressed = st.form_submit_button("Sign in", type="primary", icon=":material/login:")
    with st.expander("New trainee", icon=":material/person_add:"):
        with st.form("new-trainee", clear_on_submit=True, border=False):
            st.text_input("Name")
            st.text_input("PIN", type="password")
            st.text_input("Same PIN again", type="password")
            st.form_submit_button("Add me", icon=":material/person_add:")
    if pressed:
        st.session_state["floor-signed-in"] = True
        st.rerun()
