"""The Streamlit scripts the benchmark runs: the app, and the floors beside its pages."""

from quiz.content.loader import PROJECT_ROOT

APP = PROJECT_ROOT / "app.py"
FLOORS = PROJECT_ROOT / "quizbench" / "bench" / "floors"
