"""Mock exam: choose a preset or custom settings, answer against the clock, hand in, see the results.

The exam and each answer live in the database the moment they exist; the page's state
(``ExamState``) only remembers which exam this tab shows and which question is on screen, so
a refresh finds the open exam again and offers to resume it. Which screen to show after
exams closed is ``training.exams.exam_screen``'s decision.
"""

from __future__ import annotations

import random
import time

import streamlit as st

from quiz.content.categories import category_labels
from quiz.db import exams as exam_store
from quiz.db.exam_flags import flagged, set_flag
from quiz.db.submissions import Submission
from quiz.model.attempt import AttemptRecord, Mode, utc_now
from quiz.model.cards import AnyCard
from quiz.rules.variants import CardShowing
from quiz.training.exams import (
    CUSTOM,
    MINUTES_RANGE,
    PASS_PERCENT_RANGE,
    QUESTIONS_RANGE,
    Exam,
    ExamScreen,
    ExamSpec,
    answers_by_card,
    balanced_by_category,
    clock_text,
    draw_exam,
    exam_pool,
    exam_screen,
    next_unanswered,
    time_left,
)
from quiz.training.given_answer import GivenAnswer
from quiz.training.kinds import showing_of
from quiz.ui import answer_flow, card_views, exam_widgets, form_answers, kept_values, widgets
from quiz.ui import shell as shell_module
from quiz.ui.assignment_views import ASSIGNED_EXAM_KEY
from quiz.ui.markdown import escape_markdown
from quiz.ui.page_state import ExamState
from quiz.ui.round_clock import EXAM_BANNER_KEY
from quiz.ui.scroll import to_top_when_new
from quiz.ui.streamlit_internals.words import multiselect

GO_ON_KEY = "exam-save-goes-on"  # the candidate's choice: Save moves on to the next question

shell = shell_module.current()
st.title(shell.t("exam.title"), anchor=False)
trainee = shell_module.require_trainee(shell)


def start(state: ExamState, preset_id: str, spec: ExamSpec) -> None:
    """Draw and store a new exam, and take it (one exam open at a time)."""
    seen = exam_store.seen_cards(shell.store, trainee.id) if spec.unseen_first else frozenset()
    questions, seeds = draw_exam(shell.content, spec, random.Random(), seen)
    try:
        exam = exam_store.start_exam(shell.store, trainee.id, preset_id, spec, questions, seeds, utc_now())
    except exam_store.ExamInProgressError:
        st.warning(shell.t("exam.already_open"))
        return
    state.show(exam.id)
    st.rerun()


def hand_in(state: ExamState, exam: Exam) -> None:
    closed = exam_store.hand_in(shell.store, exam.id, utc_now())
    shell_module.recount_due(shell)  # its answers moved their cards' review schedules on
    state.show(None, result_id=closed.id)
    st.rerun()


def choose_exam(state: ExamState, assigned: str | None = None) -> None:
    """The presets side by side, then the custom settings; an ``assigned`` preset (an
    assignment's button, ``assignment_views``) is started at once."""
    st.caption(shell.t("exam.intro"))
    st.caption(shell.t("exam.starts_at_once"))
    presets, problems = exam_widgets.presets(shell)
    for preset in presets:
        if preset.id == assigned:
            start(state, preset.id, preset.spec)
    if problems:
        st.caption(shell.t("exam.preset_problems", count=len(problems)))
    st.subheader(shell.t("exam.presets"), anchor=False)
    for column, preset in zip(st.columns(max(len(presets), 1), border=True), presets):
        with column:
            st.markdown(f"**{escape_markdown(preset.name.get(shell.language))}**")
            facts = shell.t("exam.preset_facts", questions=preset.questions, minutes=preset.minutes,
                            pass_percent=preset.pass_percent)
            st.markdown(escape_markdown(facts))
            for on, words in ((preset.closed_book, "exam.closed_book"), (preset.unseen_first, "exam.unseen_first")):
                if on:
                    st.caption(shell.t(words))
            st.caption(escape_markdown(preset.basis.get(shell.language)))
            if st.button(shell.t("exam.start"), key=f"exam-start-{preset.id}", type="primary"):
                start(state, preset.id, preset.spec)
    custom_exam(state)


