"""The types Streamlit hands a page but does not name at ``st``, for type hints."""

from __future__ import annotations

from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.uploaded_file_manager import UploadedFile

Container = DeltaGenerator  # what st.container, st.expander, st.empty and the like return
__all__ = ["Container", "UploadedFile"]
