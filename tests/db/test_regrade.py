"""Re-grading stored answers under today's content: a right ruling once marked wrong is
credited, the original grade is kept, a dry run changes nothing, and what cannot be judged
again as it was shown is left alone."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from textwrap import dedent

import pytest
from sqlalchemy import func, select

from quiz.content.loader import Content, load_content
from quiz.db import regrade as regrade_module
from quiz.db.answers import save_answer
from quiz.db.exams import get_exam, hand_in, save_exam_answer, start_exam
from quiz.db.regrade import (
    GRADE_FIELDS,
    RegradeReport,
    Tally,
    apply_regrade,
    original_grade,
    plan_regrade,
    report_lines,
)
from quiz.db.store import Store
from quiz.db.tables import attempt_regrades
from quiz.model.attempt import AttemptRecord
from quiz.model.errors import UndecidedCaseError
from quiz.report import statistics as stats_sql
from quiz.rules.variants import show_card, stored_values
from quiz.training.exams import ExamSpec
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card

T0 = datetime(2025, 4, 1, 9, 0, tzinfo=UTC)
PRIZE = "rg-forgot-prize-after-warning"
VARIANT = "rg-variant-card-revealed"
QUESTION = "rg-knowledge"
RIGHT_FIX = ("restore_game_state",)
OLD_FIX = ("opponent_takes_prizes",)  # what the first release required after a Warning

CARDS = dedent("""\
    cards:
      - id: rg-forgot-prize-after-warning
        kind: scenario
        style: exam
        ruleset: pokemon-card-ja
        title: {ja: サイドの取り忘れ, en: A forgotten Prize}
        situation: {ja: 警告を受けた後にサイドを取り忘れた。, en: Forgot a Prize after a Warning.}
        infraction: forgot_prize
        facts: {prior_warnings: 1}
        source: {ja: "・ポケモンをきぜつさせたのに、サイドを取り忘れて進行してしまった。", en: "- Forgot a Prize."}
      - id: rg-variant-card-revealed
        kind: scenario
        style: exam
        ruleset: pokemon-card-ja
        title: {ja: "オモテになったサイド", en: "A Prize card face up"}
        parameters:
          warnings: {between: [0, 1]}
          player:
            choice:
              - {ja: 佐藤, en: Sato}
              - {ja: 鈴木, en: Suzuki}
        situation: {ja: "{player}選手。警告{warnings}回。", en: "{player}. Warnings: {warnings}."}
        infraction: card_revealed
        facts: {prior_warnings: {param: warnings}}
        source: {ja: "・誤って、自分のデッキのいちばん上のカード、またはサイドを 1 枚オモテにしてしまった。", en: "- Turned a card face up."}
      - id: rg-knowledge
        kind: knowledge
        ruleset: pokemon-card-ja
        title: {ja: 問い, en: A question}
        question: {ja: どれ？, en: Which?}
        choices:
          - {id: a, text: {ja: あ, en: A}}
          - {id: b, text: {ja: い, en: B}}
        answer: ANSWER
        explanation: {ja: 説明。, en: Because.}
        source: {ja: "・ポケモンをきぜつさせたのに、サイドを取り忘れて進行してしまった。", en: "- Forgot a Prize."}
    """)


def tiny_content(folder: Path, answer: str = "b") -> Content:
    """Three cards of our own on the shipped rulesets (shipped card ids change under other work)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.yaml").write_text(CARDS.replace("ANSWER", answer), encoding="utf-8")
    content = load_content(card_paths=[folder])
    assert not content.problems, content.problems
    return content


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Content:
    return tiny_content(tmp_path_factory.mktemp("cards"))


def graded(
    content: Content, card_id: str, given, trainee_id: int, values: dict | None = None, **changes,
) -> AttemptRecord:
    """The record today's content gives the answer, with ``changes``: what an older release stored."""
    card = content.cards[card_id]
    showing = None
    if values is not None:
        showings = (show_card(card, seed) for seed in range(100))
        showing = next(shown for shown in showings if stored_values(card, shown) == values)
    record = answer_card(content, GivenAnswer(card, given, trainee_id, 12.5, showing=showing)).record
    return replace(record, answered_at=changes.pop("answered_at", T0), **changes)


