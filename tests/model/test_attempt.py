"""AttemptRecord: an answered card, checked when made, and the row it is stored as."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime, timedelta, timezone

import pytest

from quiz.model.attempt import AttemptRecord, FindingRecord, Mode, PartResult


def scenario_answer(**changes) -> AttemptRecord:
    values = dict(
        trainee_id=1, card_id="ygo-late-7min", ruleset="yugioh-ocg", category="procedure", card_kind="scenario",
        chosen_infraction="tardiness", standard_infraction="tardiness", chosen_penalty="warning",
        standard_penalty="duel-loss", chosen_fixes=("b", "a"), standard_fixes=(), correct=False, penalty_steps=-1,
        seconds=12.5, answered_at=datetime(2025, 3, 1, 18, 0, tzinfo=timezone(timedelta(hours=9))),
        variant_values={"minutes": 7},
    )
    return AttemptRecord(**(values | changes))


def test_its_row_is_every_field_as_stored_not_a_copy() -> None:
    record = scenario_answer()
    row = record.values()
    assert row == asdict(record) | {"findings": None}  # no findings: stored as NULL
    assert row["chosen_fixes"] == ("a", "b") and row["answered_at"] == datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    assert row["variant_values"] is record.variant_values  # shared, not copied again per answer


def test_findings_are_stored_as_json_and_read_back() -> None:
    found = (FindingRecord("intentional", True, False, False), FindingRecord("minutes_late", 7, 7, True))
    record = scenario_answer(findings=found, penalty_follows_findings=True)
    row = record.values()
    assert row["findings"] == [{"fact": "intentional", "chosen": True, "standard": False, "right": False},
                               {"fact": "minutes_late", "chosen": 7, "standard": 7, "right": True}]
    assert AttemptRecord.from_row(row) == record


def test_an_invalid_record_names_every_problem() -> None:
    with pytest.raises(ValueError, match="invalid attempt") as refused:
        scenario_answer(card_kind="essay", seconds=-1.0)
    assert "card_kind" in str(refused.value) and "seconds" in str(refused.value)


def test_mode_and_part_results_are_enums_in_the_record_and_plain_words_in_its_row() -> None:
    record = scenario_answer(mode="review", infraction_result="correct", penalty_result="wrong",
                             fixes_result="accepted")
    assert record.mode is Mode.REVIEW
    assert (record.infraction_result, record.penalty_result, record.fixes_result) == (
        PartResult.CORRECT, PartResult.WRONG, PartResult.ACCEPTED)
    assert record.players_result is None
    row = record.values()
    assert [type(row[name]) for name in ("mode", "infraction_result", "penalty_result")] == [str, str, str]
    assert (row["mode"], row["penalty_result"]) == ("review", "wrong")
    assert AttemptRecord.from_row(row).penalty_result is PartResult.WRONG
    assert [result.right for result in PartResult] == [True, True, False]