def custom_exam(state: ExamState) -> None:
    st.subheader(shell.t("exam.custom"), anchor=False)
    with st.container(border=True):
        cols = st.columns(3)
        questions = cols[0].number_input(shell.t("exam.custom_questions"), *QUESTIONS_RANGE, value=20, step=1)
        minutes = cols[1].number_input(shell.t("exam.custom_minutes"), *MINUTES_RANGE, value=30, step=1)
        pass_percent = cols[2].number_input(shell.t("exam.custom_pass"), *PASS_PERCENT_RANGE, value=80, step=1)
        games = multiselect(
            shell.language, shell.t("exam.custom_games"), list(shell.content.rulesets), default=list(shell.rulesets),
            format_func=lambda rid: shell.content.rulesets[rid].document.short_name.get(shell.language),
            key="exam-custom-games",
        )
        labels = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
        options = [key for key in labels if key.split("/", 1)[0] in games]
        categories = multiselect(
            shell.language, shell.t("exam.custom_categories"), options, format_func=labels.__getitem__,
            placeholder=shell.t("shell.all_categories"), key="exam-custom-categories",
        )
        pool = exam_pool(shell.content, games, categories or None)
        if not pool:
            st.warning(shell.t("exam.empty_pool"))
        elif len(pool) < questions:
            st.caption(shell.t("exam.pool_short", n=len(pool)))
        else:
            st.caption(shell.t("exam.pool_size", n=len(pool)))
        balance = st.toggle(shell.t("exam.custom_balance"), key="exam-custom-balance",
                            help=shell.t("exam.custom_balance_help"))
        unseen_first = st.toggle(shell.t("exam.custom_unseen_first"), key="exam-custom-unseen-first",
                                 help=shell.t("exam.custom_unseen_first_help"))
        if st.button(shell.t("exam.start"), key="exam-start-custom", type="primary", disabled=not pool):
            spec = ExamSpec(int(questions), int(minutes), int(pass_percent), tuple(games),
                            tuple(categories) if categories else None, unseen_first=unseen_first)
            start(state, CUSTOM, balanced_by_category(shell.content, spec) if balance else spec)


def offer_resume(state: ExamState, exam: Exam) -> None:
    answered = answers_by_card(exam, exam_store.exam_answers(shell.store, exam.id))
    st.info(shell.t(
        "exam.open", name=exam_widgets.exam_name(shell, exam.preset), answered=len(answered), total=exam.total,
        left=clock_text(time_left(exam.deadline, utc_now())),
    ))
    with st.container(horizontal=True):
        if st.button(shell.t("exam.resume"), type="primary", key="exam-resume", icon=":material/play_arrow:"):
            state.show(exam.id, index=next_unanswered(exam.card_ids, answered, -1) or 0)
            st.rerun()
        if st.button(shell.t("exam.hand_in_now"), key="exam-hand-in-now"):
            ask_before_hand_in(state, exam, exam.total - len(answered), flagged(shell.store, exam.id))
    if state.confirm_hand_in:
        confirm_hand_in(state, exam, exam.total - len(answered), len(flagged(shell.store, exam.id)))


