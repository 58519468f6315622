"""The first card of a fresh server comes without pandas: importing it (and numpy under it)
costs about half a second, and the practice page needs neither. Guards the cold start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRACTICE_PATH = (
    "quiz.ui.shell", "quiz.ui.resources", "quiz.ui.sign_in", "quiz.ui.answer_flow", "quiz.ui.widgets",
    "quiz.training.selection", "quiz.rules.variants", "quiz.db.answers", "quiz.content.snapshot",
)
HEAVY = ("pandas", "numpy", "altair", "pyarrow")


def test_the_practice_page_imports_no_table_or_chart_library():
    script = (
        "import json, sys, streamlit\n"
        + "".join(f"import {module}\n" for module in PRACTICE_PATH)
        + f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


def test_the_check_sees_a_heavy_import():
    """The same check fails when a module on the path imports pandas (the test can fail)."""
    script = "import json, sys, streamlit\nimport quiz.report.progress\n" + f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "pandas" in json.loads(result.stdout.strip().splitlines()[-1])
