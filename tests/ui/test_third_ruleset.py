"""The app on a third game (tests/fixtures/third_game, YAML only) through QUIZ_RULESETS_DIR and
QUIZ_SCENARIOS_DIR: the practice page shows its cards, grades answers given through the form
and explains them, with no code that knows the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.content import snapshot as content_snapshot
from quiz.content.loader import load_content
from quiz.model.words import t
from quiz.rules.engine import judge
from quiz.rules.explain import explain_penalty
from quiz.ui import resources
from quiz.ui.markdown import escape_markdown
from tests.ui import answering

ROOT = Path(__file__).resolve().parents[2]
THIRD = ROOT / "tests" / "fixtures" / "third_game"
CONTENT = load_content(THIRD / "rulesets", [THIRD / "scenarios"], ROOT)
LT = CONTENT.rulesets["lantern-tiles"]


@pytest.fixture
def third_game(monkeypatch: pytest.MonkeyPatch, database_url: str) -> None:
    monkeypatch.setenv(content_snapshot.RULESETS_DIR_ENV, str(THIRD / "rulesets"))
    monkeypatch.setenv(content_snapshot.SCENARIOS_DIR_ENV, str(THIRD / "scenarios"))


def _show(at, card_id: str):
    """Put a given card of the pool on the practice page (as dealing it would)."""
    at.session_state["practice"].card = card_id
    at.session_state["practice"].outcome = None
    at.run()
    assert not at.exception, at.exception
    return CONTENT.cards[card_id]


def _widget(items, *labels):
    return next(w for w in items if w.label in labels)


def _check(at):
    _widget(at.button, "Check", "答え合わせ").click().run()
    assert not at.exception, at.exception


def _text(at) -> str:
    return " ".join(m.value for m in at.markdown)


def _shown(text: str) -> str:
    """``text`` as the page writes it into Markdown."""
    return escape_markdown(text)


def test_the_content_folders_can_be_overridden(third_game):
    resources.reload_content()
    content = resources.content()
    assert list(content.rulesets) == ["lantern-tiles"] and content.problems == []
    assert set(content.cards) == set(CONTENT.cards)


def test_without_the_overrides_the_shipped_games_load(monkeypatch, database_url):
    monkeypatch.delenv(content_snapshot.RULESETS_DIR_ENV, raising=False)
    monkeypatch.delenv(content_snapshot.SCENARIOS_DIR_ENV, raising=False)
    assert content_snapshot.rulesets_dir() == ROOT / "rulesets" and content_snapshot.scenarios_dir() == ROOT / "scenarios"
    assert {"yugioh-ocg", "pokemon-card-ja"} <= set(resources.content().rulesets)


def test_a_right_answer_naming_both_players(third_game, open_app, store):
    at = open_app()
    assert at.multiselect(key="games").options == ["Lantern Tiles"]
    card = _show(at, "lt-agreed-both")
    assert any(_shown(card.situation.en) in m.value for m in at.markdown)
    verdict = judge(LT, card.infraction, dict(card.facts))
    assert (verdict.penalty, verdict.players) == ("ejection", "both")  # line 39
    _widget(at.selectbox, "Infraction").set_value("agreed_result")
    _widget(at.radio, "Penalty").set_value("ejection")
    _widget(at.radio, "Who receives it?").set_value("both")
    _check(at)
    answering.open_details(at)
    assert [s.value for s in at.success] == ["Right on every part."]
    assert "Both players receive this penalty." in [i.value for i in at.info]
    row = store.attempts().iloc[0]
    assert row["card_id"] == "lt-agreed-both" and bool(row["correct"])
    assert (row["ruleset"], row["standard_penalty"], row["players_result"]) == ("lantern-tiles", "ejection", "correct")
    # the document's own line is quoted
    assert "両プレイヤーを退場とする" in _text(at)


def test_a_wrong_penalty_is_explained_from_the_engine(third_game, open_app, store):
    at = open_app()
    card = _show(at, "lt-misplaced-two")
    _widget(at.selectbox, "Infraction").set_value("misplaced_tiles")
    _widget(at.radio, "Penalty").set_value("strike")
    _widget(at.multiselect, "Fix").set_value(["restore_board"])
    _check(at)
    answering.open_details(at)
    assert [e.value for e in at.error] == ["So close! See below."]  # one part wrong
    row = store.attempts().iloc[0]
    assert not bool(row["correct"]) and (row["infraction_result"], row["penalty_result"], row["fixes_result"]) == (
        "correct", "wrong", "correct")
    assert row["standard_penalty"] == "reminder"  # line 19
    text = _text(at)
    assert _shown("A Strike would be right if:") in text
    explained = explain_penalty(LT, card.infraction, "strike", dict(card.facts), "en")
    # one fact away, each backed by a line: 3 or more tiles (21), not restorable (15), two reminders (16)
    assert len(explained.changes) == 1 and explained.changes[0] in (
        "3 or more tiles were misplaced", "The board can be restored: no", "Reminders already received at this event: 2 or more")
    assert _shown(explained.changes[0]) in text


def test_a_penalty_no_facts_give_names_the_infractions_that_do(third_game, open_app, store):
    at = open_app()
    _show(at, "lt-table-talk-swayed")
    _widget(at.selectbox, "Infraction").set_value("table_talk")
    _widget(at.radio, "Penalty").set_value("ejection")
    _check(at)
    answering.open_details(at)
    assert [e.value for e in at.error] == ["So close! See below."]  # one part wrong
    text = _text(at)
    assert "never right for this infraction" in text and "Cheating" in text and "Agreed result" in text
    # the capped upgrade (line 35): a Round Loss is accepted, an Ejection is not
    assert f"**{t('feedback.also_accepted', 'en')}**: Round Loss" in text
    assert store.attempts().iloc[0]["penalty_result"] == "wrong"


def test_an_accepted_upgrade_counts_as_right(third_game, open_app, store):
    at = open_app()
    _show(at, "lt-table-talk-swayed")
    _widget(at.selectbox, "Infraction").set_value("table_talk")
    _widget(at.radio, "Penalty").set_value("round_loss")
    _check(at)
    assert [s.value for s in at.success] == ["Right on every part."]
    assert store.attempts().iloc[0]["penalty_result"] == "accepted"


def test_a_judgement_call_in_japanese(third_game, open_app, store):
    at = open_app(lang="ja")
    _show(at, "lt-jc-peek-on-purpose")
    _widget(at.selectbox, t("answer.nearest", "ja")).set_value("peeking")
    _widget(at.button, t("answer.check", "ja")).click().run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success] == [t("feedback.judgement_right", "ja")]
    row = store.attempts().iloc[0]
    assert row["card_kind"] == "judgement_call" and bool(row["correct"]) and row["ruleset"] == "lantern-tiles"


def test_a_wrong_judgement_call(third_game, open_app, store):
    at = open_app()
    _show(at, "lt-jc-cheating-by-accident")
    _widget(at.selectbox, t("answer.nearest", "en")).set_value("misplaced_tiles")
    _check(at)
    assert not at.success
    assert any(LT.infraction("cheating").name.en in e.value for e in at.error), at.error  # the nearest line
    assert not bool(store.attempts().iloc[0]["correct"])
