"""Tables and their CSV files: one table helper for every page that shows one, and one
download button for every CSV the app offers."""

from __future__ import annotations

from typing import Callable

import pandas as pd
import streamlit as st

from quiz.report.csv_export import csv_bytes


def csv_download(label: str, make: Callable[[], pd.DataFrame], file_name: str, key: str) -> None:
    """A button that downloads the CSV of ``make()``, made when it is pressed.

    Pressing it does not run the page again (``on_click="ignore"``): a run started by the
    press can replace the file the browser is about to fetch, and the press then downloads
    nothing (Streamlit's documentation warns of this race)."""
    st.download_button(label, data=lambda: csv_bytes(make()), file_name=file_name, mime="text/csv", key=key,
                       icon=":material/download:", on_click="ignore")


def show_table(table: pd.DataFrame, headers: Callable[[str], str], download_label: str, name: str) -> None:
    """``table`` with its columns named by ``headers`` (text shown literally), and a button
    for its CSV as shown (``name.csv``)."""
    shown = table.copy()
    shown.columns = [headers(column) for column in table.columns]
    st.dataframe(shown, hide_index=True, width="stretch")
    csv_download(download_label, lambda: shown, f"{name}.csv", key=f"download-{name}")
