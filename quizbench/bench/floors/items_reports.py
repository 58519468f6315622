"""Floor for the Card review page with a card picked that has thousands of reports: the same
widgets, one page of report rows, filled with constant data."""

from quizbench.bench.floors.card_review import CARDS, card_review
from quizbench.bench.floors.shell import run_floor

run_floor(lambda: card_review(CARDS[0]), "items.py", needs_trainee=False)  # a supervisor's page, signed out
