"""Whether this script run is a fragment's own (the browser asked for it alone), not a
run of the whole page that draws the fragment on its way."""

from __future__ import annotations

from streamlit.runtime.scriptrunner import get_script_run_ctx


def running_alone() -> bool:
    """True in a fragment's own run; False in a full run (and outside any run)."""
    ctx = get_script_run_ctx()
    return ctx is not None and bool(ctx.fragment_ids_this_run)
