"""Widgets of mock exams: presets, the countdown (counted in the browser), the results and the history of exams."""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Sequence

import pandas as pd
import streamlit as st

from quiz.content.categories import category_keys, category_labels
from quiz.content.loader import Content
from quiz.db import exams as exam_store
from quiz.db.store import Trainee
from quiz.model.attempt import AttemptRecord, utc_now
from quiz.model.errors import Problem
from quiz.model.local_time import local_text
from quiz.training.answer_outcomes import ScenarioOutcome
from quiz.training.exam_results import (
    exam_questions,
    history_table,
    section_scores,
    section_table,
    shown_questions,
)
from quiz.training.exams import (
    CUSTOM,
    Exam,
    answers_by_card,
    clock_text,
    closed_book_running,
    next_unanswered,
    score_exam,
    time_left,
)
from quiz.training.presets import ExamPreset, load_presets
from quiz.ui import card_views, form_answers, widgets
from quiz.ui.exam_clock import exam_clock
from quiz.ui.page_state import ExamState
from quiz.ui.rounds import start_round
from quiz.ui.shell import Shell, switch_page
from quiz.ui.time_zone import viewer_zone

EXAM_STATE_KEY = "mock_exam"  # which exam the Mock exam page shows (quiz/ui/pages/exam.py)
EXAM_PAGE = "quiz/ui/pages/exam.py"


@st.cache_resource(show_spinner=False, max_entries=8)
def _presets(known_rulesets: tuple[str, ...], content_fingerprint: str, _content: Content) -> tuple[
        list[ExamPreset], list[Problem]]:
    return load_presets(known_rulesets, content=_content)


def presets(shell: Shell) -> tuple[list[ExamPreset], list[Problem]]:
    """The presets of the games that loaded whose blueprint the cards can fill, and the
    problems of the presets file."""
    return _presets(tuple(sorted(shell.content.rulesets)), shell.content.fingerprint(), shell.content)


def exam_name(shell: Shell, preset_id: str) -> str:
    """The name of a preset (or "Custom exam") in the shell's language; unknown ids as they are."""
    if preset_id == CUSTOM:
        return shell.t("exam.custom")
    names = {p.id: p.name.get(shell.language) for p in presets(shell)[0]}
    return names.get(preset_id, preset_id)


def wait_for_closed_book_exam(shell: Shell) -> None:
    """On a study page (Practice, Review, Reference, Progress) while the signed-in trainee's
    closed-book exam runs: say so, offer the way back to it, and stop the page before its
    content is drawn, so the server never sends it. A card's own run (Check, Next card) asks
    first (``answer_flow.card_fragment``), so a tab opened before the exam waits too. Any other
    exam running: say so (its clock does not stop while the candidate is away), with the way
    back, above the page."""
    if shell.trainee is None:
        return
    now = utc_now()
    kept = exam_store.running_exam(shell.store, shell.trainee.id, now)  # (kept: no query)
    if kept is None:
        return
    running = exam_store.open_exam(shell.store, shell.trainee.id, now)
    if running is None:
        return
    if not closed_book_running(running, now):
        st.info(shell.t("exam.running_elsewhere", name=exam_name(shell, running.preset),
                        left=clock_text(time_left(running.deadline, now))), icon=":material/timer:")
        _back_to_exam(shell, running)
        return
    form_answers.drop_given()  # an answer sent from a tab opened before the exam: not graded, not shown
    st.info(shell.t("exam.closed_book_wait", name=exam_name(shell, running.preset),
                    left=clock_text(time_left(running.deadline, now))), icon=":material/menu_book:")
    _back_to_exam(shell, running)
    st.stop()


def _back_to_exam(shell: Shell, running: Exam) -> None:
    """The button back to the running exam, at the question this tab showed (else its first
    unanswered one)."""
    if st.button(shell.t("exam.back_to_exam"), key="exam-closed-book-back", type="primary",
                 icon=":material/play_arrow:"):
        state = st.session_state.get(EXAM_STATE_KEY)
        if not isinstance(state, ExamState) or state.exam_id != running.id:  # at its first unanswered question
            answered = answers_by_card(running, exam_store.exam_answers(shell.store, running.id))
            state = st.session_state[EXAM_STATE_KEY] = ExamState()
            state.show(running.id, index=next_unanswered(running.card_ids, answered, -1) or 0)
        switch_page(EXAM_PAGE)


def countdown(shell: Shell, deadline: datetime) -> None:
    """The time left, counted down in the browser (``exam_clock``): no server run a second;
    at zero one run of the whole page, which closes the exam."""
    left = time_left(deadline, utc_now())
    exam_clock(shell.t("exam.time_left"), clock_text(left), left)


def navigator(
    shell: Shell, exam: Exam, index: int, answered: set[str], flags: frozenset[str], on_pick: Callable[[int], None]
) -> None:
    """Every question as a pill (✓ answered, ⚑ flagged for later), the one on screen selected;
    picking another calls ``on_pick`` with its index, before the run that draws it."""
    def label(number: int) -> str:
        card_id = exam.card_ids[number]
        return f"{number + 1} {'✓' if card_id in answered else ''}{'⚑' if card_id in flags else ''}".strip()

    key = f"exam-nav-{exam.id}-{index}"

    def picked() -> None:
        number = st.session_state.get(key)
        if isinstance(number, int) and number != index:
            on_pick(number)

    st.pills(shell.t("exam.navigator"), list(range(exam.total)), format_func=label, default=index,
             key=key, help=shell.t("exam.navigator_help"), on_change=picked)


