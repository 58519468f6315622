"""Floor for the team page: the same kinds of widgets and tables, filled with constant data."""

import pandas as pd
import streamlit as st

from quizbench.bench.floors.shell import run_floor


def team() -> None:
    st.title("Team")
    st.button("Lock")
    trainees, cards, one = st.tabs(["Trainees", "Cards", "One trainee"])
    with trainees:
        st.caption("Every trainee with answers.")
        st.dataframe(pd.DataFrame({"trainee": [f"t-{n}" for n in range(200)], "answers": 5000, "accuracy": "70%",
                                   "last_7_days": "70%", "exams_passed": 1, "weakest": "deck",
                                   "last_active": "2026-01-01"}), hide_index=True)
        st.download_button("CSV", data=b"a\n1\n", file_name="team.csv")
    with cards:
        st.caption("How often each card is answered right.")
        st.dataframe(pd.DataFrame({"card": [f"card-{n}" for n in range(500)], "answered": 2000, "accuracy": "60%",
                                   "top_wrong": "warning"}), hide_index=True)
        st.download_button("CSV ", data=b"a\n1\n", file_name="cards.csv")
    with one:
        st.selectbox("Trainee", [f"t-{n}" for n in range(200)], index=None)


run_floor(team, "team.py", needs_trainee=False)  # the Team page is a supervisor's, signed out
