"""Everything known about one trainee's progress, as the Progress page and the Team page show it."""

from __future__ import annotations

from quiz.db.store import Trainee
from quiz.ui.exam_widgets import exam_history
from quiz.ui.progress_panel import render_progress
from quiz.ui.readiness import render_readiness
from quiz.ui.shell import Shell


def render_trainee_report(shell: Shell, trainee: Trainee, *, own: bool = True, key: str = "progress") -> None:
    """Figures and charts, readiness from the review schedule, and the mock exams taken."""
    render_progress(shell, trainee, own=own, key=key)
    render_readiness(shell, trainee)
    exam_history(shell, trainee)
