"""An assignment in words, its members' standings as a table, and the completion record as a
PDF (fpdf2) with a Japanese font embedded, so names and titles print on any machine.

The font is the system's Noto Sans CJK (Debian's ``fonts-noto-cjk``, which
``scripts/ensure-browser.sh`` installs) or the file ``QUIZ_PDF_FONT`` names; without one the
record is refused with ``PdfFontMissingError``, never printed as empty boxes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from quiz.content.categories import category_labels
from quiz.content.loader import Content
from quiz.db.assignments import Assignment, MemberStanding
from quiz.model.errors import QuizError
from quiz.model.local_time import local_text, local_time
from quiz.model.words import t
from quiz.training.assignments import Plan

FONT_ENV = "QUIZ_PDF_FONT"
FONT_FILES = (  # a .ttc's first face is the Japanese one (NotoSansCJKjp)
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc"),
)
TABLE_COLUMNS = ("trainee", "status", "progress", "done_at")


class PdfFontMissingError(QuizError, FileNotFoundError):
    """No Japanese font to embed in a PDF."""


def plan_lines(plan: Plan, content: Content, language: str, exam_names: Mapping[str, str]) -> list[str]:
    """What the plan asks, one line per part, in ``language``."""
    lines: list[str] = []
    if plan.practice:
        labels = category_labels(content, language, t("shell.knowledge", language))
        what = [labels.get(key, key) for key in plan.categories]
        if plan.cards:
            what.append(t("assign.plan_cards", language, count=len(plan.cards)))
        lines.append(t("assign.plan_practice", language, what=", ".join(what), mastery=plan.mastery))
    if plan.exam:
        lines.append(t("assign.plan_exam", language, name=exam_names.get(plan.exam, plan.exam)))
    return lines


def due_day(due: datetime, zone: str) -> str:
    """The day an assignment is due by, in ``zone`` (``due`` is that day's end: ``due_at``)."""
    return local_time(due - timedelta(microseconds=1), zone).date().isoformat()


def standing_rows(members: Sequence[MemberStanding], language: str, zone: str) -> list[dict[str, str]]:
    """One row of ``TABLE_COLUMNS`` per member, in words, times in ``zone``."""
    return [
        {"trainee": m.name, "status": t(f"assign.status.{m.standing.status}", language),
         "progress": f"{round(m.standing.progress * 100)}%", "done_at": local_text(m.standing.done_at, zone)}
        for m in members
    ]


def font_file(environ: Mapping[str, str] = os.environ) -> Path:
    """The Japanese font to embed: ``QUIZ_PDF_FONT`` when set, else the system's Noto Sans CJK."""
    candidates = [Path(environ[FONT_ENV])] if environ.get(FONT_ENV) else list(FONT_FILES)
    for path in candidates:
        if path.is_file():
            return path
    raise PdfFontMissingError(
        f"no Japanese font for the PDF: install fonts-noto-cjk (apt-get install fonts-noto-cjk) or set "
        f"{FONT_ENV} to a .ttf/.otf/.ttc file; looked for {', '.join(str(p) for p in candidates)}")


def completion_pdf(
    assignment: Assignment, members: Sequence[MemberStanding], plan: Sequence[str], language: str, zone: str,
    printed_at: datetime, font: Path | None = None,
) -> bytes:
    """The completion record: the assignment (title, what, due), then every member's status,
    progress and completion time, and when it was printed."""
    from fpdf import FPDF  # here only: no page but this download needs it
    from fpdf.fonts import FontFace

    pdf = FPDF(format="A4")
    pdf.set_title(assignment.title)
    pdf.add_font("jp", fname=str(font or font_file()), collection_font_number=0)
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font("jp", size=16)
    pdf.multi_cell(0, 9, t("assign.pdf_title", language), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("jp", size=13)
    pdf.multi_cell(0, 8, assignment.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("jp", size=10)
    for line in [*plan, t("assign.due_line", language, due=due_day(assignment.due, zone)),
                 t("assign.pdf_printed", language, time=f"{local_text(printed_at, zone)} ({zone})")]:
        pdf.multi_cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    with pdf.table(col_widths=(40, 20, 15, 25), text_align=("LEFT", "LEFT", "RIGHT", "LEFT"),
                   headings_style=FontFace(emphasis=None, fill_color=(235, 235, 235))) as table:  # one weight embedded
        table.row([t(f"assign.col_{name}", language) for name in TABLE_COLUMNS])
        for row in standing_rows(members, language, zone):
            table.row([row[name] for name in TABLE_COLUMNS])
    return bytes(pdf.output())
