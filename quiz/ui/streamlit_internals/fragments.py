"""Whether this script run is a fragment's own (the browser asked for it alone), not a
run of the whole page, or of an enclosing fragment, that draws the fragment on its way."""

from __future__ import annotations

from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState


def running_alone() -> bool:
    """True in the fragment being drawn when the browser asked for its run; False in a full
    run (the exam clock's deadline fragment drawn with the page, ``quiz.ui.exam_clock``), in a
    fragment drawn inside another's own run, and outside any run."""
    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return False
    return ThreadState.get().fragment_id in ctx.fragment_ids_this_run
