"""Judge-training quiz: content, rules engine, grading, store and statistics.

The core (everything outside ``quiz.ui``) runs without Streamlit.
"""
