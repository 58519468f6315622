"""The house's size and reference rules, held by a test: small modules, docs that are
reference (today's instructions and figures, at most so many lines), and no run diary
(dates, issue numbers) anywhere but the changelog and git's own history."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE_DECLARATIONS = {"quiz/db/tables.py"}
MODULE_LINES = 400
DOC_LINES = {"docs/DEPLOYMENT.md": 400, "docs/PERFORMANCE.md": 200}
TEXT_SUFFIXES = {".py", ".md", ".sh", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".txt"}
ISSUE_NUMBER = re.compile(r"\b(?:[Ii]ssues?|[Ss]tops?) #?\d+\b")
MONTHS = ("Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          "Sep(?:t|tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?")
DATE_IN_PROSE = re.compile(rf"\b(?:{MONTHS})\.? \d{{1,2}}\b|\b20\d\d-\d\d-\d\d\b")


def tracked(*patterns: str) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [ROOT / name for name in listed]


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_of_the_package_is_over_400_lines_but_the_table_declarations() -> None:
    long = {str(p.relative_to(ROOT)): line_count(p) for p in tracked("quiz/*.py", "quiz/**/*.py")}
    over = {name: n for name, n in long.items() if n > MODULE_LINES and name not in TABLE_DECLARATIONS}
    assert long, "no module found: is this a git checkout?"
    assert not over, over


@pytest.mark.parametrize(("doc", "limit"), sorted(DOC_LINES.items()))
def test_a_reference_doc_keeps_to_its_length(doc: str, limit: int) -> None:
    assert line_count(ROOT / doc) <= limit


def test_no_issue_or_stop_number_outside_the_changelog() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in tracked() if path.suffix in TEXT_SUFFIXES and path.name != "CHANGELOG.md"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if ISSUE_NUMBER.search(line)]
    assert not found, "\n".join(found)


def test_the_docs_carry_no_dated_passages() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in [ROOT / "README.md", *tracked("docs/*.md")]
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if DATE_IN_PROSE.search(line)]
    assert not found, "\n".join(found)


def test_the_diary_patterns_catch_what_they_are_for() -> None:
    """The patterns find the diaries they are meant to and leave ordinary prose alone."""
    # the examples are joined here, so that this file does not hold the diary it looks for
    number, month, day, iso = "30", "Dec", "3", "-".join(("2026", "12", "03"))
    assert ISSUE_NUMBER.search(f"as issue {number} found") and ISSUE_NUMBER.search(f"since stop {number}")
    assert DATE_IN_PROSE.search(f"{month} {day}, later") and DATE_IN_PROSE.search(f"run on {iso}")
    assert not ISSUE_NUMBER.search("a stop of the server") and not DATE_IN_PROSE.search("Decision 2")
