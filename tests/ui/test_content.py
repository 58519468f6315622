"""The Content page: the health panel, and uploading packs that are refused or imported."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from sqlalchemy import insert

from quiz.access.upload_quota import Refusal
from quiz.content.packs import CONTENT_DIR_ENV
from quiz.db.packs import import_pack
from quiz.db.store import Store
from quiz.db.tables import stores
from quiz.model.attempt import utc_now
from quiz.ui.markdown import escape_markdown
from quiz.ui.streamlit_internals import upload_limit
from tests.pack_files import knowledge, scenario, zip_of
from tests.shipped_content import shipped_content
from tests.ui import supervisor

PAGE = "quiz/ui/pages/content.py"
SHIPPED = shipped_content()


PASSWORD = "pack-supervisor"


@pytest.fixture
def bare_folder(tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch):
    """The content folder, with no supervisor account yet."""
    folder = tmp_path / "content"
    monkeypatch.setenv(CONTENT_DIR_ENV, str(folder))
    supervisor.prepare(monkeypatch)
    return folder


@pytest.fixture
def folder(tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch):
    """The content folder, and an admin account of ``PASSWORD``."""
    folder = tmp_path / "content"
    monkeypatch.setenv(CONTENT_DIR_ENV, str(folder))
    supervisor.prepare(monkeypatch)
    supervisor.make_account(PASSWORD)
    return folder


def unlock(at, password: str = PASSWORD):
    """Sign in on the page, as a supervisor would."""
    return supervisor.unlock(at, password)


def test_anyone_can_check_a_pack_but_importing_needs_the_supervisor_password(open_app, folder):
    at = open_app(page=PAGE)
    assert at.file_uploader  # checking a pack needs no password
    at.file_uploader[0].set_value(("late.yaml", scenario().encode("utf-8"), "application/x-yaml")).run()
    assert at.success[-1].value == "The card is valid: 1 card ready to import."
    assert at.dataframe[-1].value.iloc[0]["Title"] == "Seated fifteen minutes in"  # the preview too
    assert not [b for b in at.button if b.label.startswith("Import")]
    assert at.info[0].value.startswith("The pack is valid. Importing it needs a supervisor account")
    assert any("needs a supervisor account" in c.value for c in at.caption)
    unlock(at)  # the pack checked stays checked
    assert [b.label for b in at.button if b.label.startswith("Import")] == ["Import 1 card"]


def test_a_wrong_password_unlocks_nothing(open_app, folder):
    at = open_app(page=PAGE)
    at.file_uploader[0].set_value(("late.yaml", scenario().encode("utf-8"), "application/x-yaml")).run()
    unlock(at, "wrong")
    assert at.error[0].value.startswith("That name and password do not match an account.")
    assert not [b for b in at.button if b.label.startswith(("Import", "Remove"))]


def test_without_an_account_nobody_can_import(open_app, bare_folder):
    at = open_app(page=PAGE)
    assert "No supervisor account exists yet" in at.info[0].value
    at.file_uploader[0].set_value(("late.yaml", scenario().encode("utf-8"), "application/x-yaml")).run()
    assert at.success[-1].value == "The card is valid: 1 card ready to import."
    assert not [b for b in at.button if b.label.startswith("Import")]


def test_every_problem_of_a_pack_at_once(open_app, folder):
    """A schema problem (an unknown field) does not hide the card's other problems, nor another file's."""
    card = scenario().replace("    facts: {minutes_late: 15}", "    facts: {minutes_late: 15}\n    colour: blue")
    card = card.replace("expect: {penalty: match_loss", "expect: {penalty: warning")
    other = scenario("pack-other").replace("infraction: tardiness", "infraction: no_such_infraction")
    at = open_app(page=PAGE)
    at.file_uploader[0].set_value(("two.zip", zip_of({"a.yaml": card, "b.yaml": other}), "application/zip")).run()
    assert at.error[0].value == "This pack cannot be imported: 3 problems."
    problems = at.dataframe[-1].value
    assert list(zip(problems["File"], problems["Field"])) == [  # file by file, line by line
        ("a.yaml", "cards[0].colour"), ("a.yaml", "cards[0].expect.penalty"), ("b.yaml", "cards[0].infraction")]
    lines = card.splitlines()
    assert list(problems["Line"][:2]) == [lines.index("    colour: blue") + 1,
                                          next(n for n, line in enumerate(lines, 1) if "expect:" in line)]
    assert "unknown field" in problems.iloc[0]["Problem"] and "engine gives match_loss" in problems.iloc[1]["Problem"]


def test_the_authoring_guide_is_on_the_page_in_the_reader_s_language(open_app, folder):
    """The guide in the app was once English only and written for developers."""
    at = open_app(page=PAGE)
    guide = next(e for e in at.expander if e.label == "Authoring guide: how to write cards")
    assert any(m.value.startswith("# Writing cards (for store staff") for m in guide.markdown)
    at = open_app(lang="ja", page=PAGE)
    guide = next(e for e in at.expander if e.label == "作成ガイド：カードの書き方")
    assert any(m.value.startswith("# カードの作り方") for m in guide.markdown)
    assert not guide.caption  # no "this guide is in English" any more


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_guide_s_example_card_passes_the_check_an_upload_gets(store, folder, language):
    """The card an author copies from the guide is a valid pack as it stands."""
    from quiz.content.packs import authoring_guide
    from quiz.db.packs import check_upload

    guide = authoring_guide(language)
    assert guide is not None
    example = re.search(r"```yaml\n(.*?)```", guide, re.S)
    assert example is not None
    report = check_upload(store, "guide-example.yaml", example.group(1).encode("utf-8"), local=folder)
    assert report.ok and not report.problems, report.problems
    assert [preview.card.id for preview in report.cards] == ["store-ygo-late-15"]


def stored(upload: str, card_id: str, store_id: int | None = None) -> str:
    """A pack imported into the app's database (``$QUIZ_DATABASE_URL``) as the command line
    would; its name."""
    store = Store(os.environ["QUIZ_DATABASE_URL"])
    try:
        report = import_pack(store, None, upload, scenario(card_id).encode("utf-8"), store_id=store_id)
    finally:
        store.dispose()
    assert report.imported is not None, report.problems
    return report.imported


def test_a_supervisor_removes_a_pack_after_confirming(open_app, folder):
    old, kept = stored("old-pack.yaml", "pack-old-pack"), stored("kept-pack.yaml", "pack-kept-pack")
    at = open_app(page=PAGE)
    assert {"pack-old-pack", "pack-kept-pack"} <= set(loaded_cards(at))
    assert not [b for b in at.button if b.label.startswith("Remove")]  # supervisors only
    unlock(at)
    next(b for b in at.button if b.label == f"Remove: {old}").click().run()
    assert at.warning[-1].value.startswith(f"Remove the pack {escape_markdown(old)} (1 file)?")
    next(b for b in at.button if b.label == "Cancel").click().run()
    assert not at.warning and "pack-old-pack" in loaded_cards(at)
    next(b for b in at.button if b.label == f"Remove: {old}").click().run()
    next(b for b in at.button if b.label == "Yes, remove it").click().run()
    assert not at.exception
    assert at.success[-1].value == f"Removed the pack {escape_markdown(old)}."
    cards = loaded_cards(at)  # no reload asked for: the packs' version moved
    assert "pack-old-pack" not in cards and "pack-kept-pack" in cards
    assert list(at.dataframe[-1].value["Pack"]) == [kept]
    assert not folder.exists()  # the local folder is never written


def test_a_stores_supervisor_imports_for_their_store_and_removes_only_its_packs(open_app, folder):
    store_a, store_b = make_stores("A", "B")
    supervisor.make_account("store-a-password", "Sato", "supervisor", store_a)
    theirs, everyone = stored("b.yaml", "pack-b-card", store_b), stored("all.yaml", "pack-all-card")
    at = supervisor.unlock(open_app(page=PAGE), "store-a-password", "Sato")
    packs = at.dataframe[-1].value
    assert list(packs["Pack"]) == [everyone] and list(packs["Store"]) == ["every store"]  # not B's
    assert not [b for b in at.button if b.label.startswith("Remove")]  # every store's pack: an admin's
    at.file_uploader[0].set_value(("mine.yaml", scenario().encode("utf-8"), "application/x-yaml")).run()
    next(b for b in at.button if b.label == "Import 1 card").click().run()
    assert not at.exception
    rows = at.dataframe[-1].value
    assert list(rows["Store"]) == ["A", "every store"]
    assert [b.label for b in at.button if b.label.startswith("Remove")] == [f"Remove: {rows.iloc[0]['Pack']}"]
    assert theirs not in set(rows["Pack"])


def make_stores(*names: str) -> list[int]:
    """Stores in the app's database; their ids."""
    store = Store(os.environ["QUIZ_DATABASE_URL"])
    try:
        with store.engine.begin() as conn:
            return [int(conn.execute(insert(stores).values(name=name, created_at=utc_now()).returning(stores.c.id))
                        .scalar_one()) for name in names]
    finally:
        store.dispose()


