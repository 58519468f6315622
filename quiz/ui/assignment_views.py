"""Onboarding assignments on screen: the supervisor's section (make one; who is on track,
late or done; the completion record as PDF) and a trainee's "your assignments" at the top of
Practice, each with a button that starts the assigned practice or exam.

The rules and storage are ``quiz.training.assignments`` and ``quiz.db.assignments``; the words
and the PDF ``quiz.report.assignments``.
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from quiz.access.stores import store_name
from quiz.content.categories import category_labels
from quiz.db import assignments as stored
from quiz.db.assignments import Assignment, MemberStanding
from quiz.db.store import Trainee
from quiz.model.attempt import utc_now
from quiz.model.errors import AssignmentError, OutOfScopeError, PdfFontMissingError
from quiz.model.local_time import local_text, local_time
from quiz.model.scope import Scope
from quiz.report.assignments import (
    completion_pdf,
    due_day,
    font_file,
    plan_lines,
    plan_size,
    standing_rows,
)
from quiz.report.progress import safe_file_name
from quiz.rules.variants import list_title
from quiz.training.assignments import (
    DEFAULT_MASTERY,
    MASTERY_RANGE,
    TITLE_MAX,
    Plan,
    due_at,
    plan_cards,
)
from quiz.ui import exam_widgets, rounds
from quiz.ui.markdown import escape_markdown
from quiz.ui.shell import Shell, switch_page
from quiz.ui.streamlit_internals.words import multiselect
from quiz.ui.time_zone import viewer_zone

ROUND_KEY, ROUND_WORDS_KEY = rounds.ROUND_KEY, rounds.ROUND_WORDS_KEY  # the Practice page's round (pages/practice.py)
ASSIGNED_EXAM_KEY = "assigned_exam"  # a preset the Mock exam page starts at once (see pages/exam.py)
OPEN_KEY = "my_assignments_open"  # (trainee id, {assignment id: title} not done when last drawn, their cards)
FRIDAY = 4


def next_friday(today: dt.date) -> dt.date:
    """The coming Friday (today on a Friday): the default due day."""
    return today + dt.timedelta(days=(FRIDAY - today.weekday()) % 7)


def exam_names(shell: Shell) -> dict[str, str]:
    """Preset id -> its name in the page's language, for every preset that can be drawn."""
    return {preset.id: preset.name.get(shell.language) for preset in exam_widgets.presets(shell)[0]}


def supervisor_section(shell: Shell, scope: Scope, zone: str) -> None:
    """Who is done (every assignment of the scope, with its PDF) and a new assignment."""
    list_tab, new_tab = st.tabs([shell.t("assign.tab_list"), shell.t("assign.tab_new")])
    with new_tab:
        new_assignment(shell, scope, zone)
    with list_tab:
        found = stored.store_assignments(shell.store, scope)
        if not found:
            st.info(shell.t("assign.none"))
        for assignment in found:
            assignment_standings(shell, scope, assignment, zone)