def old_prize_ruling(content: Content, trainee_id: int, **changes) -> AttemptRecord:
    """The right ruling after a Warning (Prize Penalty, put the game right), as the first release
    stored it: the escalation replaced the fixes, so putting the game right was marked wrong."""
    values = dict(standard_fixes=OLD_FIX, fixes_result="wrong", correct=False, content_fingerprint=None) | changes
    return graded(content, PRIZE, ScenarioAnswer("forgot_prize", "prize_penalty", RIGHT_FIX), trainee_id, **values)


def grade_of(record: AttemptRecord) -> dict:
    values = record.values()
    return {name: values[name] for name in GRADE_FIELDS}


def regrade_rows(store: Store) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(attempt_regrades)).scalar_one()


def attempt(store: Store, attempt_id: int):
    frame = store.attempts()
    return frame[frame["id"] == attempt_id].iloc[0]


# --- the case ---------------------------------------------------------------------


def test_a_right_ruling_once_marked_wrong_is_credited(store: Store, content: Content) -> None:
    aki, ken = store.trainee("Aki"), store.trainee("Ken")
    old = old_prize_ruling(content, aki.id)
    credited = save_answer(store, old).attempt_id
    # Ken took only the Prize cards: right for the first release, wrong by the document.
    took_prizes = graded(content, PRIZE, ScenarioAnswer("forgot_prize", "prize_penalty", OLD_FIX), ken.id,
                         standard_fixes=OLD_FIX, fixes_result="correct", correct=True, content_fingerprint=None)
    save_answer(store, took_prizes)
    before = store.attempts()

    plan = plan_regrade(store, content)
    assert (plan.read, plan.changed, plan.newly_right, plan.newly_wrong) == (2, 2, 1, 1)
    assert plan.by_card == {PRIZE: Tally(2, 1, 1)}
    assert plan.by_trainee == {"Aki": Tally(1, 1, 0), "Ken": Tally(1, 0, 1)}
    assert not plan.applied and plan.skipped_total == 0
    assert store.attempts().equals(before) and regrade_rows(store) == 0  # the dry run changed nothing
    assert stats_sql.summary(store, stats_sql.AnswerScope(aki.id)).correct == 0

    done = apply_regrade(store, content, plan)
    assert done.applied and (done.changed, done.newly_right, done.newly_wrong) == (2, 1, 1)
    row = attempt(store, credited)
    assert bool(row["correct"]) and row["fixes_result"] == "correct"
    assert row["standard_fixes"] == RIGHT_FIX and row["content_fingerprint"] == content.fingerprint()
    # everything but the grade (what was chosen, when, how long, the mode, the values): as stored
    kept = [name for name in before.columns if name not in (*GRADE_FIELDS, "content_fingerprint")]
    assert store.attempts()[kept].equals(before[kept])
    assert original_grade(store, credited) == grade_of(old)  # the original is kept
    # the Progress page's figures read the new grade
    assert stats_sql.summary(store, stats_sql.AnswerScope(aki.id)).correct == 1
    assert stats_sql.summary(store, stats_sql.AnswerScope(ken.id)).correct == 0
    parts = stats_sql.accuracy_by_part(store, stats_sql.AnswerScope(aki.id)).set_index("part")
    assert parts.loc["fix", "correct"] == 1


def test_a_second_regrade_changes_nothing(store: Store, content: Content) -> None:
    aki = store.trainee("Aki")
    save_answer(store, old_prize_ruling(content, aki.id))
    assert apply_regrade(store, content).changed == 1
    again = apply_regrade(store, content)
    assert (again.read, again.changed) == (1, 0) and regrade_rows(store) == 1
    # finding L3: a re-grade that changed answers is in the audit log, once, as the system's act
    from quiz.db.audit import SYSTEM, entries
    from quiz.model.scope import Scope, Supervisor

    admin = Scope(Supervisor(1, "Owner", "admin", None), None)
    assert [(e.actor, e.action, e.target) for e in entries(store, admin)] == [(SYSTEM, "answers_regraded", "1 answers")]
    assert plan_regrade(store, content).changed == 0


