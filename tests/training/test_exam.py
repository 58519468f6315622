"""Mock exams in the core: settings, presets from data, drawing, the clock and the score."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quiz.model.attempt import AttemptRecord
from quiz.model.cards import CARD_KINDS
from quiz.training.exams import (
    Exam,
    ExamScreen,
    ExamSpec,
    accepts_answer,
    answers_by_card,
    clock_text,
    closed_book_running,
    deadline_for,
    draw_exam,
    draw_questions,
    draw_seeds,
    exam_screen,
    is_over,
    next_unanswered,
    passes,
    score_exam,
    time_left,
)
from quiz.training.pools import card_pool
from quiz.training.presets import PRESETS_FILE, load_presets

START = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)


def make_exam(card_ids: list[str], minutes: int = 30, pass_percent: int = 80, **changes) -> Exam:
    spec = ExamSpec(questions=len(card_ids), minutes=minutes, pass_percent=pass_percent, rulesets=("yugioh-ocg",))
    values = dict(id=1, trainee_id=1, preset="custom", spec=spec, card_ids=tuple(card_ids),
                  seeds=tuple(range(len(card_ids))), started_at=START, deadline=deadline_for(START, minutes))
    return Exam(**(values | changes))


def answer(card_id: str, correct: bool, minutes_in: float = 1.0) -> AttemptRecord:
    return AttemptRecord(
        trainee_id=1, card_id=card_id, ruleset="yugioh-ocg", category=None, card_kind="knowledge", mode="exam",
        chosen_choice="a", correct_choice="a" if correct else "b", correct=correct, seconds=5.0,
        answered_at=START + timedelta(minutes=minutes_in), exam_id=1,
    )


# Settings


def test_settings_problems_are_gathered_into_one_message():
    with pytest.raises(ValueError) as error:
        ExamSpec(questions=0, minutes=241, pass_percent=101, rulesets=())
    message = str(error.value)
    for part in ("questions", "minutes", "pass_percent", "at least one game"):
        assert part in message


def test_settings_round_trip_through_json():
    spec = ExamSpec(questions=12, minutes=15, pass_percent=75, rulesets=("yugioh-ocg", "pokemon-card-ja"),
                    categories=("yugioh-ocg/tardiness", "pokemon-card-ja/knowledge"))
    assert ExamSpec.from_json(spec.to_json()) == spec
    everything = ExamSpec(questions=5, minutes=5, pass_percent=50, rulesets=("yugioh-ocg",))
    assert ExamSpec.from_json(everything.to_json()).categories is None
    practical = ExamSpec(questions=4, minutes=20, pass_percent=75, rulesets=("yugioh-ocg",), kinds=("floor_call",))
    assert ExamSpec.from_json(practical.to_json()) == practical
    stored_before_floor_calls = {key: value for key, value in practical.to_json().items() if key != "kinds"}
    assert ExamSpec.from_json(stored_before_floor_calls).kinds is None


def test_an_exam_of_one_kind_draws_only_that_kind(content):
    spec = ExamSpec(questions=4, minutes=20, pass_percent=75, rulesets=("yugioh-ocg",), kinds=("floor_call",))
    drawn, _ = draw_exam(content, spec, random.Random(5))
    assert drawn and {content.cards[c].kind for c in drawn} == {"floor_call"}
    assert len(drawn) == min(4, len(content.floor_calls))
    with pytest.raises(ValueError, match="kinds"):
        ExamSpec(questions=4, minutes=20, pass_percent=75, rulesets=("yugioh-ocg",), kinds=("floorcall",))


# Presets are data


def test_shipped_presets_are_the_certification_practice_ones(content):
    presets, problems = load_presets(content.rulesets)
    assert problems == []
    by_id = {p.id: p for p in presets}
    assert set(by_id) == {"ygo-20", "pkm-50", "ygo-floor-15", "pkm-floor-15", "ygo-practical-4", "pkm-practical-4"}
    ygo, pkm = by_id["ygo-20"].spec, by_id["pkm-50"].spec
    assert (ygo.questions, ygo.pass_percent, ygo.minutes, ygo.rulesets) == (20, 80, 30, ("yugioh-ocg",))
    assert (pkm.questions, pkm.pass_percent, pkm.minutes, pkm.rulesets) == (50, 80, 60, ("pokemon-card-ja",))


def test_a_preset_draws_only_from_its_games_cards(content):
    presets, _ = load_presets(content.rulesets)
    for preset in presets:
        spec = preset.spec
        drawn, seeds = draw_exam(content, spec, random.Random(4))
        assert len(drawn) == spec.questions == len(set(drawn)) == len(seeds)
        assert {content.cards[c].ruleset for c in drawn} == set(spec.rulesets)
        kinds = {content.cards[c].kind for c in card_pool(content, spec.rulesets)}
        assert kinds >= {"scenario", "knowledge", "judgement_call"}  # every kind of card is in the pool
        assert kinds <= set(CARD_KINDS)


def test_a_preset_of_an_unknown_game_is_left_out_with_its_line(tmp_path: Path):
    path = tmp_path / "presets.yaml"
    path.write_text(PRESETS_FILE.read_text(encoding="utf-8").replace("rulesets: [pokemon-card-ja]", "rulesets: [mtg]", 1),
                    encoding="utf-8")
    presets, problems = load_presets({"yugioh-ocg", "pokemon-card-ja"}, path, tmp_path)
    assert [p.id for p in presets] == ["ygo-20", "ygo-floor-15", "pkm-floor-15", "ygo-practical-4", "pkm-practical-4"]
    assert len(problems) == 1
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "rulesets: [mtg]" in text)
    assert (problems[0].line, problems[0].field) == (line, "presets[1].rulesets")
    assert "'mtg'" in problems[0].message


def test_a_broken_presets_file_gives_problems_not_an_exception(tmp_path: Path):
    path = tmp_path / "presets.yaml"
    path.write_text("presets:\n  - id: x\n    questions: 500\n", encoding="utf-8")
    presets, problems = load_presets({"yugioh-ocg"}, path, tmp_path)
    assert presets == []
    fields = {p.field for p in problems}
    assert {"presets[0].questions", "presets[0].name", "presets[0].rulesets"} <= fields


# Drawing


def test_drawing_takes_different_cards_from_the_pool():
    pool = [f"c{i}" for i in range(30)]
    drawn = draw_questions(pool, 20, random.Random(1))
    assert len(drawn) == 20 == len(set(drawn))
    assert set(drawn) <= set(pool)


def test_drawing_more_than_the_pool_takes_every_card_once():
    drawn = draw_questions(["a", "b", "b", "c"], 10, random.Random(2))
    assert sorted(drawn) == ["a", "b", "c"]


def test_the_same_seed_draws_the_same_exam():
    pool = [f"c{i}" for i in range(50)]
    assert draw_questions(pool, 10, random.Random(9)) == draw_questions(pool, 10, random.Random(9))
    assert draw_seeds(10, random.Random(9)) == draw_seeds(10, random.Random(9))


def test_a_custom_exam_draws_from_its_categories_only(content):
    spec = ExamSpec(questions=100, minutes=10, pass_percent=80, rulesets=("yugioh-ocg", "pokemon-card-ja"),
                    categories=("yugioh-ocg/tardiness", "pokemon-card-ja/knowledge"))
    drawn, _ = draw_exam(content, spec, random.Random(3))
    wanted = set(card_pool(content, spec.rulesets, spec.categories))
    assert set(drawn) == wanted  # asked for more than there are: every matching card once
    pokemon = [content.cards[c] for c in drawn if content.cards[c].ruleset == "pokemon-card-ja"]
    # the knowledge category: knowledge cards, and judgement calls that no line comes near
    assert {card.kind for card in pokemon} <= {"knowledge", "judgement_call"}
    assert all(card.nearest is None for card in pokemon if card.kind == "judgement_call")


def test_each_question_has_its_own_showing_seed():
    seeds = draw_seeds(20, random.Random(5))
    assert len(seeds) == 20 and len(set(seeds)) > 1
    with pytest.raises(ValueError, match="one seed per question"):
        make_exam(["a", "b"], seeds=(1,))


@given(st.lists(st.text(min_size=1, max_size=3), max_size=40), st.integers(min_value=1, max_value=60), st.integers())
def test_drawing_never_repeats_a_card(pool, count, seed):
    drawn = draw_questions(pool, count, random.Random(seed))
    assert len(drawn) == len(set(drawn)) == min(count, len(set(pool)))
    assert set(drawn) <= set(pool)


# Scoring


def test_unanswered_questions_count_as_wrong():
    exam = make_exam(["a", "b", "c", "d", "e"])
    score = score_exam(exam, [answer("a", True), answer("b", True), answer("c", False)])
    assert (score.correct, score.answered, score.unanswered, score.total) == (2, 3, 2, 5)
    assert score.percent == pytest.approx(2 / 5)


@pytest.mark.parametrize(("right", "passed"), [(16, True), (15, False), (20, True), (0, False)])
def test_pass_mark_boundary_of_a_20_question_exam(right, passed):
    cards = [f"c{i}" for i in range(20)]
    exam = make_exam(cards, pass_percent=80)
    # ``right`` answered correctly, the rest left unanswered: 80 % of 20 is 16.
    score = score_exam(exam, [answer(card, True) for card in cards[:right]])
    assert score.correct == right
    assert score.passed is passed


def test_pass_mark_is_exact_for_shares_that_floats_round():
    # 7 of 100 at a 7 % mark is exactly the mark, though 0.07 * 100 is 7.000000000000001 in floats.
    assert passes(7, 100, 7)
    assert not passes(6, 100, 7)
    # 41 of 50 is 82 %: it passes an 82 % mark and fails an 83 % one.
    assert passes(41, 50, 82) and not passes(41, 50, 83)
    assert not passes(0, 0, 1)  # an exam without questions is never passed


def test_the_first_answer_to_a_question_counts_and_strangers_are_ignored():
    exam = make_exam(["a", "b"])
    records = [answer("a", False, 2), answer("a", True, 3), answer("zz", True, 1)]
    counted = answers_by_card(exam, records)
    assert list(counted) == ["a"] and counted["a"].correct is False
    assert score_exam(exam, records).correct == 0


# The clock


def test_answers_after_the_deadline_do_not_count():
    exam = make_exam(["a", "b", "c"], minutes=10)
    records = [answer("a", True, 5), answer("b", True, 10), answer("c", True, 10.5)]
    score = score_exam(exam, records)
    assert (score.correct, score.answered) == (2, 2)  # the answer at exactly the deadline is in time


def test_an_answer_is_accepted_only_before_the_deadline_and_hand_in():
    exam = make_exam(["a", "b"], minutes=10)
    before, at_deadline = START + timedelta(minutes=9, seconds=59), START + timedelta(minutes=10)
    assert accepts_answer(exam, "a", before)  # answered or not: a changed answer replaces the first
    assert not accepts_answer(exam, "x", before)
    assert not accepts_answer(exam, "a", at_deadline)
    handed_in = make_exam(["a", "b"], minutes=10, finished_at=START + timedelta(minutes=3))
    assert not accepts_answer(handed_in, "a", before)


def test_time_left_counts_down_to_zero_and_stays_there():
    exam = make_exam(["a"], minutes=30)
    assert exam.deadline == START + timedelta(minutes=30)
    assert time_left(exam.deadline, START + timedelta(minutes=12)) == timedelta(minutes=18)
    assert time_left(exam.deadline, START + timedelta(minutes=45)) == timedelta(0)
    assert not is_over(exam, START + timedelta(minutes=29, seconds=59))
    assert is_over(exam, START + timedelta(minutes=30))


def test_an_exam_closed_at_its_deadline_timed_out():
    assert make_exam(["a"], minutes=5, finished_at=START + timedelta(minutes=5)).timed_out
    assert not make_exam(["a"], minutes=5, finished_at=START + timedelta(minutes=4)).timed_out
    assert not make_exam(["a"], minutes=5).timed_out


@pytest.mark.parametrize(("left", "shown"), [
    (timedelta(minutes=30), "30:00"),
    (timedelta(minutes=4, seconds=5), "04:05"),
    (timedelta(seconds=0.2), "00:01"),  # a started second still shows
    (timedelta(0), "00:00"),
    (timedelta(seconds=-3), "00:00"),
    (timedelta(hours=1, minutes=2, seconds=3), "1:02:03"),
])
def test_clock_text(left, shown):
    assert clock_text(left) == shown


def test_next_unanswered_wraps_round_and_ends_when_all_are_answered():
    cards = ["a", "b", "c", "d"]
    assert next_unanswered(cards, {"a"}, 0) == 1
    assert next_unanswered(cards, {"b", "c", "d"}, 1) == 0
    assert next_unanswered(cards, {"a", "b", "d"}, 3) == 2
    assert next_unanswered(cards, set(cards), 2) is None
    assert next_unanswered(cards, set(), -1) == 0


# Which screen the Mock exam page shows


def screen_after(shown, exams, just_closed=(), trainee_id=1):

    return exam_screen(trainee_id, ExamScreen(*shown), {e.id: e for e in exams}.get, just_closed)


def test_a_tab_taking_an_exam_keeps_it_while_it_is_open():
    running = make_exam(["a", "b"])
    assert screen_after((1, None), [running]) == ExamScreen(1, None)


def test_an_exam_closed_elsewhere_turns_the_tab_to_its_results():
    closed = make_exam(["a"], finished_at=START + timedelta(minutes=5))
    assert screen_after((1, None), [closed]) == ExamScreen(None, 1)


def test_an_exam_not_the_trainees_or_gone_is_not_shown():
    others = make_exam(["a"], trainee_id=2)
    assert screen_after((1, None), [others]) == ExamScreen(None, None)
    assert screen_after((7, None), [others]) == ExamScreen(None, None)
    assert screen_after((None, 1), [others]) == ExamScreen(None, None)  # another's results neither


def test_time_that_ran_out_with_no_exam_shown_opens_the_newest_results():
    older = make_exam(["a"], id=1, finished_at=START + timedelta(minutes=30))
    newer = make_exam(["a"], id=2, started_at=START + timedelta(hours=1),
                      deadline=START + timedelta(hours=1, minutes=30), finished_at=START + timedelta(hours=2))
    assert screen_after((None, None), [older, newer], just_closed=[newer, older]) == ExamScreen(None, 2)
    assert screen_after((None, 1), [older, newer], just_closed=[newer]) == ExamScreen(None, 1)  # results kept


def test_the_results_of_an_open_exam_are_not_shown():
    assert screen_after((None, 1), [make_exam(["a"])]) == ExamScreen(None, None)


# Closed book and unseen first


def test_closed_book_and_unseen_first_are_kept_with_the_exams_settings():
    spec = ExamSpec(questions=5, minutes=10, pass_percent=80, rulesets=("yugioh-ocg",), closed_book=True,
                    unseen_first=True)
    assert ExamSpec.from_json(spec.to_json()) == spec
    older = {k: v for k, v in spec.to_json().items() if k not in ("closed_book", "unseen_first")}
    assert not ExamSpec.from_json(older).closed_book and not ExamSpec.from_json(older).unseen_first


def test_a_closed_book_exam_closes_the_study_pages_only_while_it_runs():
    closed_book = make_exam(["a"], spec=ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",),
                                                 closed_book=True))
    assert closed_book_running(closed_book, START + timedelta(minutes=5))
    assert not closed_book_running(closed_book, START + timedelta(minutes=30))  # out of time
    assert not closed_book_running(replace(closed_book, finished_at=START + timedelta(minutes=5)),
                                   START + timedelta(minutes=6))  # handed in
    assert not closed_book_running(make_exam(["a"]), START + timedelta(minutes=5))  # an open-book exam
    assert not closed_book_running(None, START)


@given(st.integers(0, 2**32), st.integers(1, 12), st.integers(0, 12))
def test_an_unseen_first_draw_takes_every_unseen_card_before_a_seen_one(seed, count, seen_count):
    pool = [f"c{i}" for i in range(12)]
    seen = set(pool[:seen_count])
    drawn = draw_questions(pool, count, random.Random(seed), seen)
    assert len(set(drawn)) == len(drawn) == count
    unseen_drawn = [card for card in drawn if card not in seen]
    assert len(unseen_drawn) == min(count, len(pool) - seen_count)


def test_unseen_first_holds_within_each_blueprint_section(content):
    tardiness, knowledge = "yugioh-ocg/tardiness", "yugioh-ocg/knowledge"
    spec = ExamSpec(questions=4, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",),
                    blueprint=((tardiness, 2), (knowledge, 2)), unseen_first=True)
    pool = card_pool(content, ["yugioh-ocg"], [tardiness])
    seen = set(pool[:-2])  # all but two tardiness cards answered before
    for seed in range(20):
        drawn, _ = draw_exam(content, spec, random.Random(seed), seen)
        assert set(pool[-2:]) <= set(drawn)
        assert len(drawn) == 4
    plain = replace(spec, unseen_first=False)  # without the option, what was seen is no matter
    assert any(not set(pool[-2:]) <= set(draw_exam(content, plain, random.Random(seed), seen)[0])
               for seed in range(20))


def test_a_preset_states_closed_book_and_unseen_first_and_they_are_checked(tmp_path: Path):
    path = tmp_path / "presets.yaml"
    text = PRESETS_FILE.read_text(encoding="utf-8")
    path.write_text(text.replace("    questions: 20\n", "    closed_book: true\n    unseen_first: true\n"
                                 "    questions: 20\n", 1), encoding="utf-8")
    presets, problems = load_presets({"yugioh-ocg", "pokemon-card-ja"}, path, tmp_path)
    assert not problems
    first = presets[0].spec
    assert (first.closed_book, first.unseen_first) == (True, True)
    assert not presets[1].spec.closed_book and not presets[1].spec.unseen_first  # both off unless stated
    path.write_text(text.replace("    questions: 20\n", "    closed_book: sometimes\n    questions: 20\n", 1),
                    encoding="utf-8")
    presets, problems = load_presets({"yugioh-ocg", "pokemon-card-ja"}, path, tmp_path)
    assert [p.field for p in problems] == ["presets[0].closed_book"]