def new_assignment(shell: Shell, scope: Scope, zone: str) -> None:
    """The form of a new assignment: title, who (nobody chosen: the whole store, now and who
    joins later), what, and the due day (its end, in the supervisor's zone). Its size (the
    cards, how many to master, the exam's questions) is shown by its own button and with the
    assignment made."""
    if scope.store_id is None:
        st.info(shell.t("assign.pick_store", picker=shell.t("gate.store_picker")))
        return
    staff = {trainee.id: trainee.name for trainee in shell.store.trainees(scope)}
    if not staff:
        st.info(shell.t("assign.nobody"))
        return
    labels = category_labels(shell.content, shell.language, shell.t("shell.knowledge"))
    names = exam_names(shell)
    with st.form("assignment-new", border=True):
        title = st.text_input(shell.t("assign.field_title"), max_chars=TITLE_MAX, key="assignment-title")
        chosen = multiselect(shell.language, shell.t("assign.field_staff"), list(staff),
                             format_func=staff.__getitem__, key="assignment-staff",
                             placeholder=shell.t("assign.whole_store", count=len(staff)))
        st.caption(shell.t("assign.members_note"))
        categories = multiselect(shell.language, shell.t("assign.field_categories"), list(labels),
                                 format_func=labels.__getitem__, key="assignment-categories")
        titles = {card.id: list_title(card).get(shell.language) for card in shell.content.cards.values()
                  if not card.retired}
        cards = multiselect(shell.language, shell.t("assign.field_cards"), list(titles),
                            format_func=titles.__getitem__, key="assignment-cards")
        mastery = st.number_input(shell.t("assign.field_mastery"), *MASTERY_RANGE, value=DEFAULT_MASTERY, step=5,
                                  help=shell.t("assign.mastery_help"), key="assignment-mastery")
        exam = st.selectbox(shell.t("assign.field_exam"), [None, *names],
                            format_func=lambda preset: names[preset] if preset else shell.t("assign.no_exam"),
                            key="assignment-exam")
        today = local_time(utc_now(), zone).date()
        day = st.date_input(shell.t("assign.field_due"), value=next_friday(today), min_value=today,
                            key="assignment-due")
        with st.container(horizontal=True):
            sized = st.form_submit_button(shell.t("assign.show_size"), icon=":material/straighten:")
            pressed = st.form_submit_button(shell.t("assign.make"), type="primary")
    if not (pressed or sized):
        return
    try:
        plan = Plan(categories=tuple(categories), cards=tuple(cards), mastery=int(mastery), exam=exam)
        if pressed:
            stored.create_assignment(shell.store, scope, title or "", plan, due_at(day, zone), utc_now(),
                                     chosen or None)
    except AssignmentError as refused:
        st.error(shell.t(f"assign.error.{refused.rule}"))
        return
    except OutOfScopeError:  # a staff member who left the store meanwhile
        st.error(shell.t("assign.error.no_members"))
        return
    if pressed:
        st.success(shell.t("assign.made", count=len(chosen) if chosen else len(staff)))
    st.info(plan_size(plan, shell.content, shell.language, exam_questions(shell)), icon=":material/straighten:")


def exam_questions(shell: Shell) -> dict[str, int]:
    """Preset id -> its number of questions."""
    return {preset.id: preset.questions for preset in exam_widgets.presets(shell)[0]}


def assignment_standings(shell: Shell, scope: Scope, assignment: Assignment, zone: str) -> None:
    """One assignment: what and by when, its members' standings, the PDF and Archive."""
    members = stored.standings(shell.store, shell.content, assignment, utc_now())
    plan = plan_lines(assignment.plan, shell.content, shell.language, exam_names(shell))
    counts = {status: sum(m.standing.status == status for m in members) for status in ("done", "late")}
    with st.container(border=True, key=f"assignment-{assignment.id}"):
        st.subheader(escape_markdown(assignment.title), anchor=False)
        due = shell.t("assign.due_line", due=due_day(assignment.due, zone))
        st.caption(escape_markdown(" · ".join([*plan, due])))
        st.caption(plan_size(assignment.plan, shell.content, shell.language, exam_questions(shell)))
        st.markdown(shell.t("assign.summary", done=counts["done"], total=len(members), late=counts["late"]))
        rows = standing_rows(members, shell.language, zone)
        st.dataframe([{shell.t(f"assign.col_{k}"): v for k, v in row.items()} for row in rows], hide_index=True,
                     width="stretch")
        pdf, archive = st.columns([3, 1])
        with pdf:
            pdf_download(shell, assignment, members, plan, zone)
        if archive.button(shell.t("assign.archive"), key=f"assignment-archive-{assignment.id}",
                          icon=":material/archive:"):
            stored.archive_assignment(shell.store, scope, assignment.id, utc_now())
            st.rerun()