def loaded_cards(at) -> dict:
    return at.session_state["shell"].content.cards


def test_healthy_content_says_so(open_app, folder):
    at = open_app(page=PAGE)
    assert at.title[0].value == "Content"
    assert at.success[0].value == f"All content loaded: {len(SHIPPED.cards)} cards, no problems."
    unlock(at)
    assert at.main.caption[-1].value.startswith("No pack imported yet.")


def test_one_broken_file_is_shown_and_every_other_card_still_served(open_app, folder):
    games = folder / "old-pack" / "yugioh-ocg"
    games.mkdir(parents=True)
    (games / "good.yaml").write_text(scenario(), encoding="utf-8")
    broken = scenario("pack-broken").replace("facts: {minutes_late: 15}", "facts: {minutes_late: 15, rain: true}")
    (games / "broken.yaml").write_text(broken, encoding="utf-8")
    at = open_app(page=PAGE)
    assert at.warning[0].value.startswith("1 problem found.")
    problems = at.dataframe[0].value
    assert list(problems.columns) == ["File", "Line", "Field", "Problem"]
    row = problems.iloc[0]
    assert row["File"].endswith("old-pack/yugioh-ocg/broken.yaml")
    assert row["Line"] == broken.splitlines().index("    facts: {minutes_late: 15, rain: true}") + 1
    assert "rain" in row["Problem"]
    cards = loaded_cards(at)
    assert set(SHIPPED.cards) | {"pack-ygo-late-15"} == set(cards) and "pack-broken" not in cards


