"""Exams shaped for display: questions graded as in practice, and the history table."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pandas as pd

from quiz.model.attempt import AttemptRecord, Mode
from quiz.model.cards import JudgementCallCard
from quiz.rules.variants import show_card
from quiz.training.answer_outcomes import answer_knowledge, answer_scenario, asks_players, verdict_for
from quiz.training.exam_results import HISTORY_TABLE_COLUMNS, exam_questions, history_table, shown_questions
from quiz.training.exams import Exam, ExamSpec, deadline_for
from quiz.training.given_answer import GivenAnswer
from quiz.training.kinds import answer_card
from tests.ui.answering import right_answer

START = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
VARIANT = "ygo-variant-tardiness-empty-seat"


def make_exam(card_ids: tuple[str, ...], seeds: tuple[int, ...]) -> Exam:
    spec = ExamSpec(questions=len(card_ids), minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    return Exam(id=7, trainee_id=1, preset="custom", spec=spec, card_ids=card_ids, seeds=seeds,
                started_at=START, deadline=deadline_for(START, 30))


def at(record: AttemptRecord, minutes: int) -> AttemptRecord:
    return replace(record, answered_at=START + timedelta(minutes=minutes))


def test_questions_keep_their_exam_numbers_and_grades(content):
    scenario = next(c for c in content.scenario_cards if c.ruleset == "yugioh-ocg" and not c.parameters)
    unanswered = next(c for c in content.scenario_cards if c.ruleset == "yugioh-ocg" and c.id != scenario.id)
    knowledge = next(c for c in content.knowledge_cards if c.ruleset == "yugioh-ocg")
    exam = make_exam((scenario.id, "no-longer-shipped", knowledge.id, unanswered.id), (0, 0, 0, 0))
    right = answer_scenario(content, scenario, GivenAnswer(scenario, right_answer(content, scenario), trainee_id=1,
                                                           seconds=9.0, mode=Mode.EXAM, exam_id=exam.id)).record
    wrong_choice = next(c.id for c in knowledge.choices if c.id != knowledge.answer)
    wrong = answer_knowledge(knowledge, GivenAnswer(knowledge, wrong_choice, trainee_id=1, seconds=4.0,
                                                    mode=Mode.EXAM, exam_id=exam.id)).record
    questions = exam_questions(content, exam, [at(right, 1), at(wrong, 2)])
    assert [q.number for q in questions] == [1, 3, 4]  # the card gone from the content is left out
    assert [q.card.id for q in questions] == [scenario.id, knowledge.id, unanswered.id]
    assert [q.answered for q in questions] == [True, True, False]
    assert [q.correct for q in questions] == [True, False, False]
    assert questions[1].outcome.record.chosen_choice == wrong_choice
    assert [q.number for q in shown_questions(questions)] == [3, 4]  # the results' list: wrong and unanswered
    assert [q.number for q in shown_questions(questions, every=True)] == [1, 3, 4]  # or every question
    blank = questions[2].outcome.record
    assert (blank.chosen_infraction, blank.chosen_penalty, blank.infraction_result) == (None, None, "wrong")


def test_a_variant_question_is_graded_on_the_showing_the_exam_drew(content):
    card = content.cards[VARIANT]
    penalties = {seed: verdict_for(content, card, show_card(card, seed)).penalty for seed in range(200)}
    first, second = next((a, b) for a in penalties for b in penalties if penalties[a] != penalties[b])
    answer = right_answer(content, card, show_card(card, first))
    record = answer_scenario(content, card, GivenAnswer(card, answer, trainee_id=1, seconds=5.0, mode=Mode.EXAM,
                                                        exam_id=7)).record
    (asked_first,) = exam_questions(content, make_exam((VARIANT,), (first,)), [at(record, 1)])
    (asked_second,) = exam_questions(content, make_exam((VARIANT,), (second,)), [at(record, 1)])
    assert asked_first.outcome.showing.seed == first and asked_first.correct
    assert asked_second.outcome.showing.seed == second and not asked_second.correct


def test_history_table_shows_score_share_and_result():
    history = pd.DataFrame({
        "preset": ["custom", "ygo-20", "pkm-50"],
        "started_at": pd.to_datetime([START + timedelta(days=2), START + timedelta(days=1), START], utc=True),
        "score": pd.array([None, 17, 30], dtype="Int64"),
        "total": [2, 20, 50],
        "passed": pd.array([None, True, False], dtype="boolean"),
    })
    names = {"custom": "Custom exam", "ygo-20": "Yu-Gi-Oh! 20"}
    words = {"passed": "Passed", "failed": "Not passed", "open": "In progress"}
    table = history_table(history, names, words, "UTC")
    assert list(table.columns) == list(HISTORY_TABLE_COLUMNS)
    assert list(table["started_at"]) == ["2025-03-03 10:00", "2025-03-02 10:00", "2025-03-01 10:00"]
    # a candidate at UTC+9 reads the same exams on their own clock
    tokyo = history_table(history, names, words, "Asia/Tokyo")
    assert list(tokyo["started_at"]) == ["2025-03-03 19:00", "2025-03-02 19:00", "2025-03-01 19:00"]
    assert list(table["exam"]) == ["Custom exam", "Yu-Gi-Oh! 20", "pkm-50"]  # unknown ids as they are
    # 17 of 20 is 85 %; 30 of 50 is 60 %.
    assert list(table["score"]) == ["", "17 / 20", "30 / 50"]
    assert list(table["percent"]) == ["", "85%", "60%"]
    assert list(table["result"]) == ["In progress", "Passed", "Not passed"]


def test_an_empty_history_gives_an_empty_table():
    empty = pd.DataFrame(columns=["preset", "started_at", "score", "total", "passed"])
    assert list(history_table(empty, {}, {}, "UTC").columns) == list(HISTORY_TABLE_COLUMNS)


JUDGEMENT_CALL = {
    "id": "exam-view-jc", "kind": "judgement_call", "ruleset": "pokemon-card-ja",
    "title": {"ja": "わざと混ぜた", "en": "Mixed in on purpose"},
    "situation": {"ja": "わざと手札を山札に混ぜた。", "en": "Shuffled hand cards into the deck on purpose."},
    "nearest": "cards_mixed_into_deck", "facts": {"intentional": True}, "principle": "examples_only",
    "explanation": {"ja": "誤っての行が最も近い。", "en": "The line of mixing by mistake is nearest."},
    "source": {"ja": "・誤って、カードの効果以外で、手札やトラッシュのカードを山札と混ぜて切ってしまった。",
               "en": "- By mistake, shuffled cards from the hand or discard pile into the deck."},
}


def test_exam_questions_grade_every_kind_through_the_one_answer_path(content):
    """A judgement call is graded on its nearest line, and who receives a penalty counts."""
    call = JudgementCallCard.model_validate(JUDGEMENT_CALL)
    both = next(c for c in content.scenario_cards
                if asks_players(content, c) and not c.parameters and verdict_for(content, c).players == "both")
    with_call = replace(content, cards={**content.cards, call.id: call})
    exam = make_exam((call.id, both.id), (0, 0))
    named = answer_card(content, GivenAnswer(both, replace(right_answer(content, both), players="offender"), 1, 5.0,
                                             mode=Mode.EXAM, exam_id=exam.id)).record
    nearest = answer_card(with_call, GivenAnswer(call, "cards_mixed_into_deck", 1, 5.0, mode=Mode.EXAM,
                                                 exam_id=exam.id)).record
    questions = exam_questions(with_call, exam, [at(nearest, 1), at(named, 2)])
    assert [q.card.id for q in questions] == [call.id, both.id]
    assert questions[0].correct and questions[0].outcome.record.card_kind == "judgement_call"
    assert questions[1].outcome.grade.players == "wrong" and not questions[1].correct
