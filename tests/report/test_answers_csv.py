"""The Progress CSV of a trainee's answers: fixes joined readably, names beside the ids."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json

from quiz.db.frames import attempts_frame
from quiz.model.attempt import AttemptRecord
from quiz.report.csv_export import csv_bytes
from quiz.report.progress import answers_table

SCENARIO = AttemptRecord(
    trainee_id=1, card_id="ygo-tardiness-1min-store", ruleset="yugioh-ocg", category="deck", card_kind="scenario",
    chosen_infraction="deck_too_few_cards", standard_infraction="deck_too_few_cards", chosen_penalty="warning",
    standard_penalty="duel_loss", chosen_fixes=("add_cards_to_40", "rewind_game"), standard_fixes=(),
    infraction_result="correct", penalty_result="wrong", fixes_result="wrong", correct=False, penalty_steps=-1,
    seconds=3.5, answered_at=dt.datetime(2024, 5, 1, tzinfo=dt.UTC),
)
KNOWLEDGE = AttemptRecord(
    trainee_id=1, card_id="ygo-k-caution-purpose", ruleset="yugioh-ocg", category=None, card_kind="knowledge",
    chosen_choice="b", correct_choice="a", correct=False, seconds=2.0, answered_at=dt.datetime(2024, 5, 2, tzinfo=dt.UTC),
)


def _rows(content, language: str) -> list[dict[str, str]]:
    frame = attempts_frame([{"id": n, **dataclasses.asdict(r)} for n, r in enumerate([SCENARIO, KNOWLEDGE])])
    text = csv_bytes(answers_table(frame, ["yugioh-ocg"], content, language)).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def test_fixes_are_joined_readably_not_python_tuples(content):
    scenario, knowledge = _rows(content, "en")
    assert scenario["chosen_fixes"] == "add_cards_to_40, rewind_game"
    assert scenario["standard_fixes"] == "" and knowledge["chosen_fixes"] == ""
    assert not any(value.startswith("(") for row in (scenario, knowledge) for value in row.values())


def test_card_titles_and_names_stand_beside_the_ids(content):
    scenario, knowledge = _rows(content, "en")
    ruleset = content.rulesets["yugioh-ocg"]
    header = list(scenario)
    assert header.index("card_title") == header.index("card_id") + 1
    assert header.index("chosen_penalty_name") == header.index("chosen_penalty") + 1
    assert scenario["card_title"] == "Back from the restroom"
    assert scenario["game"] == ruleset.document.short_name.en
    assert scenario["chosen_penalty_name"] == "Warning" and scenario["standard_penalty_name"] == "Duel Loss"
    assert scenario["chosen_infraction_name"] == ruleset.name_of("infraction", "deck_too_few_cards", "en")
    assert scenario["chosen_fixes_names"] == ", ".join(
        ruleset.name_of("fix", f, "en") for f in ("add_cards_to_40", "rewind_game"))
    card = content.cards["ygo-k-caution-purpose"]
    assert knowledge["chosen_choice_text"] == next(c.text.en for c in card.choices if c.id == "b")
    assert knowledge["correct_choice_text"] == next(c.text.en for c in card.choices if c.id == "a")


def test_names_in_japanese(content):
    scenario, _ = _rows(content, "ja")
    assert scenario["card_title"] == "トイレから戻ると"
    assert scenario["chosen_penalty_name"] == content.rulesets["yugioh-ocg"].name_of("penalty", "warning", "ja")


def test_findings_are_written_as_json_and_left_blank_without_them(content):
    from quiz.model.attempt import FindingRecord

    found = dataclasses.replace(SCENARIO, findings=(FindingRecord("intentional", True, False, False),),
                                penalty_follows_findings=True)
    frame = attempts_frame([{"id": n, **r.values()} for n, r in enumerate([found, KNOWLEDGE])])
    text = csv_bytes(answers_table(frame, ["yugioh-ocg"], content, "en")).decode("utf-8-sig")
    with_findings, without = csv.DictReader(io.StringIO(text))
    assert json.loads(with_findings["findings"]) == [
        {"fact": "intentional", "chosen": True, "standard": False, "right": False}]
    assert with_findings["penalty_follows_findings"] == "True"
    assert without["findings"] == "" and without["penalty_follows_findings"] == ""