def test_every_regrade_keeps_the_grade_before_it_and_the_original_stays(store: Store, tmp_path: Path) -> None:
    first, corrected = tiny_content(tmp_path / "first", answer="b"), tiny_content(tmp_path / "corrected", answer="a")
    aki = store.trainee("Aki")
    answered = save_answer(store, graded(first, QUESTION, "b", aki.id)).attempt_id
    original = grade_of(graded(first, QUESTION, "b", aki.id))
    assert apply_regrade(store, corrected).newly_wrong == 1
    assert attempt(store, answered)["correct_choice"] == "a"
    assert apply_regrade(store, first).newly_right == 1  # the key was put back
    assert regrade_rows(store) == 2
    assert original_grade(store, answered) == original
    with store.engine.connect() as conn:
        rows = conn.execute(select(attempt_regrades).order_by(attempt_regrades.c.id)).all()
    assert [(r.from_fingerprint, r.to_fingerprint, r.correct) for r in rows] == [
        (first.fingerprint(), corrected.fingerprint(), True),
        (corrected.fingerprint(), first.fingerprint(), False),
    ]


# --- variant cards and what cannot be judged again ------------------------------------------


def test_a_variant_card_is_regraded_with_the_values_it_was_shown_with(store: Store, content: Content) -> None:
    aki = store.trainee("Aki")
    right = ScenarioAnswer("card_revealed", "prize_penalty", RIGHT_FIX)
    caution = ScenarioAnswer("card_revealed", "caution", RIGHT_FIX)
    after_warning = {"warnings": 1, "player": {"option": 1}}
    no_warning = {"warnings": 0, "player": {"option": 0}}  # not what the default seed draws
    credited = save_answer(store, graded(content, VARIANT, right, aki.id, after_warning,
                                         standard_fixes=OLD_FIX, fixes_result="wrong", correct=False)).attempt_id
    kept = save_answer(store, graded(content, VARIANT, caution, aki.id, no_warning)).attempt_id
    assert show_card(content.cards[VARIANT]).facts["prior_warnings"] == 1
    report = apply_regrade(store, content)
    assert (report.changed, report.newly_right, report.skipped_total) == (1, 1, 0)
    assert bool(attempt(store, credited)["correct"]) and bool(attempt(store, kept)["correct"])
    assert attempt(store, kept)["standard_penalty"] == "caution"
    assert attempt(store, credited)["variant_values"] == after_warning


def test_answers_that_cannot_be_judged_again_are_left_alone(store: Store, content: Content) -> None:
    aki = store.trainee("Aki")
    wrong = {"standard_fixes": OLD_FIX, "fixes_result": "wrong", "correct": False}
    answer = ScenarioAnswer("card_revealed", "prize_penalty", RIGHT_FIX)
    base = graded(content, VARIANT, answer, aki.id, {"warnings": 1, "player": {"option": 1}}, **wrong)
    save_answer(store, replace(base, variant_values=None))  # before values were stored
    save_answer(store, replace(base, variant_values={"warnings": 7, "player": {"option": 1}}))  # no longer drawn
    save_answer(store, replace(base, card_id="rg-retired-card"))
    save_answer(store, replace(old_prize_ruling(content, aki.id), card_kind="judgement_call"))
    before = store.attempts()
    report = apply_regrade(store, content)
    assert report.read == 4 and report.changed == 0
    assert dict(report.skipped) == {"values_missing": 1, "values_gone": 1, "card_missing": 1, "kind_changed": 1}
    assert report.skipped_cards["card_missing"] == {"rg-retired-card"}
    assert store.attempts().equals(before) and regrade_rows(store) == 0
    assert any("left alone: 1: the card is not in today's content (rg-retired-card)" in line
               for line in report_lines(report))


def test_a_case_the_engine_now_refuses_is_left_alone(store: Store, content: Content, monkeypatch) -> None:
    aki = store.trainee("Aki")
    save_answer(store, old_prize_ruling(content, aki.id))

    def refuse(*args, **kwargs):
        raise UndecidedCaseError("undecided", "pokemon-card-ja", "forgot_prize", (27,), None)

    monkeypatch.setattr(regrade_module, "answer_card", refuse)
    report = apply_regrade(store, content)
    assert dict(report.skipped) == {"refused": 1} and report.changed == 0
    assert not bool(store.attempts()["correct"].iloc[0])