def test_an_invalid_pack_lists_its_problems_and_offers_no_import(open_app, folder):
    at = unlock(open_app(page=PAGE))
    data = zip_of({"../evil.yaml": scenario("pack-evil"), "dup.yaml": scenario("ygo-tardiness-1min-store")})
    at.file_uploader[0].set_value(("bad.zip", data, "application/zip")).run()
    assert at.error[0].value == "This pack cannot be imported: 2 problems."
    problems = at.dataframe[-2].value  # the problems, then the preview of the card that loaded
    assert list(problems["File"]) == ["../evil.yaml", "dup.yaml"]
    assert "already used by scenarios/yugioh-ocg/tardiness.yaml" in problems.iloc[1]["Problem"]
    assert not [b for b in at.button if b.label.startswith("Import")]
    assert not folder.exists() or not any(folder.iterdir())


def test_a_valid_pack_is_previewed_imported_and_playable_at_once(open_app, folder):
    at = unlock(open_app(page=PAGE))
    data = zip_of({"late.yaml": scenario(), "piles.yaml": knowledge()})
    at.file_uploader[0].set_value(("my-pack.zip", data, "application/zip")).run()
    assert at.success[-1].value == "Every card is valid: 2 cards ready to import."
    preview = at.dataframe[-1].value
    assert list(preview["Title"]) == ["Seated fifteen minutes in", "How many piles"]
    assert list(preview["Infraction"]) == ["Tardiness", ""]
    assert list(preview["Verdict (penalty · fixes) or answer"]) == ["Match Loss · No fix", "Shuffling"]
    assert "pack-ygo-late-15" not in loaded_cards(at)
    next(b for b in at.button if b.label == "Import 2 cards").click().run()
    assert not at.exception
    message = next(s.value for s in at.success if s.value.startswith("Imported"))
    assert message.startswith("Imported 2 cards as my\\-pack\\-")  # the folder name, escaped for Markdown
    assert {"pack-ygo-late-15", "pack-pkm-k-piles"} <= set(loaded_cards(at))
    assert at.file_uploader[0].value is None  # a fresh uploader: the same pack is not offered again
    packs = at.dataframe[-1].value
    assert list(packs["Files"]) == [2] and list(packs["Cards"]) == [2] and packs.iloc[0]["Pack"].startswith("my-pack-")
    assert list(packs["Store"]) == ["every store"]  # an admin with every store picked
    assert [b.label for b in at.button if b.label.startswith("Remove")] == [f"Remove: {packs.iloc[0]['Pack']}"]
    assert not folder.exists()  # stored in the database, not in the local folder


