"""Review planned for a dated exam, and the readiness forecast for its day.

A trainee may set an exam date per game (``quiz.db.exam_dates``). Until that day, the review
schedule of the game's cards is capped so that every studied card is seen at least once more
in the ``WINDOW`` before it: a card last reviewed before the window whose FSRS due falls on or
after the exam is due instead on a day of the window (``review_day``), the earliest whose
predicted retention on the exam day is within ``RETENTION_TOLERANCE`` of the best day's, so
that firm cards come early in the window, fragile ones late, and the load is spread. Only
*when* a card is due moves: FSRS's stored state (stability, difficulty, its own due) is never
changed, so once the exam day has come, FSRS's own schedule applies as if no date were set.

The forecast is the readiness on the exam day by the exam's blueprint: per section, the mean
predicted retrievability at the exam of the section's cards (a card never answered counts 0),
and overall, the sections' means weighted by their questions.

Everything here is pure; ``now`` is passed in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence
from zoneinfo import ZoneInfo

from fsrs import Rating

from quiz.content.categories import category_keys
from quiz.content.loader import Content
from quiz.training.blueprints import Blueprint, pool_by_category
from quiz.training.exams import exam_pool
from quiz.training.presets import ExamPreset
from quiz.training.scheduling import SCHEDULER, Schedule, as_utc, retrievability

WINDOW_DAYS = 14
WINDOW = dt.timedelta(days=WINDOW_DAYS)
"""How long before the exam every studied card is seen at least once more."""
RETENTION_TOLERANCE = 0.01
"""How far below the best day's predicted exam-day retention the chosen review day may be."""
EXAM_DAY_RANGE = (dt.date(2000, 1, 1), dt.date(2100, 12, 31))  # a date outside is no exam date


def exam_start(day: dt.date, zone: str) -> dt.datetime:
    """The moment the exam day begins (midnight in the trainee's ``zone``), in UTC."""
    return as_utc(dt.datetime.combine(day, dt.time(0), tzinfo=ZoneInfo(zone)))


def window_start(exam: dt.datetime) -> dt.datetime:
    """When the review window before the exam opens."""
    return as_utc(exam) - WINDOW


def window_days(exam: dt.datetime) -> list[dt.datetime]:
    """The starts of the window's days, earliest first (the exam's own day is not among them)."""
    return [as_utc(exam) - dt.timedelta(days=days) for days in range(WINDOW_DAYS, 0, -1)]


def exam_day_retention(schedule: Schedule, review_at: dt.datetime, exam: dt.datetime) -> float:
    """The predicted retrievability at ``exam`` after a right answer at ``review_at`` (FSRS)."""
    reviewed, _log = SCHEDULER.review_card(schedule, Rating.Good, review_datetime=as_utc(review_at))
    return retrievability(reviewed, exam)


def review_day(schedule: Schedule, exam: dt.datetime) -> dt.datetime:
    """The day of the window on which the card is due: the earliest whose predicted retention
    on the exam day, after a right answer then, is within ``RETENTION_TOLERANCE`` of the best
    day's."""
    return _review_day(schedule.to_json(), as_utc(exam))


@lru_cache(maxsize=8192)
def _review_day(schedule_json: str, exam: dt.datetime) -> dt.datetime:
    schedule = Schedule.from_json(schedule_json)
    days = window_days(exam)
    retention = [exam_day_retention(schedule, day, exam) for day in days]
    best = max(retention)
    return next(day for day, kept in zip(days, retention) if kept >= best - RETENTION_TOLERANCE)


def exam_due(schedule: Schedule, exam: dt.datetime | None, now: dt.datetime) -> dt.datetime:
    """When the card is due, its game's exam at ``exam`` (None: no exam date).

    FSRS's own due, except before the exam for a card last reviewed before the window whose
    due falls on or after the exam: then its ``review_day``, inside the window."""
    due = as_utc(schedule.due)
    if exam is None or schedule.last_review is None:
        return due
    exam = as_utc(exam)
    if as_utc(now) >= exam or due < exam or as_utc(schedule.last_review) >= window_start(exam):
        return due
    return min(due, review_day(schedule, exam))


