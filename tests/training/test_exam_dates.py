"""An exam date: every studied card of the game falls due in the 14 days before it, FSRS's own
schedule after it, and the forecast for the day by the exam's blueprint equals an oracle."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.content.categories import category_keys
from quiz.training.blueprints import pool_by_category
from quiz.training.exam_dates import (
    RETENTION_TOLERANCE,
    WINDOW,
    card_games,
    exam_day_retention,
    exam_due,
    exam_of_cards,
    exam_start,
    forecast,
    game_exam,
    planned_schedules,
    review_day,
    window_days,
    window_start,
)
from quiz.training.exams import exam_pool
from quiz.training.presets import load_presets
from quiz.training.scheduling import SCHEDULER, Schedule, next_schedule
from tests.shipped_content import shipped_content

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)

# (right?, minutes after the card fell due, or after the previous answer for the first)
histories = st.lists(st.tuples(st.booleans(), st.integers(min_value=0, max_value=60 * 24 * 30)),
                     min_size=1, max_size=8)


def studied(history: list[tuple[bool, int]]) -> Schedule:
    """The schedule after answering as ``history`` says, each answer some minutes after the card fell due."""
    schedule: Schedule | None = None
    moment = START
    for correct, late in history:
        moment = (moment if schedule is None else max(moment, schedule.due)) + late * MINUTE
        schedule = next_schedule(schedule, correct, moment)
    assert schedule is not None
    return schedule


def test_the_exam_begins_at_midnight_of_its_day_in_the_trainees_zone() -> None:
    assert exam_start(date(2026, 6, 1), "Asia/Tokyo") == datetime(2026, 5, 31, 15, 0, tzinfo=UTC)
    assert exam_start(date(2026, 6, 1), "UTC") == datetime(2026, 6, 1, tzinfo=UTC)
    exam = exam_start(date(2026, 6, 1), "UTC")
    days = window_days(exam)
    assert len(days) == 14 and days[0] == window_start(exam) == exam - WINDOW and days[-1] == exam - timedelta(days=1)


@settings(max_examples=150, deadline=None)
@given(histories, st.integers(min_value=1, max_value=60 * 24 * 500), st.integers(min_value=0, max_value=60 * 24 * 400))
def test_a_card_last_reviewed_before_the_window_is_due_within_it_or_before(
    history: list[tuple[bool, int]], exam_after: int, now_after: int,
) -> None:
    """Unanswered from now on, the card is due in the window's last moment at the latest: its
    due moves only earlier, and only when FSRS's falls on or after the exam; then into the window."""
    schedule = studied(history)
    assert schedule.last_review is not None
    exam = schedule.last_review + exam_after * MINUTE
    now = min(schedule.last_review + now_after * MINUTE, exam - MINUTE)
    before = schedule.to_json()
    due = exam_due(schedule, exam, now)
    assert schedule.to_json() == before  # FSRS's state untouched
    assert due <= schedule.due
    if schedule.last_review < window_start(exam):
        assert due < exam
        if schedule.due >= exam:
            assert window_start(exam) <= due < exam and due in window_days(exam)
        else:
            assert due == schedule.due
    else:  # seen in the window already: FSRS's own
        assert due == schedule.due


@settings(max_examples=80, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=12).filter(any), st.integers(min_value=0, max_value=60 * 24 * 400),
       st.integers(min_value=0, max_value=60 * 24 * 3))
def test_a_trainee_answering_when_due_sees_every_card_in_the_window_and_fsrs_rules_after(
    answers: list[bool], exam_after: int, late: int,
) -> None:
    """Answered whenever the planned schedule says (some minutes late, right or wrong in turn as
    ``answers`` says), a card started before the exam is answered in the 14 days before it;
    from the exam on, each due is FSRS's own."""
    exam = START + WINDOW + exam_after * MINUTE
    schedule: Schedule | None = None
    moment = START
    answered: list[datetime] = []
    after_exam = 0
    for step in range(5000):
        if schedule is not None:
            due = exam_due(schedule, exam, moment)
            if moment >= exam:
                assert due == schedule.due
                after_exam += 1
            moment = max(moment, due) + late * MINUTE
        if after_exam > 3:
            break
        correct = answers[step % len(answers)]
        schedule = next_schedule(schedule, correct, moment)  # FSRS's own review: the cap never touches its state
        answered.append(moment)
    assert after_exam > 3
    assert any(window_start(exam) <= at < exam + late * MINUTE for at in answered)


def test_the_review_day_is_the_earliest_within_a_point_of_the_best() -> None:
    """Firm cards are due early in the window, fragile ones late; none more than a point below
    the exam-day retention of its best day."""
    exam = START + timedelta(days=200)
    firm = studied([(True, 0)] * 5)
    fragile = studied([(False, 0), (True, 0)])
    for schedule in (firm, fragile):
        day = review_day(schedule, exam)
        kept = {at: exam_day_retention(schedule, at, exam) for at in window_days(exam)}
        assert kept[day] >= max(kept.values()) - RETENTION_TOLERANCE
        assert all(value < max(kept.values()) - RETENTION_TOLERANCE for at, value in kept.items() if at < day)
    assert review_day(firm, exam) < review_day(fragile, exam)