def pdf_download(shell: Shell, assignment: Assignment, members: list[MemberStanding],
                 plan: list[str], zone: str) -> None:
    """The completion record's download, made when pressed (no rerun: the file the browser is
    fetching is not replaced); without a Japanese font on the server, why not."""
    shop = store_name(shell.store, assignment.store_id)
    lines = [*([shop] if shop else []), *plan]

    def make() -> bytes:
        return completion_pdf(assignment, members, lines, shell.language, zone, utc_now())

    try:
        font_file()
    except PdfFontMissingError:
        st.warning(shell.t("assign.pdf_no_font"))
        return
    st.download_button(shell.t("assign.download_pdf"), data=make, mime="application/pdf",
                       file_name=f"{safe_file_name(assignment.title, 'assignment')}.pdf",
                       key=f"assignment-pdf-{assignment.id}", icon=":material/download:", on_click="ignore")


def my_assignments(shell: Shell, trainee: Trainee) -> None:
    """The trainee's assignments, first on Practice: each with its due time (on the trainee's
    clock, read only when there is one to show) and progress, and a button to practise its
    cards not yet mastered or to take its exam; done ones in a line. One done since it was
    last drawn in this session says so. The cards of those not done are kept for
    ``moves_an_assignment``."""
    found = stored.trainee_assignments(shell.store, trainee.id)
    kept = st.session_state.get(OPEN_KEY)
    was_open: dict[int, str] = kept[1] if isinstance(kept, tuple) and kept[0] == trainee.id else {}
    still_open: dict[int, str] = {}
    open_cards: set[str] = set()
    if not found:
        st.session_state[OPEN_KEY] = (trainee.id, still_open, frozenset(open_cards))
        return
    zone, now = viewer_zone(shell), utc_now()
    with st.container(border=True, key="my-assignments"):
        st.subheader(shell.t("assign.mine"), anchor=False)
        for assignment, completed_at in found:
            cards = plan_cards(shell.content, assignment.plan)
            standing = stored.member_standing(shell.store, assignment, cards, trainee.id, completed_at, now)
            title = f"**{escape_markdown(assignment.title)}**"
            if standing.status == "done":
                if assignment.id in was_open:
                    st.success(shell.t("assign.mine_just_done", title=escape_markdown(assignment.title)),
                               icon=":material/celebration:")
                st.markdown(f":material/check_circle: {title} · "
                            f"{shell.t('assign.mine_done', when=local_text(standing.done_at, zone))}")
                continue
            still_open[assignment.id] = assignment.title
            open_cards.update(cards)
            words = "assign.mine_late" if standing.status == "late" else "assign.mine_due"
            percent = round(standing.progress * 100)
            st.markdown(title)
            st.progress(standing.progress, text=shell.t(words, due=due_day(assignment.due, zone), percent=percent))
            practise, exam = st.columns(2)
            if assignment.plan.practice and practise.button(
                shell.t("assign.start_practice"), key=f"my-assignment-practise-{assignment.id}",
                icon=":material/style:",
            ):
                start_practice(shell, trainee, cards)
            if assignment.plan.exam and exam.button(
                shell.t("assign.start_exam"), key=f"my-assignment-exam-{assignment.id}", type="primary",
                icon=":material/timer:",
            ):
                st.session_state[ASSIGNED_EXAM_KEY] = assignment.plan.exam
                st.session_state.pop(exam_widgets.EXAM_STATE_KEY, None)  # the choice, not results shown before
                switch_page(exam_widgets.EXAM_PAGE)
    st.session_state[OPEN_KEY] = (trainee.id, still_open, frozenset(open_cards))


def moves_an_assignment(card_id: str) -> bool:
    """Whether an answer to ``card_id`` can move an assignment not done that "your
    assignments" showed in this session: Practice then draws the whole page again (its card
    runs in a fragment, which alone would leave the progress where it was)."""
    kept = st.session_state.get(OPEN_KEY)
    return isinstance(kept, tuple) and card_id in kept[2]


def start_practice(shell: Shell, trainee: Trainee, cards: tuple[str, ...]) -> None:
    """A round of the plan's cards whose latest answer is not right (all of them once every
    one is), on the Practice page."""
    results = shell.store.card_results(trainee.id, last=1)
    round_ids = [card_id for card_id in cards if not results.get(card_id, [False])[-1]] or list(cards)
    rounds.start_round(round_ids, ("assign.round", tuple(round_ids)))
