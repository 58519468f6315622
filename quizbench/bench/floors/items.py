"""Floor for the Card review page: the same widgets and tables, filled with constant data."""

from quizbench.bench.floors.card_review import card_review
from quizbench.bench.floors.shell import run_floor

run_floor(lambda: card_review(None), "items.py", needs_trainee=False)  # a supervisor's page, signed out
