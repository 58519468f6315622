"""The data behind the charts a page drew (``st.vega_lite_chart``), read in AppTest."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest


def charts_with(at: AppTest, column: str) -> list[pd.DataFrame]:
    """The data of every chart in the main area whose data has ``column``, in page order."""
    found = []
    for element in at.main:
        if getattr(element, "type", "") == "vega_lite_chart":
            for dataset in element.proto.datasets:
                data = pa.ipc.open_stream(dataset.data.data).read_pandas()
                if column in data.columns:
                    found.append(data)
    return found


def chart_with(at: AppTest, column: str) -> pd.DataFrame:
    """The data of the first chart whose data has ``column``."""
    found = charts_with(at, column)
    assert found, f"no chart of {column!r}"
    return found[0]
