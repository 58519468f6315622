"""Who is asking, as far as the server can tell: the client's address and the browser session."""

from __future__ import annotations

import ipaddress

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx


def counted_address(found: str | None) -> str | None:
    """The address to count a client under: ``found``, or None for loopback (this machine's
    own tools, or a proxy that does not pass the client's address on) or when unknown."""
    if not found:
        return None
    try:
        if ipaddress.ip_address(found).is_loopback:
            return None
    except ValueError:
        pass
    return str(found)


def address() -> str | None:
    """The browser's address (through HAProxy's ``X-Forwarded-For``, as the rerun limit reads
    it); None for loopback or when unknown (tests, a local run)."""
    return counted_address(st.context.ip_address)


def session_id() -> str:
    """This browser session's id (a new tab, or a cleared cache's new session, gets a new one)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "none"
