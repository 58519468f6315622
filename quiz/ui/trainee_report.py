"""Everything known about one trainee's progress, as the Progress page and the Team page show it."""

from __future__ import annotations

from quiz.db.store import Trainee
from quiz.ui.exam_widgets import exam_history
from quiz.ui.progress_panel import render_progress
from quiz.ui.readiness import render_readiness
from quiz.ui.shell import Shell


def render_trainee_report(shell: Shell, trainee: Trainee, *, own: bool = True, key: str = "progress") -> None:
    """Readiness from the review schedule first, then what to practise, the figures and charts
    (``render_progress``), and the mock exams taken."""
    render_readiness(shell, trainee)
    render_progress(shell, trainee, own=own, key=key)
    exam_history(shell, trainee)
