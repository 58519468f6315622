"""Floor for the practice page: the same widgets, filled with constant data."""

import streamlit as st

from quizbench.bench.floors.shell import run_floor


def practice() -> None:
    st.title("Practice")
    st.subheader("A card title")
    st.caption("Game · ★★☆")
    with st.container(border=True):
        st.markdown("A constant situation text. " * 12)
    with st.form("answer"):
        st.selectbox("Infraction", [f"infraction-{n}" for n in range(18)], index=None)
        st.radio("Penalty", [f"penalty-{n}" for n in range(6)], index=None, horizontal=True)
        st.multiselect("Fix", [f"fix-{n}" for n in range(9)])
        st.form_submit_button("Check")


run_floor(practice, "practice.py")