def exam_of_cards(games: Mapping[str, str], exams: Mapping[str, dt.datetime]) -> dict[str, dt.datetime]:
    """Card id -> its game's exam moment, for the cards of ``games`` (card id -> game) whose
    game has an exam date."""
    return {card: exams[game] for card, game in games.items() if game in exams}


def planned_schedules(
    schedules: Mapping[str, Schedule], exams_of_cards: Mapping[str, dt.datetime], now: dt.datetime,
) -> dict[str, Schedule]:
    """The schedules as review orders them: a copy whose ``due`` is its ``exam_due`` where that
    moved it; the others as they are. The copies are never to be stored."""
    planned: dict[str, Schedule] = {}
    for card, schedule in schedules.items():
        due = exam_due(schedule, exams_of_cards.get(card), now)
        if due == schedule.due:
            planned[card] = schedule
        else:
            moved = Schedule.from_json(schedule.to_json())
            moved.due = due
            planned[card] = moved
    return planned


def card_games(content: Content) -> dict[str, str]:
    """Card id -> its game (ruleset id), for every card of ``content``."""
    games: dict[str, str] = content.memo(("card_games",), lambda: {
        card.id: card.ruleset for card in content.cards.values()})
    return games


def game_exam(presets: Iterable[ExamPreset], game: str) -> ExamPreset | None:
    """The exam a game's date is for: its first preset of that game alone with a blueprint that
    draws cards of every kind, with or without findings (the certification style); None if none."""
    for preset in presets:
        if preset.rulesets == [game] and preset.blueprint and not preset.findings_only and preset.kinds is None:
            return preset
    return None


@dataclass(frozen=True)
class SectionForecast:
    """One blueprint section on the exam day."""

    key: str  # ruleset/category
    questions: int
    cards: int  # the section's cards
    studied: int  # of them, those with a schedule
    readiness: float  # mean predicted retrievability at the exam, unstudied cards 0


@dataclass(frozen=True)
class ExamForecast:
    """Readiness on the exam day by the exam's blueprint."""

    exam: dt.datetime
    sections: tuple[SectionForecast, ...]

    @property
    def readiness(self) -> float:
        """The sections' readiness weighted by their questions (0 with no question)."""
        questions = sum(section.questions for section in self.sections)
        if not questions:
            return 0.0
        return sum(section.questions * section.readiness for section in self.sections) / questions


def forecast(
    schedules: Mapping[str, Schedule], blueprint: Blueprint, grouped: Mapping[str, Sequence[str]], exam: dt.datetime,
) -> ExamForecast:
    """The readiness at ``exam`` for ``blueprint`` whose sections draw from ``grouped``
    (category key -> card ids): FSRS's retrievability at the exam of each card answered, 0 for
    a card never answered, averaged per section."""
    sections = []
    for key, questions in blueprint:
        cards = list(dict.fromkeys(grouped.get(key, ())))
        chances = [retrievability(schedules[card], exam) if card in schedules else 0.0 for card in cards]
        sections.append(SectionForecast(key=key, questions=questions, cards=len(cards),
                                        studied=sum(card in schedules for card in cards),
                                        readiness=sum(chances) / len(chances) if chances else 0.0))
    return ExamForecast(exam=as_utc(exam), sections=tuple(sections))


def game_forecast(
    content: Content, presets: Iterable[ExamPreset], game: str, schedules: Mapping[str, Schedule], exam: dt.datetime,
) -> ExamForecast | None:
    """The forecast at ``exam`` by the blueprint of ``game``'s exam (``game_exam``), its
    sections drawing from that exam's pool; None when the game has no such exam."""
    preset = game_exam(presets, game)
    if preset is None or preset.sections is None:
        return None
    grouped = pool_by_category(
        exam_pool(content, preset.rulesets, preset.categories, preset.findings_only, preset.kinds),
        category_keys(content))
    return forecast(schedules, preset.sections, grouped, exam)


def days_left(today: dt.date, exam_day: dt.date) -> int:
    """Whole days from ``today`` to the exam day (0 on the day, negative once past)."""
    return (exam_day - today).days
