"""The Streamlit pages and widgets; the only package that imports streamlit."""
