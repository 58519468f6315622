"""Statistics over hand-built histories, with every expected figure worked out here.

Each test runs on two frames of the same attempts: the typed frame the store returns
(``attempts_frame``) and a plain DataFrame with whatever dtypes pandas infers.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, date, datetime

import pandas as pd
import pytest

from quiz.db.frames import FRAME_COLUMNS, attempts_frame
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from tests import stats_oracle as stats
from tests.recording import record


def answer(day: int, correct: bool = True, *, card: str = "c", hour: int = 12, **fields) -> AttemptRecord:
    """A scenario attempt on 2024-05-<day> at <hour>:00 UTC; ``fields`` override the rest."""
    values = dict(
        trainee_id=1,
        card_id=card,
        ruleset="yugioh-ocg",
        category="procedure",
        card_kind="scenario",
        chosen_penalty="warning",
        standard_penalty="warning",
        correct=correct,
        seconds=10.0,
        answered_at=datetime(2024, 5, day, hour, tzinfo=UTC),
    )
    return AttemptRecord(**(values | fields))


def quiz_answer(day: int, correct: bool = True, **fields) -> AttemptRecord:
    """A knowledge attempt: no category, penalties or part results."""
    values = dict(category=None, card_kind="knowledge", chosen_penalty=None, standard_penalty=None,
                  chosen_choice="a", correct_choice="a" if correct else "b")
    return answer(day, correct, **(values | fields))


def rows(records: list[AttemptRecord]) -> list[dict]:
    return [{"id": number, **asdict(record)} for number, record in enumerate(records, start=1)]


def typed_frame(records: list[AttemptRecord]) -> pd.DataFrame:
    return attempts_frame(rows(records))


def plain_frame(records: list[AttemptRecord]) -> pd.DataFrame:
    return pd.DataFrame(rows(records), columns=list(FRAME_COLUMNS))


@pytest.fixture(params=[typed_frame, plain_frame], ids=["typed", "plain"])
def frame(request):
    return request.param


# --- daily accuracy -----------------------------------------------------------------------


def test_daily_accuracy_rolls_a_ratio_of_sums_over_seven_calendar_days(frame) -> None:
    history = (
        [answer(1, True), answer(1, False)]                   # May 1: 1 of 2
        + [answer(3, True)]                                   # May 3: 1 of 1
        + [answer(7, True)] + [answer(7, False)] * 3          # May 7: 1 of 4
        + [answer(8, False)]                                  # May 8: 0 of 1
        + [answer(12, True), answer(12, True)]                # May 12: 2 of 2
    )
    daily = stats.daily_accuracy(frame(history))

    assert list(daily.columns) == ["date", "answered", "correct", "accuracy", "rolling_7d"]
    assert [d.day for d in daily["date"]] == [1, 3, 7, 8, 12]
    assert list(daily["answered"]) == [2, 1, 4, 1, 2]
    assert list(daily["correct"]) == [1, 1, 1, 0, 2]
    assert list(daily["accuracy"]) == pytest.approx([1 / 2, 1 / 1, 1 / 4, 0 / 1, 2 / 2])
    assert list(daily["rolling_7d"]) == pytest.approx([
        1 / 2,                      # Apr 25 - May 1: May 1 only
        (1 + 1) / (2 + 1),          # Apr 27 - May 3: May 1, 3
        (1 + 1 + 1) / (2 + 1 + 4),  # May 1 - May 7: May 1 is the window's first day
        (1 + 1 + 0) / (1 + 4 + 1),  # May 2 - May 8: May 1 has left the window
        (1 + 0 + 2) / (4 + 1 + 2),  # May 6 - May 12: May 7, 8, 12
    ])


def test_daily_accuracy_counts_days_in_the_time_zone_given(frame) -> None:
    # 14:00 UTC is 23:00 in Tokyo (May 1); 16:00 UTC is 01:00 in Tokyo (May 2).
    history = [answer(1, True, hour=14), answer(1, False, hour=16)]
    in_utc = stats.daily_accuracy(frame(history))
    in_tokyo = stats.daily_accuracy(frame(history), tz="Asia/Tokyo")
    assert [(d.day, n) for d, n in zip(in_utc["date"], in_utc["answered"])] == [(1, 2)]
    assert [(d.day, n) for d, n in zip(in_tokyo["date"], in_tokyo["answered"])] == [(1, 1), (2, 1)]
    assert list(in_tokyo["rolling_7d"]) == pytest.approx([1 / 1, (1 + 0) / (1 + 1)])


# --- accuracy by part and by column -------------------------------------------------------


def test_accuracy_by_part_counts_accepted_as_correct_and_skips_missing(frame) -> None:
    history = [
        answer(1, infraction_result="correct", penalty_result="accepted", fixes_result="wrong"),
        answer(1, infraction_result="wrong", penalty_result="correct", fixes_result=None),
        answer(2, infraction_result="correct", penalty_result="accepted", fixes_result="correct"),
        quiz_answer(2),  # no parts at all
    ]
    parts = stats.accuracy_by_part(frame(history))
    assert list(parts["part"]) == ["infraction", "penalty", "fix"]
    # infraction: correct, wrong, correct; penalty: accepted, correct, accepted; fix: wrong, correct.
    assert list(parts["answered"]) == [3, 3, 2]
    assert list(parts["correct"]) == [2, 3, 1]
    assert list(parts["accuracy"]) == pytest.approx([2 / 3, 3 / 3, 1 / 2])


def test_accuracy_by_part_leaves_out_parts_never_graded(frame) -> None:
    history = [answer(1, penalty_result="wrong"), answer(2, penalty_result="accepted"), quiz_answer(3)]
    parts = stats.accuracy_by_part(frame(history))
    assert list(parts["part"]) == ["penalty"]
    assert (parts["answered"].iloc[0], parts["correct"].iloc[0]) == (2, 1)
    assert stats.accuracy_by_part(frame([quiz_answer(1)])).empty


def test_accuracy_by_column_is_weakest_first_and_drops_missing_values(frame) -> None:
    history = [
        answer(1, True, ruleset="yugioh-ocg", category="procedure"),
        answer(1, False, ruleset="yugioh-ocg", category="procedure"),
        answer(2, True, ruleset="yugioh-ocg", category="deck"),
        answer(2, False, ruleset="pokemon-card-ja", category="conduct"),
        quiz_answer(3, True, ruleset="pokemon-card-ja"),  # category None
        quiz_answer(3, True, ruleset="pokemon-card-ja"),
    ]
    by_ruleset = stats.accuracy_by(frame(history), "ruleset")
    assert list(by_ruleset.columns) == ["ruleset", "answered", "correct", "accuracy"]
    # pokemon: 2 of 3 right; yugioh: 2 of 3 right - a tie, broken by name.
    assert list(by_ruleset["ruleset"]) == ["pokemon-card-ja", "yugioh-ocg"]
    assert list(by_ruleset["answered"]) == [3, 3]
    assert list(by_ruleset["accuracy"]) == pytest.approx([2 / 3, 2 / 3])

    by_category = stats.accuracy_by(frame(history), "category")
    # conduct 0 of 1, procedure 1 of 2, deck 1 of 1; the two knowledge answers have none.
    assert list(by_category["category"]) == ["conduct", "procedure", "deck"]
    assert list(by_category["answered"]) == [1, 2, 1]
    assert list(by_category["accuracy"]) == pytest.approx([0 / 1, 1 / 2, 1 / 1])


# --- penalties ----------------------------------------------------------------------------


def test_penalty_confusion_counts_pairs_of_scenario_answers(frame) -> None:
    history = [
        answer(1, chosen_penalty="warning", standard_penalty="warning"),
        answer(1, chosen_penalty="warning", standard_penalty="warning"),
        answer(2, False, chosen_penalty="caution", standard_penalty="warning"),
        answer(3, False, chosen_penalty="warning", standard_penalty="duel_loss"),
        quiz_answer(3),
    ]
    confusion = stats.penalty_confusion(frame(history))
    assert list(confusion.columns) == ["standard_penalty", "chosen_penalty", "count"]
    assert set(confusion.itertuples(index=False, name=None)) == {
        ("warning", "warning", 2),
        ("warning", "caution", 1),
        ("duel_loss", "warning", 1),
    }


def test_leniency_signs_and_mean_steps(frame) -> None:
    history = [
        answer(1, False, penalty_result="wrong", penalty_steps=-2),
        answer(1, False, penalty_result="wrong", penalty_steps=-1),
        answer(2, False, penalty_result="wrong", penalty_steps=-1),
        answer(2, False, penalty_result="wrong", penalty_steps=1),
        answer(2, False, penalty_result="wrong", penalty_steps=0),  # another penalty of the same rank
        answer(2, False, penalty_result="wrong", penalty_steps=None),  # no penalty chosen: no steps
        answer(3, True, penalty_result="accepted", penalty_steps=1),  # a harsher answer allowed: no error
        answer(3, True, penalty_result="correct", penalty_steps=0),
        quiz_answer(4, False),
    ]
    result = stats.leniency(frame(history))
    assert (result.errors, result.too_lenient, result.too_harsh) == (6, 3, 1)
    assert result.mean_steps == pytest.approx((-2 - 1 - 1 + 1 + 0) / 5)  # over the five with steps
    assert list(result.by_steps.columns) == ["steps", "count"]
    assert list(result.by_steps.itertuples(index=False, name=None)) == [(-2, 1), (-1, 2), (0, 1), (1, 1)]


def test_leniency_without_penalty_errors(frame) -> None:
    result = stats.leniency(frame([answer(1, penalty_result="correct", penalty_steps=0), quiz_answer(1)]))
    assert (result.errors, result.too_lenient, result.too_harsh, result.mean_steps) == (0, 0, 0, 0.0)
    assert result.by_steps.empty


# --- streaks, mistakes, summary -----------------------------------------------------------

# Days with answers: May 1-4 (a run of 4), May 7-8 (2), May 10-11 (2); three on May 2.
STREAK_DAYS = [1, 2, 2, 2, 3, 4, 7, 8, 10, 11]


@pytest.mark.parametrize(
    ("today", "current"),
    [
        (11, 2),  # answered today: May 10, 11
        (12, 2),  # nothing yet today, answered yesterday: May 10, 11
        (13, 0),  # neither today nor yesterday
        (9, 2),   # nothing on May 9, answered yesterday: May 7, 8
        (4, 4),   # later days do not count: May 1-4
    ],
)
def test_practice_streak(frame, today: int, current: int) -> None:
    streak = stats.practice_streak(frame([answer(d) for d in STREAK_DAYS]), date(2024, 5, today))
    assert streak == stats.Streak(current=current, longest=4)


def test_practice_streak_in_a_time_zone(frame) -> None:
    # 12:00 UTC May 9 is 21:00 May 9 in Tokyo; 23:00 UTC May 10 is 08:00 May 11 in Tokyo.
    history = frame([answer(9, hour=12), answer(10, hour=23)])
    assert stats.practice_streak(history, date(2024, 5, 11)) == stats.Streak(current=2, longest=2)
    assert stats.practice_streak(history, date(2024, 5, 11), tz="Asia/Tokyo") == stats.Streak(1, 1)


def test_recent_mistakes_are_cards_whose_latest_attempt_was_wrong(frame) -> None:
    history = [
        answer(5, False, card="c", chosen_penalty="duel_loss"),
        answer(1, False, card="a"),
        answer(4, False, card="b", chosen_penalty="caution"),
        answer(3, True, card="a"),               # a: wrong, then right -> not a mistake now
        answer(2, False, card="c", chosen_penalty="caution"),
        answer(1, True, card="b"),               # b: right, then wrong on May 4
        answer(3, False, card="d", ruleset="pokemon-card-ja"),
    ]
    mistakes = stats.recent_mistakes(frame(history))
    assert list(mistakes.columns) == ["card_id", "ruleset", "answered_at", "chosen_penalty", "standard_penalty"]
    assert list(mistakes["card_id"]) == ["c", "b", "d"]
    assert [t.day for t in mistakes["answered_at"]] == [5, 4, 3]
    assert list(mistakes["chosen_penalty"]) == ["duel_loss", "caution", "warning"]
    assert list(mistakes["ruleset"]) == ["yugioh-ocg", "yugioh-ocg", "pokemon-card-ja"]
    assert list(stats.recent_mistakes(frame(history), limit=2)["card_id"]) == ["c", "b"]


def test_summary(frame) -> None:
    history = [answer(1, True), answer(1, False), answer(3, True), quiz_answer(3, False), answer(9, True)]
    assert stats.summary(frame(history)) == stats.Summary(answered=5, correct=3, accuracy=3 / 5, days_active=3)


# --- empty frames and the store's own frame -----------------------------------------------


def test_every_statistic_of_an_empty_frame_is_empty(frame) -> None:
    empty = frame([])
    assert list(stats.daily_accuracy(empty, tz="Asia/Tokyo").columns) == [
        "date", "answered", "correct", "accuracy", "rolling_7d"]
    assert list(stats.accuracy_by_part(empty).columns) == ["part", "answered", "correct", "accuracy"]
    assert list(stats.accuracy_by(empty, "category").columns) == ["category", "answered", "correct", "accuracy"]
    assert list(stats.penalty_confusion(empty).columns) == ["standard_penalty", "chosen_penalty", "count"]
    assert list(stats.recent_mistakes(empty).columns) == [
        "card_id", "ruleset", "answered_at", "chosen_penalty", "standard_penalty"]
    for result in (stats.daily_accuracy(empty), stats.accuracy_by_part(empty), stats.accuracy_by(empty, "ruleset"),
                   stats.penalty_confusion(empty), stats.recent_mistakes(empty)):
        assert result.empty
    lenient = stats.leniency(empty)
    assert (lenient.errors, lenient.too_lenient, lenient.too_harsh, lenient.mean_steps) == (0, 0, 0, 0.0)
    assert list(lenient.by_steps.columns) == ["steps", "count"] and lenient.by_steps.empty
    assert stats.practice_streak(empty, date(2024, 5, 1)) == stats.Streak(0, 0)
    assert stats.summary(empty) == stats.Summary(0, 0, 0.0, 0)


def test_statistics_of_a_history_read_back_from_the_store(store: Store) -> None:
    """On SQLite, and on PostgreSQL when a server is given (the ``store`` fixture)."""
    trainee_id = store.trainee("Aki").id
    history = [
        answer(1, True, card="p", penalty_result="accepted"),
        answer(2, False, card="p", penalty_result="wrong", penalty_steps=-1),
        quiz_answer(2, True, card="q"),
    ]
    for past in history:
        record(store, AttemptRecord(**(asdict(past) | {"trainee_id": trainee_id})))
    history = store.attempts(trainee_id)
    assert stats.summary(history) == stats.Summary(answered=3, correct=2, accuracy=2 / 3, days_active=2)
    assert list(stats.accuracy_by_part(history)["accuracy"]) == [1 / 2]  # penalty: accepted, wrong
    assert stats.leniency(history).too_lenient == 1
    assert list(stats.daily_accuracy(history)["rolling_7d"]) == pytest.approx([1 / 1, (1 + 1) / (1 + 2)])
    assert list(stats.recent_mistakes(history)["card_id"]) == ["p"]
