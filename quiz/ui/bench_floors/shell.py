"""The part every floor shares: a sidebar like the app's and a router with as many pages.

Floors measure what Streamlit itself costs for a page of the same shape, so they draw the
same kinds of widgets with constant data and nothing from the app's own code.
"""

from typing import Callable

import streamlit as st

PAGE_TITLES = ("Practice", "Review", "Mock exam", "Progress", "Reference", "Team", "Content")


def run_floor(body: Callable[[], None], title: str) -> None:
    """Draw the constant sidebar, then route to ``body`` as the app routes to a page."""
    st.set_page_config(page_title="Floor", layout="wide")
    with st.sidebar:
        st.markdown("### Judge Trainer")
        st.radio("Language", ["ja", "en"], horizontal=True, key="floor-language")
        st.subheader("Trainee")
        st.selectbox("Who is practising?", ["Aiko", "Ben"], index=0)
        with st.form("new-trainee", border=False):
            st.text_input("New trainee name")
            st.form_submit_button("Add")
        st.caption("Due for review: 3")
        st.subheader("Games")
        st.multiselect("Games", ["yugioh-ocg", "pokemon-card-ja"], default=["yugioh-ocg", "pokemon-card-ja"])
        st.multiselect("Categories", [f"category-{n}" for n in range(15)])
    pages = [st.Page(body, title=title, url_path="floor", default=True)]
    pages += [st.Page(lambda: None, title=name, url_path=f"floor-{n}") for n, name in enumerate(PAGE_TITLES)
              if name != title]
    st.navigation(pages, position="top").run()
