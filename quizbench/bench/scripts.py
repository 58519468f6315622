"""The Streamlit scripts the benchmark runs: the app, and the floors beside its pages."""

from quiz.content.loader import PROJECT_ROOT

APP = PROJECT_ROOT / "app.py"
FLOORS = PROJECT_ROOT / "quizbench" / "bench" / "floors"
FLOOR_SIGN_IN_PARAM = "floor_sign_in"  # ?floor_sign_in=1: a floor starts signed out, as a cold start does
