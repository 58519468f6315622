"""Floor for the Card review page: the same widgets and tables, filled with constant data."""

import pandas as pd
import streamlit as st

from quizbench.bench.floors.shell import run_floor

CARDS = [f"card-{n:05d}" for n in range(500)]


def items() -> None:
    st.title("Card review")
    st.button("Lock")
    st.caption("Every card earns its place.")
    st.caption("Discrimination is the point-biserial correlation.")
    freshness, refresh = st.columns([4, 1], vertical_alignment="center")
    freshness.caption("As of 2026-01-01 00:00 UTC, recomputed every 5 minutes.")
    refresh.button("Refresh")
    queue, cards, reports = st.tabs(["Review queue", "Every card", "Problem reports"])
    with queue:
        st.caption("Ranked by suspicion.")
        st.dataframe(pd.DataFrame({
            "card": CARDS, "suspicion": 1.5, "why": "low discrimination", "open_reports": 0, "answers": 2000,
            "difficulty": 0.7, "discrimination": 0.01, "median_seconds": 47.5, "strong_wrong": "penalty: warning",
            "strong_agreement": 0.2, "regraded": 0, "place": "scenarios/x.yaml:12", "document_lines": "40, 41",
        }), hide_index=True)
        st.download_button("CSV", data=b"a\n1\n", file_name="queue.csv")
    with cards:
        st.dataframe(pd.DataFrame({
            "card": CARDS, "game": "yugioh-ocg", "answers": 2000, "right": 1400, "difficulty": 0.7,
            "discrimination": 0.01, "median_seconds": 47.5, "open_reports": 0,
        }), hide_index=True)
        st.download_button("CSV ", data=b"a\n1\n", file_name="cards.csv")
    with reports:
        st.toggle("Open reports only", value=True)
        st.info("No open problem reports.")
    st.divider()
    st.selectbox("Card", CARDS, index=None)


run_floor(items, "items.py", needs_trainee=False)  # a supervisor's page, signed out
