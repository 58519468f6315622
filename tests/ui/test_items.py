"""The card review page: closed without a supervisor account; the queue, statistics and reports; resolving."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import insert

from quiz.content.loader import SCENARIOS_DIR
from quiz.db.problem_reports import PAGE_SIZE, file_report, get_report, reports_frame
from quiz.db.tables import problem_reports
from quiz.model.attempt import AttemptRecord
from tests.recording import record
from tests.scopes import EVERY_STORE
from tests.shipped_content import shipped_content
from tests.ui import supervisor

CONTENT = shipped_content()
PAGE = "quiz/ui/pages/items.py"
PASSWORD = "kantoku-2025"
CARD = "ygo-tardiness-1min-store"  # the standard penalty is a warning


def card_line() -> int:
    """The line of the card file where the card starts (its ``- id:`` line)."""
    lines = (SCENARIOS_DIR / "yugioh-ocg" / "tardiness.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if line.strip() == f"- id: {CARD}")


@pytest.fixture(autouse=True)
def fresh_throttle(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


def answer(trainee_id: int, correct: bool, chosen: str, minute: int) -> AttemptRecord:
    card = CONTENT.cards[CARD]
    return AttemptRecord(
        trainee_id=trainee_id, card_id=CARD, ruleset=card.ruleset, category="tardiness", card_kind="scenario",
        chosen_infraction="tardiness", standard_infraction="tardiness", chosen_penalty=chosen,
        standard_penalty="warning", infraction_result="correct", penalty_result="correct" if correct else "wrong",
        fixes_result="correct", correct=correct, seconds=8.0 + minute,
        answered_at=dt.datetime(2026, 5, 1, 9, minute, tzinfo=dt.UTC),
    )


@pytest.fixture
def reported(store):
    """Two answers to the card, and one open report on it with markup in its text."""
    aiko, ben = store.trainee("Aiko"), store.trainee("Ben")
    first = answer(aiko.id, False, "duel_loss", 1)
    record(store, first)
    record(store, answer(ben.id, True, "warning", 2))
    return file_report(store, first, "key_wrong", "[click](https://example.com) **line 65** says 5 minutes")


def unlock(at, password: str = PASSWORD):
    return supervisor.unlock(at, password)


def test_without_a_password_the_page_explains_how_to_enable_it(open_app, reported):
    at = open_app(trainee=None, page=PAGE)
    assert at.title[0].value == "Card review"
    assert "QUIZ_SUPERVISOR_PASSWORD" in at.info[0].value
    assert not at.dataframe and not at.tabs


def test_the_queue_lists_the_reported_card_and_exports_it(open_app, reported, monkeypatch):
    supervisor.make_account(PASSWORD)
    at = unlock(open_app(trainee=None, page=PAGE))
    assert not at.exception and not at.error
    assert any("point-biserial correlation" in c.value for c in at.caption)  # the method is named
    queue = at.dataframe[0].value
    assert queue["Card"].tolist() == ["Back from the restroom"] and queue["Card id"].tolist() == [CARD]  # title first
    row = queue.iloc[0]
    assert (row["Open reports"], row["Answers"], row["Why"]) == (1, 2, "open reports")
    assert row["File and line"] == f"scenarios/yugioh-ocg/tardiness.yaml:{card_line()}"
    assert row["Document lines"] == "64, 65"
    cards = at.dataframe[1].value
    assert (cards.iloc[0]["Difficulty (share right)"], cards.iloc[0]["Median time (s)"]) == (0.5, 9.5)
    reports = at.dataframe[2].value
    assert reports["Reason"].tolist() == ["The answer key is wrong"]
    assert reports["Details"].tolist() == ["[click](https://example.com) **line 65** says 5 minutes"]
    assert reports["Answer given"].tolist() == ["Infraction: Tardiness; Penalty: Duel Loss; Fixes: (no fix)"]
    labels = [b.label for b in at.download_button]
    assert labels == ["Download this table (CSV)"] * 3
    assert all(b.proto.ignore_rerun for b in at.download_button)  # a press runs nothing (see quiz.ui.tables)


def test_a_supervisor_resolves_a_report_with_a_note(open_app, reported, store, monkeypatch):
    supervisor.make_account(PASSWORD)
    at = unlock(open_app(trainee=None, page=PAGE, lang="ja"))
    at.selectbox(key="items-card").select(CARD).run()
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert f"scenarios/yugioh\\-ocg/tardiness\\.yaml\\:{card_line()} に書かれています。規定の 64, 65 行目を引用しています。" in text
    on_card = at.dataframe[-1].value  # the card's reports: text shown literally, never as markup
    assert on_card["詳細"].tolist() == ["[click](https://example.com) **line 65** says 5 minutes"]
    choices = at.dataframe[-2].value
    ygo = CONTENT.rulesets["yugioh-ocg"]
    assert choices[["項目", "選んだもの", "回答数", "不正解"]].values.tolist() == [  # names of the game, not ids
        ["違反", ygo.name_of("infraction", "tardiness", "ja"), 2, 0],
        ["罰則", ygo.name_of("penalty", "duel_loss", "ja"), 1, 1], ["罰則", ygo.name_of("penalty", "warning", "ja"), 1, 0],
        ["処置", "（処置なし）", 2, 0]]
    cells = " ".join(str(cell) for table in at.dataframe for cell in table.value.to_numpy().ravel())
    assert "None" not in cells
    at.multiselect(key="items-card-reports-chosen").select(reported.id)
    at.text_input(key="items-card-reports-note").input("規定64行目どおり。正解は警告のままで正しい。")
    assert at.button(key="items-card-reports-resolve").label == "選んだ報告を解決済みにする"
    at.button(key="items-card-reports-resolve").click().run()
    assert not at.exception
    resolved = get_report(store, reported.id)
    assert resolved.resolved and resolved.resolution == "規定64行目どおり。正解は警告のままで正しい。"
    assert reports_frame(store, EVERY_STORE, open_only=True).empty
    assert "選んだゲームには、疑わしいカードはありません。" in [i.value for i in at.info]  # off the queue
    at.radio(key="items-card-reports-status").set_value("resolved").run()
    assert at.dataframe[-1].value["対応メモ"].tolist() == ["規定64行目どおり。正解は警告のままで正しい。"]


def element_count(node) -> int:
    """The elements and blocks a run drew under ``node`` (an AppTest tree node), itself included."""
    children = getattr(node, "children", None) or {}
    return 1 + sum(element_count(child) for child in children.values())


FLOOD = 10_000


@pytest.fixture
def flooded(store, reported):
    """``FLOOD`` more reports on the card, as a flood from before the limits left them (every
    tenth resolved)."""
    trainee_id = reported.trainee_id
    rows = [dict(trainee_id=trainee_id, card_id=CARD, reason="other", text=f"flood {n}", answer={"penalty": "warning"},
                 created_at=dt.datetime(2026, 5, 2, tzinfo=dt.UTC) + dt.timedelta(seconds=n),
                 resolved=n % 10 == 0, resolution="dup" if n % 10 == 0 else None) for n in range(FLOOD)]
    with store.engine.begin() as conn:
        conn.execute(insert(problem_reports), rows)
    return reported


def test_ten_thousand_reports_on_a_card_draw_one_page(open_app, flooded, store):
    """Whatever the table holds, a run draws a page of reports (a table of ``PAGE_SIZE`` rows)
    and a fixed handful of widgets: a flood once drew 16,318 elements."""
    supervisor.make_account(PASSWORD)
    at = unlock(open_app(trainee=None, page=PAGE))
    at.selectbox(key="items-card").select(CARD).run()
    assert not at.exception
    assert element_count(at._tree) < 200
    assert len(at.dataframe[2].value) == len(at.dataframe[-1].value) == PAGE_SIZE  # the tab's, the card's
    open_count = FLOOD - FLOOD // 10 + 1
    pages = -(-open_count // PAGE_SIZE)
    assert [c.value for c in at.caption].count(f"Reports: {open_count} · page 1 of {pages}") == 2
    at.number_input(key=f"items-card-reports-page-open-{CARD}").set_value(3).run()
    shown = at.dataframe[-1].value["No."].tolist()
    newest = reports_frame(store, EVERY_STORE, open_only=True)["id"].tolist()
    assert shown == newest[2 * PAGE_SIZE: 3 * PAGE_SIZE]  # the third page, newest first
    assert element_count(at._tree) < 200
    chosen = shown[:5]
    for report_id in chosen:
        at.multiselect(key="items-card-reports-chosen").select(report_id)
    at.text_input(key="items-card-reports-note").input("Duplicates of #1.")
    at.button(key="items-card-reports-resolve").click().run()
    assert not at.exception
    assert all(get_report(store, i).resolution == "Duplicates of #1." for i in chosen)
    assert len(reports_frame(store, EVERY_STORE, open_only=True)) == len(newest) - 5
