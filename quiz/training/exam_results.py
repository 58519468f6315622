"""Exams shaped for display: each question with its graded answer, and the history table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import pandas as pd

from quiz.content.loader import Content
from quiz.model.attempt import AttemptRecord
from quiz.model.cards import AnyCard, ScenarioCard
from quiz.model.local_time import local_texts
from quiz.rules.variants import show_card
from quiz.training.answering import Outcome, answer_card
from quiz.training.exams import Exam, answers_by_card
from quiz.training.grading import ScenarioAnswer

HISTORY_TABLE_COLUMNS = ("started_at", "exam", "score", "percent", "result")
NO_ANSWER = ScenarioAnswer(infraction=None, penalty=None, fixes=())


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
        given: ScenarioAnswer | str | None
        showing = None
        if isinstance(card, ScenarioCard):
            showing = show_card(card, seed)
            given = NO_ANSWER
            if record is not None:
                given = ScenarioAnswer(record.chosen_infraction, record.chosen_penalty, record.chosen_fixes,
                                       record.chosen_players)
        else:
            given = record.chosen_choice if record else None
        outcome = answer_card(content, card, given, exam.trainee_id, seconds, mode="exam", exam_id=exam.id,
                              showing=showing)
        questions.append(ExamQuestion(number, card, outcome, record is not None))
    return questions


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
