#!/usr/bin/env bash
# Every test, as `make test` runs them (inside scripts/with-postgres.sh), in two passes:
#  1. all but the reliability runs and the minutes-long tools, on two workers, each test file
#     whole on one worker (a file's tests share its server and its browser): the browser tests
#     wait on the page's state, so two at a time are slower each but not flaky;
#  2. the reliability runs and the benchmark's tests, one at a time: they load a server, or
#     measure against a floor, and a second test beside them would be part of their figure.
# Both passes run whatever the first gives; the exit status is the first failure's.
set -u
cd "$(dirname "$0")/.."
python=.venv/bin/python
PYTHONDONTWRITEBYTECODE= "$python" -m pytest -n 2 --dist loadfile -m "not reliability and not slow" "$@"
parallel=$?
"$python" -m pytest -m "reliability or slow" "$@"
serial=$?
if [ "$parallel" -ne 0 ]; then exit "$parallel"; fi
exit "$serial"
