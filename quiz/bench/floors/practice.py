"""Floor for the practice page: the same widgets, filled with constant data."""

import streamlit as st

st.set_page_config(page_title="Floor", layout="wide")
with st.sidebar:
    st.markdown("### Judge Trainer")
    st.radio("Language", ["ja", "en"], horizontal=True)
    st.subheader("Trainee")
    st.selectbox("Who is practising?", ["Aiko", "Ben"], index=0)
    with st.form("new-trainee", border=False):
        st.text_input("New trainee name")
        st.form_submit_button("Add")
    st.subheader("Games")
    st.multiselect("Games", ["yugioh-ocg", "pokemon-card-ja"], default=["yugioh-ocg", "pokemon-card-ja"])
    st.multiselect("Categories", [f"category-{n}" for n in range(15)])
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
