"""Whose clock a page's times are shown on: the signed-in trainee's kept zone, else the
browser's, else UTC (``quiz.db.time_zones``)."""

from __future__ import annotations

import streamlit as st

from quiz.db.time_zones import DEFAULT_TIME_ZONE, time_zone_for, valid_time_zone
from quiz.ui.shell import Shell


def viewer_zone(shell: Shell) -> str:
    """The zone of whoever looks at the page (a first look keeps the browser's zone for a trainee)."""
    browser = st.context.timezone
    if shell.trainee is not None:
        return time_zone_for(shell.store, shell.trainee.id, browser)
    return valid_time_zone(browser) or DEFAULT_TIME_ZONE