def test_batches_give_the_same_result_as_one_pass(store: Store, content: Content) -> None:
    names = ["Aki", "Ken", "Mika"]
    for index in range(7):
        trainee = store.trainee(names[index % 3])
        save_answer(store, old_prize_ruling(content, trainee.id, answered_at=T0 + timedelta(minutes=index)))
    plan = plan_regrade(store, content, batch_size=3)
    assert (plan.read, plan.changed) == (7, 7)
    assert {name: tally.changed for name, tally in plan.by_trainee.items()} == {"Aki": 3, "Ken": 2, "Mika": 2}
    done = apply_regrade(store, content, batch_size=2)
    assert done.changed == 7 and store.attempts()["correct"].all() and regrade_rows(store) == 7


def test_a_plan_under_other_content_is_refused(store: Store, content: Content) -> None:
    with pytest.raises(ValueError, match="the plan was made under content"):
        apply_regrade(store, content, RegradeReport(fingerprint="0000000000000000"))


# --- exams ----------------------------------------------------------------------------------


def test_a_closed_exam_is_scored_again(store: Store, content: Content) -> None:
    aki = store.trainee("Aki")
    spec = ExamSpec(questions=2, minutes=30, pass_percent=100, rulesets=("pokemon-card-ja",))
    exam = start_exam(store, aki.id, "custom", spec, (PRIZE, QUESTION), (0, 0), T0)
    answered = T0 + timedelta(minutes=1)
    assert save_exam_answer(store, replace(old_prize_ruling(content, aki.id), mode="exam", exam_id=exam.id,
                                           answered_at=answered), answered)
    assert save_exam_answer(store, replace(graded(content, QUESTION, "b", aki.id), mode="exam", exam_id=exam.id,
                                           answered_at=answered), answered)
    closed = hand_in(store, exam.id, T0 + timedelta(minutes=2))
    assert (closed.score, closed.passed) == (1, False)

    plan = plan_regrade(store, content)
    assert (plan.exams_affected, plan.exams_rescored, plan.exams_pass_changed) == (1, 1, 1)
    assert get_exam(store, exam.id).score == 1
    done = apply_regrade(store, content)
    assert (done.exams_affected, done.exams_rescored, done.exams_pass_changed) == (1, 1, 1)
    rescored = get_exam(store, exam.id)
    assert (rescored.score, rescored.passed, rescored.finished_at) == (2, True, closed.finished_at)


def test_an_open_exam_is_left_to_be_scored_when_it_closes(store: Store, content: Content) -> None:
    aki = store.trainee("Aki")
    spec = ExamSpec(questions=1, minutes=30, pass_percent=100, rulesets=("pokemon-card-ja",))
    exam = start_exam(store, aki.id, "custom", spec, (PRIZE,), (0,), T0)
    answered = T0 + timedelta(minutes=1)
    save_exam_answer(store, replace(old_prize_ruling(content, aki.id), mode="exam", exam_id=exam.id,
                                    answered_at=answered), answered)
    report = apply_regrade(store, content)
    assert report.changed == 1 and report.exams_affected == 0
    assert get_exam(store, exam.id).score is None
    assert hand_in(store, exam.id, T0 + timedelta(minutes=2)).score == 1


# --- the report -----------------------------------------------------------------------------


def test_the_report_lists_the_top_cards_and_trainees_with_totals() -> None:
    report = RegradeReport(fingerprint="abcdabcdabcdabcd", read=10)
    for name, count in (("card-a", 3), ("card-b", 2), ("card-c", 1)):
        report.by_card[name] = Tally()
        for _ in range(count):
            report.by_card[name].add(False, True)
            report.total.add(False, True)
    report.by_trainee["Aki"] = Tally(6, 6, 0)
    lines = report_lines(report, top=2)
    text = "\n".join(lines)
    assert lines[0] == ("10 answers graded again under content abcdabcdabcdabcd: 6 would change "
                        "(6 now right, 0 now wrong, 0 only in detail), 0 left alone")
    assert "changes per card (2 of 3):" in text and "card-a" in text and "card-c" not in text
    assert "... 1 more cards with 1 changes" in text
    assert "changes per trainee (1 of 1):" in text
    assert lines[-1] == "dry run: nothing was changed"
    report.applied = True
    assert report_lines(report)[-1] == "re-graded 6 answers"