def test_content_page_in_japanese(open_app, folder):
    at = open_app(lang="ja", page=PAGE)
    assert at.title[0].value == "コンテンツ"
    assert at.success[0].value == f"すべてのコンテンツを読み込みました：カード{len(SHIPPED.cards)}枚、問題はありません。"


JUDGEMENT_CALL = """\
cards:
  - id: pack-pkm-jc-on-purpose
    kind: judgement_call
    ruleset: pokemon-card-ja
    title: {ja: "わざと混ぜた", en: "Mixed in on purpose"}
    situation: {ja: "わざと手札を山札に混ぜた。", en: "Shuffled hand cards into the deck on purpose."}
    nearest: cards_mixed_into_deck
    facts: {intentional: true}
    principle: examples_only
    explanation: {ja: "誤っての行が最も近い。", en: "The line of mixing by mistake is nearest."}
    source:
      ja: "・誤って、カードの効果以外で、手札やトラッシュのカードを山札と混ぜて切ってしまった。"
      en: "- By mistake, shuffled cards from the hand or discard pile into the deck."
"""


def test_a_judgement_call_is_previewed_by_its_kind_and_nearest_line(open_app, folder):
    at = unlock(open_app(page=PAGE))
    at.file_uploader[0].set_value(("call.yaml", JUDGEMENT_CALL.encode("utf-8"), "application/x-yaml")).run()
    assert not at.exception, at.exception
    row = at.dataframe[-1].value.iloc[0]
    assert (row["Kind"], row["Infraction"], row["Verdict (penalty · fixes) or answer"]) == (
        "Judgement call", "Shuffled hand or discard into the deck", "Left to the head judge")


# A pack with one problem of each kind: a schema error (pydantic's and the loader's own), a
# YAML syntax error, an unknown infraction id and a title naming its answer.
PROBLEM_PACK = {
    "schema.yaml": scenario("pack-schema").replace("    difficulty: 1", "    difficulty: 9\n    colour: blue"),
    "syntax.yaml": scenario("pack-syntax").replace('title: {ja: "十五分後の着席"', "title: {ja: '十五分後の着席"),
    "unknown.yaml": scenario("pack-unknown").replace("infraction: tardiness", "infraction: no_such_infraction"),
    "title.yaml": scenario("pack-title").replace('ja: "十五分後の着席"', 'ja: "十五分後の着席でマッチの敗北"'),
}
KNOWN_INFRACTIONS = ", ".join(infraction.id for infraction in SHIPPED.rulesets["yugioh-ocg"].infractions)
ENGLISH_SENTENCE = re.compile(r"[A-Za-z]+(?: [A-Za-z]+){2,}")  # three English words in a row


def check_problem_pack(open_app, language: str):
    at = open_app(lang=language, page=PAGE)
    at.file_uploader[0].set_value(("problems.zip", zip_of(PROBLEM_PACK), "application/zip")).run()
    assert not at.exception
    problems = at.dataframe[-1].value
    return at, list(zip(problems.iloc[:, 0], problems.iloc[:, 2], problems.iloc[:, 3]))


def test_a_packs_problems_are_said_in_japanese(open_app, folder):
    at, problems = check_problem_pack(open_app, "ja")
    assert at.error[0].value == "このパックは取り込めません：問題が5件あります。"
    assert problems == [  # the file and the field as they are; what is wrong in Japanese
        ("schema.yaml", "cards[0].difficulty", "3 以下にしてください"),
        ("schema.yaml", "cards[0].colour", "不明な項目です"),
        ("syntax.yaml", "yaml", "YAML の書き方に誤りがあります: 5行目から始まる引用符で囲んだ文字列が閉じていません"
                                "（ファイルが途中で終わっています）"),
        ("unknown.yaml", "cards[0].infraction", f"違反 'no_such_infraction' はありません（あるもの: {KNOWN_INFRACTIONS}）"),
        ("title.yaml", "cards[0].title.ja", "タイトルに正解の罰則「マッチの敗北」（日本語）が含まれています。"
                                           "タイトルは回答の後に表示されますが、答えがわからない中立な言葉にしてください"),
    ]
    shown = [at.error[0].value, *(message for _, _, message in problems)]
    assert [text for text in shown if ENGLISH_SENTENCE.search(text)] == []