def test_the_cap_ends_when_the_exam_day_begins() -> None:
    schedule = studied([(True, 0)] * 4)
    assert schedule.last_review is not None
    exam = schedule.last_review + timedelta(days=30)
    assert schedule.due > exam
    assert exam_due(schedule, exam, exam - MINUTE) < exam
    assert exam_due(schedule, exam, exam) == schedule.due
    assert exam_due(schedule, None, START) == schedule.due


def test_planned_schedules_move_only_the_due_of_the_cards_of_a_game_with_an_exam() -> None:
    firm = studied([(True, 0)] * 4)
    assert firm.last_review is not None
    exam = firm.last_review + timedelta(days=30)
    schedules = {"a1": firm, "b1": Schedule.from_json(firm.to_json())}
    exams = exam_of_cards({"a1": "game-a", "b1": "game-b"}, {"game-a": exam})
    planned = planned_schedules(schedules, exams, firm.last_review)
    assert planned["b1"] is schedules["b1"] and schedules["a1"].due == firm.due  # nothing stored changed
    assert planned["a1"].due == exam_due(firm, exam, firm.last_review) < exam
    moved, kept = json.loads(planned["a1"].to_json()), json.loads(firm.to_json())
    assert {key: value for key, value in moved.items() if key != "due"} == {
        key: value for key, value in kept.items() if key != "due"}


# The forecast


def oracle_chance(schedule_json: str, at: datetime) -> float:
    """FSRS's forgetting curve from a schedule's raw JSON: (1 + factor·t/S)^decay, t in whole days."""
    raw = json.loads(schedule_json)
    decay = -SCHEDULER.parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    days = max(0, (at - datetime.fromisoformat(raw["last_review"])).days)
    return float((1 + factor * days / raw["stability"]) ** decay)


def oracle_forecast(raw: dict[str, str], blueprint: list[tuple[str, int]], grouped: dict[str, list[str]],
                    at: datetime) -> tuple[float, list[float]]:
    sections = []
    for key, _ in blueprint:
        cards = grouped.get(key, [])
        sections.append(sum(oracle_chance(raw[card], at) if card in raw else 0.0 for card in cards) / len(cards)
                        if cards else 0.0)
    questions = sum(count for _, count in blueprint)
    return sum(count * value for (_, count), value in zip(blueprint, sections)) / questions, sections


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(min_value=0, max_value=3), st.one_of(st.none(), histories)), min_size=1, max_size=12),
    st.lists(st.integers(min_value=1, max_value=10), min_size=4, max_size=4),
    st.integers(min_value=0, max_value=400),
)
def test_the_forecast_equals_an_oracle(cards: list[tuple[int, list[tuple[bool, int]] | None]],
                                       counts: list[int], days_ahead: int) -> None:
    grouped: dict[str, list[str]] = {}
    schedules: dict[str, Schedule] = {}
    for n, (section, history) in enumerate(cards):
        grouped.setdefault(f"g/s{section}", []).append(f"c{n}")
        if history is not None:
            schedules[f"c{n}"] = studied(history)
    blueprint = [(f"g/s{section}", count) for section, count in enumerate(counts)]  # some sections have no card
    exam = START + timedelta(days=days_ahead)
    got = forecast(schedules, tuple(blueprint), grouped, exam)
    overall, sections = oracle_forecast({card: s.to_json() for card, s in schedules.items()}, blueprint, grouped, exam)
    assert got.readiness == pytest.approx(overall, abs=1e-12)
    assert [section.readiness for section in got.sections] == pytest.approx(sections, abs=1e-12)
    assert [(s.key, s.questions) for s in got.sections] == blueprint
    assert [s.cards for s in got.sections] == [len(grouped.get(key, [])) for key, _ in blueprint]
    assert [s.studied for s in got.sections] == [sum(card in schedules for card in grouped.get(key, []))
                                                 for key, _ in blueprint]


def test_each_shipped_game_has_an_exam_and_its_forecast_counts_its_blueprint() -> None:
    content = shipped_content()
    presets, problems = load_presets(set(content.rulesets), content=content)
    assert not problems
    for game in content.rulesets:
        exam = game_exam(presets, game)
        assert exam is not None and exam.sections and not exam.findings_only and exam.kinds is None
        assert exam.rulesets == [game]
        grouped = pool_by_category(exam_pool(content, exam.rulesets, exam.categories), category_keys(content))
        nothing = forecast({}, exam.sections, grouped, START)
        assert nothing.readiness == 0.0 and sum(s.questions for s in nothing.sections) == exam.questions
        assert all(s.cards >= s.questions for s in nothing.sections)
    assert game_exam(presets, "no-such-game") is None
    assert set(card_games(content).values()) <= set(content.rulesets)

