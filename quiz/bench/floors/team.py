"""Floor for the team page: the same kinds of widgets and tables, filled with constant data."""

import pandas as pd
import streamlit as st

st.set_page_config(page_title="Floor", layout="wide")
with st.sidebar:
    st.radio("Language", ["ja", "en"], horizontal=True)
    st.selectbox("Who is practising?", ["Aiko", "Ben"], index=0)
    st.multiselect("Games", ["yugioh-ocg", "pokemon-card-ja"], default=["yugioh-ocg", "pokemon-card-ja"])
st.title("Team")
st.dataframe(pd.DataFrame({"trainee": [f"t-{n}" for n in range(200)], "answers": 5000, "accuracy": 0.7,
                           "last_7_days": 0.7, "exams_passed": 1, "weakest": "deck", "last_active": "2026-01-01"}),
             hide_index=True)
st.download_button("CSV", data=b"a\n1\n", file_name="team.csv")
st.selectbox("Trainee", [f"t-{n}" for n in range(200)], index=None)
st.dataframe(pd.DataFrame({"card": [f"card-{n}" for n in range(500)], "answered": 2000, "accuracy": 0.6,
                           "top_wrong": "warning"}), hide_index=True)
st.download_button("CSV ", data=b"a\n1\n", file_name="cards.csv")
