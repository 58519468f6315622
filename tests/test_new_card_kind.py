"""Adding a kind of card takes its model and one case in each dispatch module, nothing else:
shown on a copy of the package with a fixture kind (true or false, tests/new_kind), which
then runs from its card file to the feedback on a page; and mypy, given only the model, names
the dispatch modules and no other."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import new_kind
from tests.test_card_kind_dispatch import DISPATCH_MODULES

REPO = Path(__file__).resolve().parents[1]


def run(command: list[str], work: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(work), MYPYPATH="")
    return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=600)


def test_the_fixture_names_every_dispatch_module():
    assert set(new_kind.DISPATCH_MODULES) == DISPATCH_MODULES == set(new_kind.CASES)


def test_a_new_kind_edits_only_the_model_and_the_dispatch_modules_and_runs_end_to_end(tmp_path):
    package = new_kind.copy_package(tmp_path)
    new_kind.add_model(package)
    new_kind.add_cases(package)
    assert new_kind.edited_files(new_kind.PACKAGE, package) == {
        "model/cards.py", *DISPATCH_MODULES, *new_kind.LOCALES}
    done = run([sys.executable, str(REPO / "tests/new_kind/exercise.py"), str(REPO), str(tmp_path)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def mypy_files(work: Path) -> set[str]:
    """The files of the copy that mypy finds errors in. Its cache is the copy's, begun as a
    copy of the checkout's (``make check`` runs mypy first; the copy's files have the same
    relative paths, and a file whose content differs is checked again): the copy then checks
    only what differs, not every installed library's types again."""
    cache = work / ".mypy_cache"
    if not cache.exists() and (REPO / ".mypy_cache").is_dir():
        shutil.copytree(REPO / ".mypy_cache", cache)
    done = run([sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
                "--cache-dir", str(work / ".mypy_cache"), "quiz"], work)
    assert "error:" in done.stdout or done.returncode == 0, done.stdout + done.stderr
    return {match for match in re.findall(r"^quiz/(\S+?\.py):\d+: error", done.stdout, re.MULTILINE)}


@pytest.mark.slow
def test_mypy_names_the_dispatch_modules_of_a_new_kind_and_no_other(tmp_path):
    package = new_kind.copy_package(tmp_path)
    new_kind.add_model(package)
    assert mypy_files(tmp_path) == DISPATCH_MODULES  # every match without the new kind, and nothing else
    new_kind.add_cases(package)
    assert mypy_files(tmp_path) == set()