def take_exam(state: ExamState, exam: Exam) -> Submission | None:
    """One question at a time, no marks shown, a navigator of every question (answered,
    flagged for later); answers are stored as they are given and can be changed until hand-in.
    Returns the answer submitted in this run, if any.

    An answer given to the question's form is stored before anything is drawn, so the head
    (progress, navigator), drawn first, shows it answered: saving takes one run, not two, and
    no placeholder. Drawn in a fragment (``main``): Save, Next, Previous, the navigator and
    the flag run only it; an exam over (its time, or handed in) runs the whole page, which
    closes it and shows the results."""
    if utc_now() >= exam.deadline:  # found in a fragment's own run: a full run closes the exam
        st.rerun(scope="app")
    flag, state.flag = state.flag, None  # asked for by the flag button's callback: written in this run
    if flag is not None and flag[0] == exam.id:
        set_flag(shell.store, *flag)
    index = min(max(state.index, 0), exam.total - 1)
    card_id, card, showing = question(exam, index)
    submitted = store_given_answer(state, exam, card, showing, index) if card is not None else None
    stored = submitted.outcome.record if submitted is not None else None
    if stored is not None and kept_values.kept_value(GO_ON_KEY, False) and index < exam.total - 1:
        st.toast(shell.t("exam.saved_went_on", n=index + 1), icon=":material/check:")
        state.go_to(index + 1)
        index, stored = state.index, None
        card_id, card, showing = question(exam, index)
    answers, flags = exam_store.answers_and_flags(shell.store, exam.id)  # after the save: read once, then kept
    answered = answers_by_card(exam, answers)
    to_top_when_new("exam", f"{exam.id}-{index}")  # a question shown anew starts at the page's top (a phone's Start)
    exam_head(state, exam, index, answered, flags)
    if card is None:
        st.warning(shell.t("exam.missing_card"))
    else:
        widgets.card_header(shell, card, answered=False, showing=showing)
        widgets.card_body(shell, card, showing)
        with st.container():  # one place, saved answer or not: what follows keeps its own
            saved_answer_form(exam, card, index, stored or answered.get(card_id), state.saves.get(card_id, 0))
        on = card_id in flags
        st.button(shell.t("exam.unflag" if on else "exam.flag"), key=f"exam-flag-{exam.id}-{index}",
                  icon=":material/flag:", type="tertiary", on_click=setattr,
                  args=(state, "flag", (exam.id, card_id, not on)))

    st.toggle(shell.t("exam.save_goes_on"), **kept_values.kept_widget(GO_ON_KEY, False))
    unanswered = exam.total - len(answered)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(shell.t("exam.previous"), key="exam-previous", disabled=index == 0, icon=":material/arrow_back:",
                  on_click=state.go_to, args=(index - 1,))
        st.button(shell.t("exam.next"), key="exam-next", disabled=index == exam.total - 1,
                  icon=":material/arrow_forward:", icon_position="right", on_click=state.go_to, args=(index + 1,))
        st.space("stretch")
        if unanswered:
            st.caption(shell.t("exam.unanswered_warning", n=unanswered), width="content")
        if st.button(shell.t("exam.hand_in"), key="exam-hand-in", type="primary", icon=":material/done_all:"):
            ask_before_hand_in(state, exam, unanswered, flags)
    if state.confirm_hand_in:
        confirm_hand_in(state, exam, unanswered, len(flags))
    # below the question: on a phone twenty numbers above it filled the first screen
    exam_widgets.navigator(shell, exam, index, set(answered), flags, on_pick=state.go_to)
    return submitted


def question(exam: Exam, index: int) -> tuple[str, AnyCard | None, CardShowing | None]:
    """Question ``index``: its card id, its card (None when no longer in the content) and
    the showing the exam drew for it."""
    card_id = exam.card_ids[index]
    card = shell.content.cards.get(card_id)
    return card_id, card, showing_of(card, exam.seeds[index]) if card is not None else None


def exam_banner(exam: Exam) -> None:
    """The exam's name and its clock, drawn with the page, above the question's fragment: a
    Save, a Next or a pick in the navigator runs only the fragment, which leaves them as they
    are (the clock counts down in the browser, its run at the deadline stays armed) and
    draws neither again."""
    with st.container(key=EXAM_BANNER_KEY):  # kept in view on a wide screen (quiz.ui.round_clock)
        name, clock = st.columns([4, 1], vertical_alignment="bottom")
        with name:
            st.caption(escape_markdown(exam_widgets.exam_name(shell, exam.preset)))
        with clock:
            exam_widgets.countdown(shell, exam.deadline)
    st.caption(shell.t("exam.leaving"))


def exam_head(
    state: ExamState, exam: Exam, index: int, answered: dict[str, AttemptRecord], flags: frozenset[str]
) -> None:
    """The question's number and the answered count (the navigator is below the question)."""
    st.markdown(f"**{shell.t('exam.question', n=index + 1, total=exam.total)}**")
    progress = shell.t("exam.answered_count", answered=len(answered), total=exam.total)
    st.progress(len(answered) / exam.total, text=progress)


def ask_before_hand_in(state: ExamState, exam: Exam, unanswered: int, flags: frozenset[str]) -> None:
    """Hand in at once when every question is answered and none flagged; else ask first."""
    if unanswered or flags:
        state.confirm_hand_in = True
    else:
        hand_in(state, exam)


