"""Re-grading credits the answers revision 3 of the content contract accepts, and carries the
findings of a stored answer through (what was found stays; its grade is recomputed)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from textwrap import dedent

import pytest

from quiz.content.loader import Content, load_content
from quiz.db.answers import save_answer
from quiz.db.regrade import apply_regrade, original_grade
from quiz.db.store import Store
from quiz.model.attempt import FindingRecord
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from tests.findings_cards import EXTRA_DRAW

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
CARDS = dedent("""\
    cards:
      - id: r3-misplay-rewound
        kind: scenario
        style: exam
        ruleset: yugioh-ocg
        title: {ja: 巻き戻し, en: Put back}
        situation: {ja: 故意ではなく、ルールを誤解したプレイをした。直後に指摘された。, en: "A misplay, noticed at once."}
        infraction: rules_misplay
        source: {ja: "- 故意ではなく、ルールを誤解したプレイをした", en: "- A misplay."}
      - id: r3-stacking
        kind: scenario
        style: exam
        ruleset: pokemon-card-ja
        title: {ja: 並べた山札, en: An ordered deck}
        situation: {ja: 悪質な積み込みを行った。, en: Stacked the deck.}
        infraction: marking_or_stacking
        source: {ja: "・カードやスリーブの傷や汚れ、反りなどを利用した悪質なマーキングや積み込み（デッキのカードの順番を操作すること）など、大会の公平性に反する行為を行った。", en: "- Stacking."}
    """) + EXTRA_DRAW.removeprefix("cards:\n")


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Content:
    folder = tmp_path_factory.mktemp("r3")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    loaded = load_content(card_paths=[folder])
    assert loaded.problems == []
    return loaded


def stored(store: Store, content: Content, card_id: str, given: ScenarioAnswer, **as_graded_before) -> int:
    record = answer_card(content, GivenAnswer(content.cards[card_id], given, store.trainee("Mio").id, 20.0)).record
    return save_answer(store, replace(record, answered_at=T0, content_fingerprint=None, **as_graded_before)).attempt_id


def row(store: Store, attempt_id: int):
    frame = store.attempts()
    return frame[frame["id"] == attempt_id].iloc[0]


def test_a_rewound_misplay_without_destroying_the_card_is_credited(store: Store, content: Content) -> None:
    # revision 2 required destroy_used_card when the game was put back; lines 49-51 leave it open
    attempt = stored(store, content, "r3-misplay-rewound", ScenarioAnswer("rules_misplay", "caution", ("rewind_game",)),
                     standard_fixes=("destroy_used_card", "rewind_game"), fixes_result="wrong", correct=False)
    report = apply_regrade(store, content)
    assert report.newly_right == 1
    assert (row(store, attempt)["fixes_result"], bool(row(store, attempt)["correct"])) == ("correct", True)
    assert original_grade(store, attempt)["fixes_result"] == "wrong"


def test_a_suspension_for_stacking_is_credited_as_accepted(store: Store, content: Content) -> None:
    # line 42: either or both kinds of suspension of eligibility
    attempt = stored(store, content, "r3-stacking", ScenarioAnswer("marking_or_stacking", "suspension", ()),
                     penalty_result="wrong", correct=False)
    assert apply_regrade(store, content).newly_right == 1
    assert row(store, attempt)["penalty_result"] == "accepted"


def test_a_stored_answer_keeps_what_was_found_and_its_findings_are_graded_again(store: Store, content: Content) -> None:
    given = ScenarioAnswer("intentional_violation", "disqualification_no_prize", (), None,
                           (("intentional", True), ("decisive", False)))
    tampered = (FindingRecord("intentional", True, False, True), FindingRecord("decisive", False, False, True))
    attempt = stored(store, content, "t-floor-draw", given, findings=tampered, penalty_follows_findings=None)
    apply_regrade(store, content)
    findings = row(store, attempt)["findings"]
    assert [(f["fact"], f["chosen"], f["right"]) for f in findings] == [("intentional", True, False),
                                                                        ("decisive", False, True)]
    assert bool(row(store, attempt)["penalty_follows_findings"]) is True
    assert original_grade(store, attempt)["findings"][0]["right"] is True
