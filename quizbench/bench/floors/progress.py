"""Floor for the progress page: the same widgets and charts, filled with constant data."""

import altair as alt
import pandas as pd
import streamlit as st

from quizbench.bench.floors.shell import run_floor


def progress() -> None:
    st.title("Progress")
    cols = st.columns(4)
    for col, (label, value) in zip(cols, [("Answered", 100), ("Accuracy", "70%"), ("Streak", 3), ("Longest", 9)]):
        col.metric(label, value)
    days = pd.DataFrame({"date": pd.date_range("2026-01-01", periods=365), "accuracy": 0.7, "rolling_7d": 0.7,
                         "answered": 10})
    bars = pd.DataFrame({"name": [f"row-{n}" for n in range(12)], "accuracy": 0.6, "answered": 10})
    st.altair_chart(alt.layer(alt.Chart(days).mark_bar().encode(x="date:T", y="accuracy:Q"),
                              alt.Chart(days).mark_line().encode(x="date:T", y="rolling_7d:Q")), width="stretch")
    for _ in range(3):
        st.altair_chart(alt.layer(alt.Chart(bars).mark_bar().encode(y="name:N", x="accuracy:Q"),
                                  alt.Chart(bars).mark_text().encode(y="name:N", x="accuracy:Q", text="name:N")),
                        width="stretch")
    grid = pd.DataFrame([(a, b, 3) for a in range(6) for b in range(6)], columns=["standard", "chosen", "count"])
    st.altair_chart(alt.Chart(grid).mark_rect().encode(x="chosen:N", y="standard:N", color="count:Q"), width="stretch")
    cols = st.columns(3)
    for col, label in zip(cols, ["Too lenient", "Too harsh", "Mean steps"]):
        col.metric(label, 3)
    st.altair_chart(alt.Chart(pd.DataFrame({"steps": [-2, -1, 1, 2], "count": [3, 5, 4, 1]})).mark_bar()
                    .encode(x="steps:O", y="count:Q"), width="stretch")
    st.dataframe(pd.DataFrame({"card": [f"card-{n}" for n in range(20)], "when": "2026-01-01"}), hide_index=True)
    st.button("Practise these")
    st.download_button("Download", data=b"a,b\n1,2\n", file_name="a.csv")
    st.subheader("Readiness")
    st.altair_chart(alt.Chart(bars).mark_bar().encode(y="name:N", x="accuracy:Q"), width="stretch")
    st.subheader("Mock exams")
    st.dataframe(pd.DataFrame({"exam": ["ygo-20"] * 5, "score": 16}), hide_index=True)


run_floor(progress, "progress.py")
