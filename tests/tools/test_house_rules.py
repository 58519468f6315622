"""The house rules are kept by tools, not habit: import-linter's contracts (pyproject.toml)
pass on the tree and fail on a copy of it with a deliberate violation."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is installed by make setup")


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=300)


def copy_of_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("quiz", "quizbench"):
        shutil.copytree(ROOT / package, tree / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_tree_keeps_every_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("quiz/rules/engine.py", "import streamlit", "Only quiz.ui imports streamlit"),
    ("quiz/rules/engine.py", "import quiz.db.store", "Stages: data flows one way"),
    ("quiz/model/cards.py", "import quiz.content.loader", "Stages: data flows one way"),
    ("quiz/report/team.py", "import quizbench.bench.run", "The product never imports the benchmark"),
])
def test_a_deliberate_violation_breaks_its_contract(tmp_path, module, line, contract):
    tree = copy_of_tree(tmp_path)
    target = tree / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # a deliberate violation\n", encoding="utf-8")
    result = lint_imports(tree)
    assert result.returncode != 0
    broken = [text for text in result.stdout.splitlines() if text.endswith("BROKEN")]
    assert any(text.startswith(contract) for text in broken), result.stdout
