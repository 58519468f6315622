"""The Makefile's set-up: `make run` installs only what running needs (requirements.txt);
`make test` and the house-rule checks install the whole toolchain (requirements-dev.txt).
Read with `make -n` in a copy, so nothing is installed and no venv is touched."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _planned(tmp_path: Path, target: str, *, stamps_from: str | None = None) -> str:
    """The commands ``make -n target`` would run in a copy with a fresh venv (or one set up by
    ``make stamps_from`` before, its stamps made by hand)."""
    for name in ("Makefile", "requirements.txt", "requirements-dev.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".venv").mkdir(exist_ok=True)
    if stamps_from is not None:
        subprocess.run(["make", "-t", stamps_from], cwd=tmp_path, check=True, capture_output=True, text=True)
    done = subprocess.run(["make", "-n", target], cwd=tmp_path, check=True, capture_output=True, text=True)
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_run_installs_only_the_runtime_requirements(tmp_path: Path) -> None:
    planned = _planned(tmp_path, "run")
    assert "-r requirements.txt" in planned
    assert "requirements-dev.txt" not in planned
    assert "streamlit run app.py" in planned


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_test_installs_the_whole_toolchain(tmp_path: Path) -> None:
    planned = _planned(tmp_path, "check")
    assert "-r requirements.txt" in planned and "-r requirements-dev.txt" in planned


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_run_after_test_installs_nothing_again(tmp_path: Path) -> None:
    """Once `make test` set up, `make run` only starts the app."""
    planned = _planned(tmp_path, "run", stamps_from="setup")
    assert "pip install" not in planned and "streamlit run app.py" in planned