def confirm_hand_in(state: ExamState, exam: Exam, unanswered: int, flags: int) -> None:
    """Handing in with questions unanswered or flagged asks once more."""
    with st.container(border=True):
        st.warning(shell.t("exam.confirm_hand_in", unanswered=unanswered, flagged=flags))
        with st.container(horizontal=True):
            if st.button(shell.t("exam.hand_in_anyway"), key="exam-hand-in-confirm", type="primary"):
                hand_in(state, exam)
            if st.button(shell.t("exam.keep_answering"), key="exam-hand-in-cancel"):
                state.confirm_hand_in = False
                st.rerun()


def store_given_answer(
    state: ExamState, exam: Exam, card: AnyCard, showing: CardShowing | None, index: int
) -> Submission | None:
    """Store an answer (or a change to it) given to the question's form, before anything is
    drawn; the question stays on screen: moving on is the candidate's choice. Returns the
    answer stored in this run, if any; the form is then drawn new (``state.saves``), as a
    change of the stored answer."""
    version = state.saves.get(card.id, 0)
    taken = form_answers.take_given(exam_form_key(exam, index, version))
    if taken is None:
        return None
    given = GivenAnswer(card, taken.chosen, trainee.id, time.time() - state.shown_at, Mode.EXAM, exam.id, showing)
    submitted = answer_flow.store_given(shell, given)  # with the click's PIN check (card_fragment)
    if not submitted.stored:
        st.rerun()  # a late answer is not stored; the rerun closes the exam
    state.saves[card.id] = version + 1  # a new form, filled with the answer just stored
    return submitted


def exam_form_key(exam: Exam, index: int, version: int) -> str:
    """The key of question ``index``'s form: ``version`` counts the saves of the question in
    this tab (each save draws a new form, filled with the answer stored)."""
    return f"exam-{exam.id}-{index}" + (f"-{version}" if version else "")


def saved_answer_form(exam: Exam, card: AnyCard, index: int, saved: AttemptRecord | None, version: int) -> None:
    """The stored answer, if any, and the answer form filled with it."""
    if saved is not None:
        st.info(shell.t("exam.saved_answer", answer=card_views.answer_summary(shell, card, saved)))
    form_key = exam_form_key(exam, index, version)
    if saved is not None:
        widgets.prefill(form_key, saved)  # after a refresh too, the form shows the answer it changes
    label = shell.t("exam.save_change" if saved is not None else "exam.save")
    card_views.answer_form(shell, card, form_key, submit_label=label, exam_id=exam.id)


def show_results(state: ExamState, exam: Exam) -> None:
    """The results of a closed exam, and the way back to the choice of exams."""
    exam_widgets.results(shell, exam, exam_store.exam_answers(shell.store, exam.id))
    if st.button(shell.t("exam.back"), key="exam-back"):
        state.show(None)
        st.rerun()


def follow_closed_exams(state: ExamState) -> None:
    """Close the exams whose time ran out and move the tab to the screen ``exam_screen`` says."""
    closed = exam_store.close_expired(shell.store, trainee.id, utc_now())
    if closed:
        shell_module.recount_due(shell)  # their answers moved their cards' review schedules on
    shown = ExamScreen(state.exam_id, state.result_id)
    screen = exam_screen(trainee.id, shown, lambda exam_id: exam_store.get_exam(shell.store, exam_id), closed)
    if screen != shown:
        state.show(screen.exam_id, result_id=screen.result_id)


def main(state: ExamState) -> None:
    """The screen of this run: results, the exam being taken, or the choice (with the offer
    to resume an open exam) and the history."""
    assigned = st.session_state.pop(ASSIGNED_EXAM_KEY, None)
    follow_closed_exams(state)
    if state.result_id is not None:
        finished = exam_store.get_exam(shell.store, state.result_id)
        assert finished is not None, "exam_screen keeps only a closed exam of the trainee's"
        show_results(state, finished)
        return
    running = exam_store.open_exam(shell.store, trainee.id, utc_now())
    if running is not None and state.exam_id == running.id:
        exam_banner(running)
        answer_flow.card_fragment(shell, lambda: take_exam(state, running), study_page=False)
        return
    if running is not None:
        offer_resume(state, running)
    else:
        choose_exam(state, assigned)
    exam_widgets.exam_history(shell, trainee)


main(st.session_state.setdefault(exam_widgets.EXAM_STATE_KEY, ExamState()))
