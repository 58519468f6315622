"""Floor for a floor call's step on the practice page: the same widgets, filled with constant
data (the page's title and pool choice, a title, the call's text, the round clock, a
conversation of as many replies as steps taken, the open steps as buttons, Rule and "I don't
know"). A step button adds a reply, as the app's does; the benchmark starts over once every
step is taken (``run.py``, ``STEPS_KEY`` set to the measured call's number of steps)."""

from quizbench.bench.floors.investigation import floor_call
from quizbench.bench.floors.shell import run_floor

run_floor(floor_call, "practice.py")