def test_a_packs_problems_are_said_in_english_as_ever(open_app, folder):
    at, problems = check_problem_pack(open_app, "en")
    assert at.error[0].value == "This pack cannot be imported: 5 problems."
    assert problems == [
        ("schema.yaml", "cards[0].difficulty", "Input should be less than or equal to 3"),
        ("schema.yaml", "cards[0].colour", "unknown field"),
        ("syntax.yaml", "yaml", "invalid YAML: a quoted scalar that starts on line 5 is not closed "
                                "(found unexpected end of stream)"),
        ("unknown.yaml", "cards[0].infraction", f"unknown infraction 'no_such_infraction'; known: {KNOWN_INFRACTIONS}"),
        ("title.yaml", "cards[0].title.ja", "the title names the answer's penalty 'マッチの敗北' (ja); "
                                           "titles are shown after the answer, but keep them neutral"),
    ]


def test_the_health_panel_says_the_contents_problems_in_japanese(open_app, folder):
    games = folder / "old-pack" / "yugioh-ocg"
    games.mkdir(parents=True)
    broken = scenario("pack-broken").replace("facts: {minutes_late: 15}", "facts: {minutes_late: 15, rain: true}")
    (games / "broken.yaml").write_text(broken, encoding="utf-8")
    at = open_app(lang="ja", page=PAGE)
    assert at.warning[0].value.startswith("1件の問題が見つかりました。")
    message = at.dataframe[0].value.iloc[0, 3]
    assert message.startswith("事実 'rain' はありません（ある事実: ")
    assert not ENGLISH_SENTENCE.search(message)


def test_a_rerun_checks_nothing_again_and_checks_without_pause_are_held(open_app, folder, monkeypatch):
    """(Before the test that installs the upload quota, which stays installed and refuses
    AppTest's uploads.) Finding M1: each run of the page checked its upload again; nothing held a checker back."""
    import quiz.db.packs as packs_module
    from quiz.access import work_limits
    from quiz.access.throttles import ThrottlePolicy

    checks = []
    original = packs_module.check_upload

    def counted(*args, **kwargs):
        checks.append(args[1])
        return original(*args, **kwargs)

    monkeypatch.setattr(packs_module, "check_upload", counted)
    monkeypatch.setattr(work_limits, "PACK_CHECK_POLICY", ThrottlePolicy(base=5.0, ceiling=60.0, half_life=60.0))
    at = open_app(page=PAGE)
    at.file_uploader[0].set_value(("late.yaml", scenario().encode("utf-8"), "application/x-yaml")).run()
    at.run()
    at.run()
    assert checks == ["late.yaml"]  # before: three checks
    assert at.success[-1].value == "The card is valid: 1 card ready to import."
    at = open_app(page=PAGE)  # the same trainee in a new tab (or after clearing its caches)
    at.file_uploader[0].set_value(("other.yaml", knowledge().encode("utf-8"), "application/x-yaml")).run()
    assert checks == ["late.yaml"]  # a new file right away waits (here 5 s: the first wait, made larger)
    assert re.match(r"Checked too often: wait [1-5] s, then upload the file again", at.warning[-1].value)


def test_the_uploader_arms_its_session_and_another_page_releases_it(open_app, folder, monkeypatch,
                                                                     upload_quota_undone):
    assert upload_limit.install()  # as app.py does
    ledger = upload_limit.installed_ledger()
    assert ledger is not None
    sessions: list[str] = []
    arm = ledger.arm
    monkeypatch.setattr(ledger, "arm", lambda session_id: (sessions.append(session_id), arm(session_id)))
    at = open_app(page=PAGE)
    assert at.file_uploader and sessions and ledger.armed(sessions[-1])
    at.switch_page("quiz/ui/pages/practice.py").run()
    assert not ledger.armed(sessions[-1])  # no uploader on the page: no uploads kept


@pytest.mark.parametrize(("language", "refusal", "words"), [
    ("en", Refusal.SESSION_FULL, "a tab keeps at most 2 uploaded files (4 MB)"),
    ("ja", Refusal.SESSION_FULL, "2ファイル（4MB）まで"),
    ("en", Refusal.SERVER_FULL, "Try again in a few minutes."),
    ("ja", Refusal.SERVER_FULL, "数分後にもう一度お試しください。"),
])
def test_an_upload_refused_over_a_quota_is_told(open_app, folder, monkeypatch, language, refusal, words):
    monkeypatch.setattr(upload_limit, "upload_refusal", lambda: refusal)
    at = open_app(lang=language, page=PAGE)
    assert at.file_uploader
    assert any(words in warning.value for warning in at.warning), [w.value for w in at.warning]

