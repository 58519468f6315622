#!/usr/bin/env bash
# Every test, as `make test` runs them (inside scripts/with-postgres.sh), in two passes:
#  1. all but the timed tests, on two workers (the machine's two cores), each test file whole
#     on one worker (a file's tests share its server and its browser), the longest files first
#     (tests/conftest.py). A third worker was no faster: the cores were already busy.
#  2. the timed tests (marker `timed`: a server's time or memory measured against a bound
#     under a load of their own), one at a time: a test beside them would be part of their figure.
#     Only tests/reliability is collected, where every timed test lives (tests/conftest.py
#     refuses one elsewhere): collecting every file for 25 tests took 6 s.
# Both passes run whatever the first gives; the exit status is the first failure's.
set -u
cd "$(dirname "$0")/.."
python=.venv/bin/python
PYTHONDONTWRITEBYTECODE= "$python" -m pytest -n 2 --dist loadfile -m "not timed" --durations=15 "$@"
parallel=$?
"$python" -m pytest -m "timed" --durations=10 "$@" tests/reliability
serial=$?
if [ "$parallel" -ne 0 ]; then exit "$parallel"; fi
exit "$serial"
