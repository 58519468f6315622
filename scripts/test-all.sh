#!/usr/bin/env bash
# Every test, as `make test` runs them (inside scripts/with-postgres.sh), in two passes:
#  1. all but the timed tests, on three workers, each test file whole on one worker (a file's
#     tests share its server and its browser). Most of a test's time is waiting (for a server,
#     a page, a deadline): the machine's two cores stay busy with three. The browser tests wait
#     on the page's state, so a busier machine makes them slower, not flaky.
#  2. the timed tests (marker `timed`: a server's time or memory measured against a bound
#     under a load of their own), one at a time: a test beside them would be part of their figure.
# Both passes run whatever the first gives; the exit status is the first failure's.
set -u
cd "$(dirname "$0")/.."
python=.venv/bin/python
PYTHONDONTWRITEBYTECODE= "$python" -m pytest -n 3 --dist loadfile -m "not timed" --durations=15 "$@"
parallel=$?
"$python" -m pytest -m "timed" --durations=10 "$@"
serial=$?
if [ "$parallel" -ne 0 ]; then exit "$parallel"; fi
exit "$serial"
