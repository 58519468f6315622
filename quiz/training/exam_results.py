"""Exams shaped for display: each question with its graded answer, the score per blueprint
section, and the history table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import pandas as pd

from quiz.content.categories import category_keys
from quiz.content.loader import Content
from quiz.model.attempt import AttemptRecord, Mode
from quiz.model.cards import AnyCard
from quiz.model.local_time import local_texts
from quiz.training.answer_outcomes import Outcome
from quiz.training.exams import Exam, answers_by_card
from quiz.training.given_answer import GivenAnswer
from quiz.training.kinds import answer_card, blank_answer, given_from_record, showing_of

HISTORY_TABLE_COLUMNS = ("started_at", "exam", "score", "percent", "result")
SECTION_TABLE_COLUMNS = ("section", "score", "percent")


@dataclass(frozen=True, slots=True)
class ExamQuestion:
    """One question of a closed exam: its card and the answer that counted, graded as in practice.

    A scenario outcome carries the showing the question was asked with (``outcome.showing``).
    """

    number: int
    card: AnyCard
    outcome: Outcome
    answered: bool

    @property
    def correct(self) -> bool:
        return self.answered and self.outcome.grade.correct


def exam_questions(content: Content, exam: Exam, records: Iterable[AttemptRecord]) -> list[ExamQuestion]:
    """Every question still in the content, in exam order, numbered from 1.

    The answer that counted is graded again against the content; an unanswered question
    is graded as an empty answer, so it shows as wrong with the standard answer.
    """
    counted = answers_by_card(exam, records)
    questions = []
    for number, (card_id, seed) in enumerate(zip(exam.card_ids, exam.seeds), start=1):
        card = content.cards.get(card_id)
        if card is None:
            continue
        record = counted.get(card_id)
        seconds = record.seconds if record else 0.0
        showing = showing_of(card, seed)
        given = given_from_record(card, record.values()) if record is not None else blank_answer(card)
        outcome = answer_card(content, GivenAnswer(card, given, exam.trainee_id, seconds, Mode.EXAM, exam.id, showing))
        questions.append(ExamQuestion(number, card, outcome, record is not None))
    return questions


def shown_questions(questions: Iterable[ExamQuestion], every: bool = False) -> list[ExamQuestion]:
    """The questions a results list shows: only the wrong or unanswered ones (what there is
    to learn from), or ``every`` one, to check a right answer was not a guess."""
    return [question for question in questions if every or not question.correct]


@dataclass(frozen=True, slots=True)
class SectionScore:
    """The score of one blueprint section (a ``ruleset/category`` key) of an exam."""

    category: str
    correct: int
    answered: int
    total: int

    @property
    def percent(self) -> float:
        """Right answers as a share of the section's questions (0.0 with none)."""
        return self.correct / self.total if self.total else 0.0


def section_scores(content: Content, exam: Exam, records: Iterable[AttemptRecord]) -> list[SectionScore]:
    """The score of each section: the blueprint's sections in its order (a custom exam without
    one: each category its questions fall in, in order of first appearance).

    A question counts under its card's category in today's content; an unanswered one as
    wrong; a question whose card left the content, or left the blueprint's categories, is
    left out (as ``exam_questions`` leaves it out).
    """
    keys = category_keys(content)
    counted = answers_by_card(exam, records)
    order = [key for key, _ in exam.spec.blueprint] if exam.spec.blueprint is not None else []
    tallies: dict[str, list[int]] = {key: [0, 0, 0] for key in order}
    for card_id in exam.card_ids:
        key = keys.get(card_id)
        if key is None or (exam.spec.blueprint is not None and key not in tallies):
            continue
        tally = tallies.setdefault(key, [0, 0, 0])
        record = counted.get(card_id)
        tally[0] += bool(record is not None and record.correct)
        tally[1] += record is not None
        tally[2] += 1
    return [SectionScore(key, *tally) for key, tally in tallies.items()]


def section_table(sections: Iterable[SectionScore], labels: Mapping[str, str]) -> pd.DataFrame:
    """``section, score, percent`` as text to show; ``labels`` names category keys (unknown
    keys show as they are)."""
    rows = [(labels.get(s.category, s.category), f"{s.correct} / {s.total}", f"{s.percent:.0%}") for s in sections]
    return pd.DataFrame(rows, columns=list(SECTION_TABLE_COLUMNS))


def history_table(
    history: pd.DataFrame, preset_names: Mapping[str, str], results: Mapping[str, str], zone: str
) -> pd.DataFrame:
    """``HISTORY_TABLE_COLUMNS`` for ``exam_store.exam_history`` rows, as text to show.

    ``preset_names`` maps preset ids to names (unknown ids show as they are); ``results``
    holds the words for ``passed``, ``failed`` and ``open``; times are read in ``zone``.
    """
    def result(row: pd.Series) -> str:
        if pd.isna(row["passed"]):
            return results["open"]
        return results["passed"] if row["passed"] else results["failed"]

    def percent(row: pd.Series) -> str:
        return "" if pd.isna(row["score"]) or not row["total"] else f"{row['score'] / row['total']:.0%}"

    def score(row: pd.Series) -> str:
        return "" if pd.isna(row["score"]) else f"{row['score']} / {row['total']}"

    if history.empty:
        return pd.DataFrame(columns=list(HISTORY_TABLE_COLUMNS))
    return pd.DataFrame({
        "started_at": local_texts(history["started_at"], zone),
        "exam": history["preset"].map(lambda p: preset_names.get(p, p)),
        "score": history.apply(score, axis=1),
        "percent": history.apply(percent, axis=1),
        "result": history.apply(result, axis=1),
    })[list(HISTORY_TABLE_COLUMNS)]
