"""The Card review page's floor body: the same widgets and tables, filled with constant data
(``items.py`` draws it with no card picked, ``items_reports.py`` with a card and its reports)."""

import pandas as pd
import streamlit as st

CARDS = [f"card-{n:05d}" for n in range(500)]
PAGE = pd.DataFrame({  # one page of reports, as quiz.ui.report_list shows it
    "No.": range(25), "Card": CARDS[0], "Trainee": "bench-trainee-0001", "Reason": "Something else",
    "Details": "report 1", "Answer given": "penalty: warning", "Sent": "2026-01-01 00:00", "Resolved": False,
    "Note": None,
})


def report_list(key: str, card_filter: bool) -> None:
    """The widgets of one list of reports: filters, page picker, a page of rows, CSV, bulk resolve."""
    st.radio("Show", ["Open", "Resolved", "All"], horizontal=True, key=f"{key}-status")
    if card_filter:
        st.selectbox("Card", CARDS, index=None, key=f"{key}-card")
    st.number_input("Page", min_value=1, max_value=400, step=1, key=f"{key}-page")
    st.caption("Reports: 9001 · page 1 of 361")
    st.dataframe(PAGE, hide_index=True, width="stretch")
    st.download_button("CSV", data=b"a\n1\n", file_name=f"{key}.csv", key=f"{key}-csv")
    with st.form(f"{key}-form", border=True):
        st.multiselect("Open reports on this page to resolve", list(range(25)), key=f"{key}-chosen")
        st.text_input("Resolution note", key=f"{key}-note")
        st.form_submit_button("Mark the chosen reports resolved")


def card_review(card: str | None) -> None:
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
        if card is None:
            st.radio("Show", ["Open", "Resolved", "All"], horizontal=True, key="tab-status")
            st.selectbox("Card", CARDS, index=None, key="tab-card")
            st.info("No open problem reports.")
        else:
            report_list("tab", card_filter=True)
    st.divider()
    st.selectbox("Card", CARDS, index=None if card is None else 0, key="picked")
    if card is None:
        return
    st.subheader("A card's title", anchor=False)
    st.markdown("It is in scenarios/x.yaml:12; it quotes lines 40, 41 of the document.")
    st.markdown("2000 answers, difficulty 0.70, discrimination 0.01, median 47.5 s.")
    st.markdown("**Choices**")
    st.dataframe(pd.DataFrame({"Part": ["Penalty"] * 4, "Chosen": ["warning", "caution", "duel_loss", "match_loss"],
                               "Answers": 500, "Marked wrong": 100}), hide_index=True)
    st.download_button("CSV  ", data=b"a\n1\n", file_name="choices.csv")
    st.markdown("**Problem reports on this card**")
    report_list("card", card_filter=False)
