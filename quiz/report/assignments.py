"""An assignment in words, its members' standings as a table, and the completion record as a
PDF (fpdf2) with a Japanese font embedded, so names and titles print on any machine.

The font is the system's Noto Sans CJK (Debian's ``fonts-noto-cjk``, which
``scripts/ensure-browser.sh`` installs) or the file ``QUIZ_PDF_FONT`` names; without one the
record is refused with ``PdfFontMissingError``, never printed as empty boxes. Names in other
scripts print in the Noto fonts of Debian's ``fonts-noto-core`` that are installed
(``FALLBACK_FONTS``: Latin, Cyrillic and Greek beyond CJK's, Ethiopic, Thai, Arabic, Hebrew,
Mongolian, cuneiform...); a character no embedded font has is printed as ``?`` and the page
says so under the table (before, fpdf2 left it out or blank and only the server's log said so).
"""

from __future__ import annotations

import math
import os
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

from quiz.content.categories import category_labels
from quiz.content.loader import Content
from quiz.db.assignments import Assignment, MemberStanding
from quiz.model.errors import PdfFontMissingError
from quiz.model.local_time import local_text, local_time
from quiz.model.words import t
from quiz.training.assignments import Plan, plan_cards

FONT_ENV = "QUIZ_PDF_FONT"
FONT_FILES = (  # a .ttc's first face is the Japanese one (NotoSansCJKjp)
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc"),
)
NOTO_CORE = Path("/usr/share/fonts/truetype/noto")  # Debian's fonts-noto-core
FALLBACK_FONTS = tuple(NOTO_CORE / f"NotoSans{script}-Regular.ttf" for script in (
    "", "Ethiopic", "Thai", "Arabic", "Hebrew", "Mongolian", "Cuneiform", "Devanagari", "Bengali", "Tamil",
    "Armenian", "Georgian", "Khmer", "Lao", "Myanmar", "Sinhala", "Tibetan", "Symbols", "Symbols2", "Math",
)) + (NOTO_CORE / "NotoSerifTibetan-Regular.ttf",)
MISSING = "?"  # printed for a character no embedded font has
TABLE_COLUMNS = ("trainee", "status", "progress", "done_at")


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


def plan_size(plan: Plan, content: Content, language: str, exam_questions: Mapping[str, int]) -> str:
    """How big the plan is, in one line: the cards to practise and how many of them must be
    mastered, and the exam's questions."""
    parts: list[str] = []
    if plan.practice:
        cards = len(plan_cards(content, plan))
        parts.append(t("assign.size_practice", language, count=cards, needed=math.ceil(cards * plan.mastery / 100)))
    if plan.exam:
        parts.append(t("assign.size_exam", language, count=exam_questions.get(plan.exam, 0)))
    return t("assign.size", language, what=" + ".join(parts))


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


@lru_cache(maxsize=32)
def _covered(path: Path, number: int = 0) -> frozenset[int]:
    """The code points font ``path`` (face ``number`` of a collection) has a glyph for."""
    from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]  # fpdf2 depends on it

    face = TTCollection(str(path), lazy=True).fonts[number] if path.suffix.lower() == ".ttc" else TTFont(
        str(path), lazy=True)
    return frozenset(face.getBestCmap() or {})


def installed_fallbacks(candidates: Sequence[Path] = FALLBACK_FONTS) -> list[Path]:
    """The fallback fonts of ``candidates`` that are on this machine."""
    return [path for path in candidates if path.is_file()]


def printable(text: str, covered: frozenset[int]) -> tuple[str, bool]:
    """``text`` with each character no font covers printed as ``MISSING`` (joiners and variation
    selectors, which draw nothing, left out); whether any was replaced."""
    out, replaced = [], False
    for char in text:
        if ord(char) in covered or char in "\n ":
            out.append(char)
        elif unicodedata.category(char) == "Cf" or 0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF:
            continue
        else:
            out.append(MISSING)
            replaced = True
    return "".join(out), replaced


def completion_pdf(
    assignment: Assignment, members: Sequence[MemberStanding], plan: Sequence[str], language: str, zone: str,
    printed_at: datetime, font: Path | None = None, fallbacks: Sequence[Path] | None = None,
) -> bytes:
    """The completion record: the assignment (title, what, due), then every member's status,
    progress and completion time, and when it was printed. ``fallbacks``: fonts for the
    characters the main one lacks (by default ``installed_fallbacks()``)."""
    from fpdf import FPDF  # here only: no page but this download needs it
    from fpdf.fonts import FontFace

    main = font or font_file()
    extra = installed_fallbacks() if fallbacks is None else list(fallbacks)
    covered = _covered(main).union(*(_covered(path) for path in extra))
    replaced = False

    def shown(text: str) -> str:
        nonlocal replaced
        text, missing = printable(text, covered)
        replaced = replaced or missing
        return text

    pdf = FPDF(format="A4")
    pdf.set_title(assignment.title)
    pdf.add_font("jp", fname=str(main), collection_font_number=0)
    for n, path in enumerate(extra):
        pdf.add_font(f"fallback{n}", fname=str(path))
    pdf.set_fallback_fonts([f"fallback{n}" for n in range(len(extra))])
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font("jp", size=16)
    pdf.multi_cell(0, 9, t("assign.pdf_title", language), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("jp", size=13)
    pdf.multi_cell(0, 8, shown(assignment.title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("jp", size=10)
    for line in [*plan, t("assign.due_line", language, due=due_day(assignment.due, zone)),
                 t("assign.pdf_printed", language, time=f"{local_text(printed_at, zone)} ({zone})")]:
        pdf.multi_cell(0, 6, shown(line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    with pdf.table(col_widths=(40, 20, 15, 25), text_align=("LEFT", "LEFT", "RIGHT", "LEFT"),
                   headings_style=FontFace(emphasis=None, fill_color=(235, 235, 235))) as table:  # one weight embedded
        table.row([t(f"assign.col_{name}", language) for name in TABLE_COLUMNS])
        for row in standing_rows(members, language, zone):
            table.row([shown(row[name]) for name in TABLE_COLUMNS])
    if replaced:  # said on the page, where the reader sees the "?"
        pdf.ln(3)
        pdf.multi_cell(0, 6, t("assign.pdf_missing_glyphs", language, mark=MISSING), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
