"""The completion record: read back from the PDF it makes, the Japanese title, every
trainee's name and status are in it, with the Japanese font embedded; no font, a clear error."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest

from quiz.db.assignments import Assignment, MemberStanding
from quiz.model.errors import PdfFontMissingError
from quiz.report.assignments import FONT_ENV, completion_pdf, font_file, plan_lines
from quiz.training.assignments import Plan, Standing

pypdf = pytest.importorskip("pypdf")

NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
PLAN = Plan(categories=("yugioh-ocg/tardiness",), mastery=80, exam="ygo-20")
ASSIGNMENT = Assignment(7, 1, 1, NOW, "新人研修：遅刻と模擬試験", PLAN, NOW + timedelta(days=1))
MEMBERS = [
    MemberStanding(1, "田中 愛子", Standing("done", 1.0, NOW)),
    MemberStanding(2, "Ben Ishikawa", Standing("on_track", 0.5)),
    MemberStanding(3, "石川 千佳", Standing("late", 0.0)),
]


@pytest.fixture(scope="module")
def font():
    try:
        return font_file()
    except PdfFontMissingError as missing:  # make test installs fonts-noto-cjk (scripts/ensure-browser.sh)
        pytest.skip(str(missing))


def read_back(data: bytes) -> tuple[str, list[dict]]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    text = "".join(page.extract_text() for page in reader.pages)
    fonts = [font.get_object() for page in reader.pages for font in page["/Resources"]["/Font"].values()]
    return "".join(text.replace("\x00", "").split()), fonts  # pypdf puts NULs and spaces between glyphs


def test_the_record_names_the_assignment_and_every_member_in_japanese(font, content):
    plan = plan_lines(PLAN, content, "ja", {"ygo-20": "遊戯王 20問"})
    text, fonts = read_back(completion_pdf(ASSIGNMENT, MEMBERS, plan, "ja", "Asia/Tokyo", NOW, font))
    for expected in ["修了記録", ASSIGNMENT.title, "田中愛子", "BenIshikawa", "石川千佳", "完了", "進行中",
                     "期限切れ", "期限2026-12-04", "2026-12-0318:00", "模擬試験「遊戯王20問」に合格する", "50%"]:
        assert "".join(expected.split()) in text
    [japanese] = fonts
    descriptor = japanese["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
    assert "NotoSansCJK" in str(japanese["/BaseFont"]) and "/FontFile3" in descriptor  # embedded, not named


def test_the_english_record_words_statuses_in_english(font, content):
    text, _ = read_back(completion_pdf(ASSIGNMENT, MEMBERS, plan_lines(PLAN, content, "en", {}), "en", "UTC", NOW,
                                       font))
    assert "Completionrecord" in text and "Ontrack" in text and "Passtheexamygo-20" in text


def test_without_a_font_the_record_is_refused_with_what_to_install(tmp_path):
    with pytest.raises(PdfFontMissingError, match="fonts-noto-cjk"):
        font_file({FONT_ENV: str(tmp_path / "none.ttc")})


SCRIPTS = {  # finding L2: each printed blank (Махім lost its і), and only the server log said so
    "Ethiopic": "አበበ ቢቂላ", "Thai": "สมชาย ใจดี", "Arabic": "ليلى", "Hebrew": "דוד", "Mongolian": "ᠪᠠᠲᠤ",
    "Cuneiform": "𒀭𒂗𒍪", "emoji": "Ken 👍🏽", "Cyrillic": "Махім",
}
SCRIPT_MEMBERS = [MemberStanding(n, name, Standing("on_track", 0.5)) for n, name in enumerate(SCRIPTS.values(), 10)]


def test_names_a_font_lacks_print_as_a_question_mark_and_the_page_says_so(font, content):
    data = completion_pdf(ASSIGNMENT, [*MEMBERS, *SCRIPT_MEMBERS], [], "en", "UTC", NOW, font, fallbacks=[])
    text, _ = read_back(data)
    assert "田中愛子" in text and "BenIshikawa" in text  # what the font has is printed as before
    assert "Мах?м" in text  # the Cyrillic і (not in Noto CJK) is a ?; before: Махм
    assert "Ken??" in text  # the emoji and its skin tone; before: Ken
    assert "????" in text  # the Ethiopic name; before: nothing
    assert "printas?" in text  # the note under the table


def test_names_print_in_every_script_the_installed_fonts_cover(font, content):
    from quiz.report.assignments import _covered, installed_fallbacks

    fallbacks = installed_fallbacks()
    if not fallbacks:
        pytest.skip("no fonts-noto-core here (scripts/ensure-browser.sh installs it)")
    covered = _covered(font).union(*(_covered(path) for path in fallbacks))
    text, fonts = read_back(completion_pdf(ASSIGNMENT, SCRIPT_MEMBERS, [], "en", "UTC", NOW, font))
    for script, name in SCRIPTS.items():
        if all(ord(c) in covered or c == " " for c in name):
            assert "".join(name.split()) in text or script in ("Arabic", "Hebrew", "Mongolian", "Thai"), script
    assert len(fonts) > 1
