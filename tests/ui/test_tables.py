"""One table helper and one CSV button for every page (quiz/ui/tables.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page() -> None:
    import pandas as pd
    import streamlit as st

    from quiz.ui.tables import show_table

    table = pd.DataFrame({"name": ["=1+1", "Aiko"], "answered": [3, 1]})
    show_table(table, {"name": "Trainee", "answered": "Answers"}.__getitem__, "Download (CSV)", "team-trainees")
    st.session_state["columns_after"] = list(table.columns)


def test_a_table_is_shown_with_its_headers_and_a_button_for_its_csv() -> None:
    at = AppTest.from_function(_page).run()
    assert not at.exception
    assert list(at.dataframe[0].value.columns) == ["Trainee", "Answers"]
    assert at.session_state["columns_after"] == ["name", "answered"]  # the caller's table is left as it was
    (button,) = at.download_button
    assert button.label == "Download (CSV)"
    assert button.proto.deferred_file_id  # the CSV is made when the button is pressed
    assert button.proto.ignore_rerun  # a press runs nothing: no run races the download
