"""Content packs: validated by the loader, ids checked, staged by their cards' ruleset; nothing
written to the content folder (quiz.db.packs imports them: tests/db/test_packs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.content.loader import SCENARIOS_DIR, load_content
from quiz.content.packs import (
    CONTENT_DIR_ENV,
    DEFAULT_CONTENT_DIR,
    check_pack,
    content_dir,
    existing_card_ids,
    problems_frame,
)
from quiz.model.errors import Problem
from quiz.model.words import Wording
from tests.pack_files import knowledge, scenario, zip_of


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "content"


def everything_under(path: Path) -> list[str]:
    return sorted(p.relative_to(path).as_posix() for p in path.rglob("*")) if path.exists() else []


def test_content_folder_defaults_to_the_project_and_follows_the_environment(tmp_path):
    assert content_dir({}) == DEFAULT_CONTENT_DIR
    assert DEFAULT_CONTENT_DIR.name == "content" and DEFAULT_CONTENT_DIR.parent == SCENARIOS_DIR.parent
    assert content_dir({CONTENT_DIR_ENV: str(tmp_path)}) == tmp_path


def test_a_valid_yaml_file_is_previewed_with_the_engine_verdict(folder):
    report = check_pack("late.yaml", scenario().encode("utf-8"), folder)
    assert report.problems == [] and report.ok
    [preview] = report.cards
    assert (preview.file, preview.card.id, preview.card.title.en) == ("late.yaml", "pack-ygo-late-15", "Seated fifteen minutes in")
    assert (preview.verdict.infraction, preview.verdict.penalty) == ("tardiness", "match_loss")  # 15 >= 10
    assert report.imported is None
    assert everything_under(folder) == []  # checking leaves nothing behind


def test_a_valid_zip_is_staged_by_the_ruleset_of_its_cards_and_loads(folder):
    data = zip_of({"mypack/yugioh-ocg/late.yaml": scenario(), "knowledge.yml": knowledge()})
    report = check_pack("My Pack!.zip", data, folder)
    assert report.ok and report.imported is None
    # Each file is staged in the folder of its cards' ruleset (the zip's own folders are not used).
    assert sorted(report.staged) == ["pokemon-card-ja/knowledge.yaml", "yugioh-ocg/late.yaml"]
    assert report.staged["yugioh-ocg/late.yaml"] == scenario()
    assert everything_under(folder) == []


def test_a_card_of_the_local_content_folder_is_every_stores_and_its_id_is_taken(folder):
    (folder / "hand" / "yugioh-ocg").mkdir(parents=True)
    (folder / "hand" / "yugioh-ocg" / "late.yaml").write_text(scenario(), encoding="utf-8")
    assert "pack-ygo-late-15" in load_content(card_paths=[SCENARIOS_DIR, folder]).cards
    report = check_pack("again.yaml", scenario().encode("utf-8"), folder)
    assert not report.ok and "already used by content/hand/yugioh-ocg/late.yaml" in report.problems[0].message


def test_a_card_id_of_a_shipped_card_is_refused_with_its_line(folder):
    shipped_id = "ygo-tardiness-1min-store"
    text = scenario("pack-new-one") + scenario(shipped_id).replace("cards:\n", "", 1)
    report = check_pack("dup.yaml", text.encode("utf-8"), folder)
    assert not report.ok and report.imported is None
    [problem] = report.problems
    assert (problem.path, problem.field) == ("dup.yaml", "cards[1].id")
    assert problem.line == 1 + len(scenario().splitlines())  # the second card's "- id:" line
    assert "scenarios/yugioh-ocg/tardiness.yaml" in problem.message
    assert everything_under(folder) == []  # the valid first card is not imported either


def test_a_card_id_of_a_stored_pack_is_refused(folder):
    again = check_pack("again.yaml", scenario().encode("utf-8"), folder, taken={"pack-ygo-late-15": "packs/first/"})
    assert not again.ok
    assert "already taken by an imported pack" in again.problems[0].message
    assert "first" not in again.problems[0].message  # finding L1: the pack's name holds its uploader's file name


def test_duplicate_ids_inside_a_pack_name_the_uploaded_file(folder):
    report = check_pack("pack.zip", zip_of({"a/one.yaml": scenario(), "b/two.yaml": scenario()}), folder)
    [problem] = report.problems
    assert problem.path == "b/two.yaml" and problem.field == "cards[0].id"
    assert "(first in a/one.yaml)" in problem.message


def test_broken_yaml_is_reported_with_its_line(folder):
    broken = scenario().replace("    infraction: tardiness\n", "    infraction: [tardiness\n")
    line = broken.splitlines().index("    infraction: [tardiness") + 1
    report = check_pack("pack.zip", zip_of({"broken.yaml": broken, "good.yaml": knowledge()}), folder)
    assert not report.ok and everything_under(folder) == []
    [problem] = report.problems
    assert (problem.path, problem.field) == ("broken.yaml", "yaml")
    assert line <= problem.line <= line + 1  # the parser stops on the bracket's line or the next
    assert [c.card.id for c in report.cards] == ["pack-pkm-k-piles"]  # the rest is still previewed


def test_a_card_the_engine_disagrees_with_is_reported(folder):
    wrong = scenario().replace("expect: {penalty: match_loss", "expect: {penalty: warning")
    report = check_pack("wrong.yaml", wrong.encode("utf-8"), folder)
    [problem] = report.problems
    assert problem.field == "cards[0].expect.penalty" and "match_loss" in problem.message
    assert problem.line == wrong.splitlines().index("    expect: {penalty: warning, fixes: []}") + 1


def test_a_zip_slip_entry_refuses_the_whole_pack_and_writes_nothing_outside(tmp_path, folder):
    data = zip_of({"../../escaped.yaml": scenario("pack-escaped"), "good.yaml": knowledge()})
    report = check_pack("evil.zip", data, folder)
    assert not report.ok and report.imported is None
    assert [(p.path, p.message) for p in report.problems] == [("../../escaped.yaml", "refused: '..' in the path")]
    assert not list(tmp_path.parent.rglob("escaped.yaml")) and everything_under(folder) == []


def test_an_absolute_entry_refuses_the_whole_pack(folder):
    report = check_pack("abs.zip", zip_of({"/tmp/abs-card.yaml": scenario()}), folder)
    assert report.problems[0].message == "refused: an absolute path"
    assert not Path("/tmp/abs-card.yaml").exists() and everything_under(folder) == []


def test_an_oversize_upload_is_refused(folder):
    big = scenario() + "#" * (2 * 1024 * 1024)
    report = check_pack("big.yaml", big.encode("utf-8"), folder)
    assert report.problems[0].path == "big.yaml" and "limit is 2.0 MB" in report.problems[0].message
    assert report.cards == [] and everything_under(folder) == []


def test_a_ruleset_that_is_not_a_plain_id_never_becomes_a_folder(folder):
    sneaky = scenario().replace("ruleset: yugioh-ocg", "ruleset: ../../outside")
    report = check_pack("sneaky.yaml", sneaky.encode("utf-8"), folder)
    assert not report.ok
    assert report.problems[0].field == "cards[0].ruleset" and "unknown ruleset" in report.problems[0].message
    assert everything_under(folder) == []


def test_a_card_of_an_unknown_game_is_refused(folder):
    other = scenario().replace("ruleset: yugioh-ocg", "ruleset: magic")
    report = check_pack("magic.yaml", other.encode("utf-8"), folder)
    assert report.problems[0].message.startswith("unknown ruleset 'magic'")


def test_an_empty_pack_is_not_imported(folder):
    report = check_pack("empty.yaml", b"cards: []\n", folder)
    assert not report.ok and report.problems[0].message == "the pack holds no card"
    assert check_pack("empty.zip", zip_of({}), folder).problems[0].message == "the pack holds no card file"


def test_unsafe_yaml_tags_are_refused(folder):
    evil = "cards: !!python/object/apply:os.system ['echo pwned']\n"
    report = check_pack("evil.yaml", evil.encode("utf-8"), folder)
    assert report.problems[0].field == "yaml" and "unsafe" in report.problems[0].message


def test_staging_folders_are_never_loaded_as_content(folder):
    staging = folder / ".staging-left-over" / "yugioh-ocg"
    staging.mkdir(parents=True)
    (staging / "late.yaml").write_text(scenario(), encoding="utf-8")
    assert "pack-ygo-late-15" not in load_content(card_paths=[folder]).cards
    assert existing_card_ids([folder]) == {}


def test_existing_ids_include_broken_files(tmp_path):
    root = tmp_path / "content"
    (root / "p" / "yugioh-ocg").mkdir(parents=True)
    broken = scenario("pack-broken").replace("facts: {minutes_late: 15}", "facts: {minutes_late: -1}")
    (root / "p" / "yugioh-ocg" / "b.yaml").write_text(broken, encoding="utf-8")
    assert existing_card_ids([root]) == {"pack-broken": "content/p/yugioh-ocg/b.yaml"}


def test_problems_frame_lists_file_line_field_message_in_the_language():
    problems = [Problem("a.yaml", 3, "cards[0].id", Wording("problem.schema.missing"))]
    assert problems_frame(problems, "en").to_dict("records") == [
        {"file": "a.yaml", "line": 3, "field": "cards[0].id", "message": "required field is missing"}]
    assert problems_frame(problems, "ja").to_dict("records") == [
        {"file": "a.yaml", "line": 3, "field": "cards[0].id", "message": "必須の項目がありません"}]
    assert list(problems_frame([], "ja").columns) == ["file", "line", "field", "message"]