def results(shell: Shell, exam: Exam, records: Sequence[AttemptRecord]) -> None:
    """Score, pass or fail, and every wrong or unanswered question (or, asked for, every
    question) explained as in practice."""
    score = score_exam(exam, records)
    if exam.timed_out:
        st.warning(shell.t("exam.time_up"))
    values = dict(score=score.correct, total=score.total, percent=f"{score.percent:.0%}",
                  pass_percent=exam.spec.pass_percent)
    if score.passed:
        st.success(shell.t("exam.passed", **values))
    else:
        st.error(shell.t("exam.failed", **values))
    cols = st.columns(4)
    cols[0].metric(shell.t("exam.score"), f"{score.correct} / {score.total}")
    cols[1].metric(shell.t("exam.percent"), f"{score.percent:.0%}")
    cols[2].metric(shell.t("exam.pass_mark"), f"{exam.spec.pass_percent}%")
    cols[3].metric(shell.t("exam.unanswered"), score.unanswered)

    labels = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
    sections(shell, exam, records, labels)
    keys = category_keys(shell.content)
    every = st.segmented_control(
        shell.t("exam.results_show"), [False, True], default=False, key=f"exam-results-every-{exam.id}",
        format_func=lambda on: shell.t("exam.show_all" if on else "exam.show_wrong"),
    ) is True
    questions = exam_questions(shell.content, exam, records)
    shown = shown_questions(questions, every)
    st.subheader(shell.t("exam.all_answers" if every else "exam.wrong_answers", n=len(shown)), anchor=False)
    if not shown:
        st.caption(shell.t("exam.no_wrong"))
    else:
        st.caption(shell.t("exam.all_help" if every else "exam.wrong_help"))
    missed = [question.card.id for question in shown_questions(questions, False) if not question.card.retired]
    if missed and shell.trainee is not None and shell.trainee.id == exam.trainee_id and st.button(
            shell.t("exam.practise_missed", n=len(missed)), type="primary", icon=":material/replay:",
            key=f"exam-practise-missed-{exam.id}"):
        start_round(missed, ("exam.round_missed", tuple(missed)))
    for question in shown:  # each closed until opened: a 50-question exam is not one long wall
        showing = question.outcome.showing if isinstance(question.outcome, ScenarioOutcome) else None
        title = widgets.shown_title(shell, question.card, showing)
        label = shell.t("exam.wrong_label", n=question.number, title=title,
                        category=labels.get(keys.get(question.card.id, ""), ""))
        icon = ":material/check:" if question.correct else ":material/close:" if question.answered else (
            ":material/remove:")
        with st.expander(label, icon=icon):
            widgets.card_header(shell, question.card, answered=True, showing=showing)
            widgets.card_body(shell, question.card, showing)
            card_views.feedback(shell, question.card, question.outcome, answered=question.answered)


def sections(shell: Shell, exam: Exam, records: Sequence[AttemptRecord], labels: dict[str, str]) -> None:
    """The score of each section of the exam (its blueprint's, else the categories it drew),
    sections named by ``labels`` (``category_labels``)."""
    table = section_table(section_scores(shell.content, exam, records), labels)
    if table.empty:
        return
    st.subheader(shell.t("exam.sections"), anchor=False)
    table.columns = [shell.t(f"exam.col_{column}") for column in table.columns]
    st.dataframe(table, hide_index=True)


def exam_history(shell: Shell, trainee: Trainee) -> None:
    """The trainee's exams, newest first: when, which, score and whether passed."""
    st.subheader(shell.t("exam.history"), anchor=False)
    history = exam_store.exam_history(shell.store, trainee.id)
    if history.empty:
        st.caption(shell.t("exam.no_history"))
        return
    names = {preset_id: exam_name(shell, preset_id) for preset_id in history["preset"].unique()}
    words = {key: shell.t(f"exam.result_{key}") for key in ("passed", "failed", "open")}
    zone = viewer_zone(shell)
    table = history_table(history, names, words, zone)
    table.columns = [shell.t(f"exam.col_{column}") for column in table.columns]
    st.dataframe(table, hide_index=True)
    if shell.trainee is not None and shell.trainee.id == trainee.id:  # one's own exams only
        _reopen(shell, history, names, zone)


def _reopen(shell: Shell, history: pd.DataFrame, names: dict[str, str], zone: str) -> None:
    """Pick a finished exam and open its results again on the Mock exam page."""
    finished = history[history["finished_at"].notna()]
    if finished.empty:
        return
    labels = {int(row.id): f"{local_text(row.started_at, zone)} · {names.get(row.preset, row.preset)} · "
                           f"{row.score} / {row.total}" for row in finished.itertuples()}
    pick, go = st.columns([3, 1], vertical_alignment="bottom")
    picked = pick.selectbox(shell.t("exam.reopen"), list(labels), index=None, format_func=labels.__getitem__,
                            placeholder=shell.t("exam.reopen_placeholder"), key="exam-reopen")
    if go.button(shell.t("exam.reopen_button"), key="exam-reopen-go", disabled=picked is None,
                 icon=":material/open_in_new:"):
        st.session_state[EXAM_STATE_KEY] = ExamState(result_id=picked)
        switch_page(EXAM_PAGE)
