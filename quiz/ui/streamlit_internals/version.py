"""The Streamlit versions this package is written for, defined and checked once.

The patches (``rerun_limit``, ``upload_limit``, ``stale_widgets``, ``loop_handoff``) reach into Streamlit's
private modules, and ``words`` follows its markup. Under a Streamlit outside
``STREAMLIT_VERSIONS`` the patches stay off, and one error in the log says so and what to do;
requirements.txt pins a version inside it (``tests/ui/streamlit_internals/test_version.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache

import streamlit
from packaging.specifiers import SpecifierSet

STREAMLIT_VERSIONS = SpecifierSet(">=1.67.0,<1.68")

log = logging.getLogger(__name__)


def version_problem() -> str | None:
    """Why the installed Streamlit is not one this package is written for; None when it is."""
    if streamlit.__version__ in STREAMLIT_VERSIONS:
        return None
    return (f"Streamlit {streamlit.__version__} is installed; "
            f"quiz.ui.streamlit_internals is written for Streamlit {STREAMLIT_VERSIONS}")


@cache
def supported() -> bool:
    """Whether the installed Streamlit is one this package is written for (checked once per
    process; when it is not, one error in the log names what stays off)."""
    problem = version_problem()
    if problem is not None:
        log.error("%s: the rerun limit, the upload quota, the forgetting of stale widgets and the batched "
                  "hand-off to the event loop stay off. "
                  "Read quiz/ui/streamlit_internals against this version (its tests name what changed), "
                  "then widen STREAMLIT_VERSIONS", problem)
    return problem is None


_said: set[str] = set()  # the refusals logged so far in this process


def fits(check_internals: Callable[[], list[str]], refusal: str, patch_log: logging.Logger) -> bool:
    """Whether a patch fits the installed Streamlit: a version written for (``supported``) and
    no problem its own ``check_internals`` finds, which are logged on ``patch_log`` after
    ``refusal`` (what stays off), once per process: a patch asked for on every run (the upload
    quota, under AppTest's runtime) would log the same error on every run."""
    if not supported():
        return False
    problems = check_internals()
    if problems:
        message = f"{refusal}: {'; '.join(problems)}"
        if message not in _said:
            _said.add(message)
            patch_log.error("%s", message)
    return not problems
