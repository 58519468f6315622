"""A floor call on the page (CONTENT.md, "Floor calls"): the investigation, then the ruling.

Under the call (the card's body), the round clock (sticky, always in view), the
conversation so far, and what can be done next: the people, each with their open questions,
the checks, and taking the players apart where the card has it; "Rule" opens the scenario
answer form, which gives the steps taken as its ``steps`` part. A step is kept in the
database the moment it is taken (``quiz.db.investigations``): a reload, a restart or another
tab resumes the investigation. The debrief (``debrief_section``) is drawn into the feedback.
"""

from __future__ import annotations

import streamlit as st

from quiz.db.investigations import steps_taken, take_step
from quiz.model.cards import FloorCallCard, Person, Step
from quiz.model.investigation import InvestigationRecord
from quiz.report.why_line import finding_question
from quiz.training.investigation import (
    Exchange,
    conversation,
    debrief,
    open_steps,
    resumed_steps,
    round_clock,
    seconds_used,
)
from quiz.ui import widgets
from quiz.ui.markdown import escape_markdown
from quiz.ui.round_clock import ROUND_CLOCK_KEY
from quiz.ui.shell import Shell

LAST_FORM_KEY = "investigation-form"  # the form whose investigation the session keeps
ASKER_AVATAR = ":material/gavel:"
PERSON_AVATAR = ":material/person:"
CHECK_AVATAR = ":material/visibility:"


def steps_key(form_key: str) -> str:
    """The session key of the form's ``steps`` part (``quiz.training.kinds.FORM_PARTS``)."""
    return f"{form_key}-steps"


def ruling_key(form_key: str) -> str:
    """Whether the form ``form_key``'s ruling is open (``widgets.prefill`` opens a stored answer's)."""
    return widgets.ruling_key(form_key)


def _pending_key(form_key: str) -> str:
    return f"{form_key}-step-asked"


def _ask(form_key: str, step_id: str) -> None:
    """A step's button (a callback): taken in the run it starts, in the database first."""
    st.session_state[_pending_key(form_key)] = step_id


def _set_ruling(form_key: str, on: bool) -> None:
    st.session_state[ruling_key(form_key)] = on


def _forget_other_forms(form_key: str, card_id: str) -> None:
    """Drop what this session kept of the investigation of another form or another call (an
    earlier card's, or another card shown under the same form): one investigation's keys at a
    time, however many floor calls a session is dealt."""
    last = st.session_state.get(LAST_FORM_KEY)
    if isinstance(last, tuple) and last != (form_key, card_id):
        for key in (steps_key(last[0]), ruling_key(last[0]), _pending_key(last[0])):
            st.session_state.pop(key, None)
    st.session_state[LAST_FORM_KEY] = (form_key, card_id)


def investigation(shell: Shell, card: FloorCallCard, form_key: str, submit_label: str | None = None,
                  exam_id: int | None = None) -> None:
    """The investigation of ``card`` and, once "Rule" is pressed, its answer form."""
    assert shell.trainee is not None, "an investigation is the trainee's"
    _forget_other_forms(form_key, card.id)
    trainee_id = shell.trainee.id
    kept = st.session_state.get(steps_key(form_key))
    earlier = [s for s in kept if isinstance(s, str)] if isinstance(kept, list) else []
    asked = st.session_state.pop(_pending_key(form_key), None)
    if isinstance(asked, str) and asked in {s.id for s in open_steps(card, earlier)}:
        since = take_step(shell.store, trainee_id, card.id, asked, exam_id)
    elif isinstance(kept, list):
        since = tuple(earlier)  # read when the call was first drawn in this session: a rerun asks nothing
    else:
        since = steps_taken(shell.store, trainee_id, card.id, exam_id)  # a reload or another tab: resume
    taken = resumed_steps(card, earlier, since)
    st.session_state[steps_key(form_key)] = list(taken)  # the form's steps part, read when it is sent
    clock(shell, card, taken)
    ruling = bool(st.session_state.get(ruling_key(form_key)))
    talk(shell, conversation(card, taken), ruling)
    if ruling:
        st.button(shell.t("investigation.back"), key=f"{form_key}-back", type="tertiary",
                  icon=":material/arrow_back:", on_click=_set_ruling, args=(form_key, False))
        widgets.scenario_form(shell, card, form_key, submit_label)
        return
    next_steps(shell, card, form_key, taken)
    st.button(shell.t("investigation.rule"), key=f"{form_key}-rule", type="primary", icon=":material/gavel:",
              help=shell.t("investigation.rule_help"), on_click=_set_ruling, args=(form_key, True))


def clock(shell: Shell, card: FloorCallCard, taken: tuple[str, ...]) -> None:
    """The round time used of the budget, kept in view while the page scrolls; over it, in red."""
    used = seconds_used(card, taken)
    words = "investigation.clock_over" if used > card.budget_seconds else "investigation.clock"
    text = escape_markdown(shell.t(words, used=round_clock(used), budget=round_clock(card.budget_seconds)))
    with st.container(key=ROUND_CLOCK_KEY):
        if used > card.budget_seconds:
            st.markdown(f":red-badge[:material/timer_off: {text}]")
        else:
            st.markdown(f":blue-badge[:material/timer: {text}]")


def _who(shell: Shell, person: Person | None, step: Step) -> str:
    if person is not None:
        return person.name.get(shell.language)
    return shell.t("investigation.seen" if step.check is not None else "investigation.apart")


def talk(shell: Shell, exchanges: list[Exchange], ruling: bool = False) -> None:
    """Each step taken, in order: what the judge asked or did, and the reply with who gave it
    (or what was seen). With none, what to do: choose a step below, or, once the ruling's form
    is open (``ruling``), that the call is ruled as told, with Back to the table to ask first."""
    if not exchanges:
        st.caption(shell.t("investigation.ruled_unasked" if ruling else "investigation.nothing_yet"))
        return
    lang = shell.language
    for exchange in exchanges:
        step = exchange.step
        with st.chat_message("user", avatar=ASKER_AVATAR):
            st.markdown(_said_to(shell, exchange))
        avatar = PERSON_AVATAR if exchange.person is not None else CHECK_AVATAR
        with st.chat_message("assistant", avatar=avatar):
            st.markdown(f"**{escape_markdown(_who(shell, exchange.person, step))}**  \n"
                        f"{escape_markdown(step.reply.get(lang))}")
            if exchange.overheard:
                st.caption(f":material/hearing: {shell.t('investigation.overheard')}")


def _said_to(shell: Shell, exchange: Exchange) -> str:
    return _step_line(shell, exchange.step, exchange.person)


def next_steps(shell: Shell, card: FloorCallCard, form_key: str, taken: tuple[str, ...]) -> None:
    """The open steps as buttons: each person's questions under their name, the checks, and
    taking the players apart."""
    lang = shell.language
    steps = open_steps(card, taken)
    if not steps:
        st.caption(shell.t("investigation.all_taken"))
        return

    def button(step: Step, icon: str) -> None:
        st.button(escape_markdown(step.text.get(lang)), key=f"{form_key}-step-{step.id}", icon=icon,
                  on_click=_ask, args=(form_key, step.id), width="stretch")

    with st.container(border=True):
        for person in card.people:
            questions = [step for step in steps if step.ask == person.id]
            if questions:
                st.markdown(f"**{escape_markdown(shell.t('investigation.ask', name=person.name.get(lang)))}**")
                for step in questions:
                    button(step, ":material/record_voice_over:")
        checks = [step for step in steps if step.check is not None]
        if checks:
            st.markdown(f"**{escape_markdown(shell.t('investigation.checks'))}**")
            for step in checks:
                button(step, ":material/search:")
        for step in steps:
            if step.separate:
                st.markdown(f"**{escape_markdown(shell.t('investigation.separate'))}**")
                button(step, ":material/call_split:")


def _quoted(shell: Shell, exchange: Exchange) -> str:
    """``Name: “reply”`` (or what was seen), escaped."""
    who = _who(shell, exchange.person, exchange.step)
    return escape_markdown(shell.t("debrief.said", name=who, reply=exchange.step.reply.get(shell.language)))


def _step_line(shell: Shell, step: Step, person: Person | None) -> str:
    """A question with whom it is put to ("To Sato: …"), or a check as done, in italics; escaped."""
    text = step.text.get(shell.language)
    if person is None:
        return f"*{escape_markdown(text)}*"
    return escape_markdown(shell.t("investigation.to", name=person.name.get(shell.language), text=text))


def debrief_section(shell: Shell, card: FloorCallCard, record: InvestigationRecord | None) -> None:
    """The investigation beside the ruling: the steps that decided each finding (missed ones
    marked), the leading questions with a better wording, the replies that conflicted and
    what settles them, the round time against the budget, and whether the players were
    separated (with the questions the other player heard)."""
    if record is None:
        return
    laid = debrief(card, record)
    t = shell.t
    specs = {spec.id: spec for spec in shell.content.rulesets[card.ruleset].facts}
    questions = {fact: finding_question(specs[fact], shell.language) for fact in card.findings if fact in specs}
    with st.container(border=True):
        st.markdown(f"#### :material/search: {t('debrief.heading')}")
        over = laid.over_budget
        time_words = t("debrief.time_over" if over else "debrief.time", used=round_clock(laid.seconds),
                       budget=round_clock(laid.budget_seconds))
        st.markdown(f"{':red' if over else ':green'}[:material/timer:] {escape_markdown(time_words)}")
        if laid.separate:
            apart = ("debrief.separated" if laid.separated else "debrief.not_separated")
            mark = ":green[:material/check:]" if laid.separated else ":red[:material/close:]"
            st.markdown(f"{mark} {escape_markdown(t(apart))}")
            if laid.overheard:
                st.markdown(f"*{escape_markdown(t('debrief.overheard'))}*\n\n"
                            + "\n".join(f"- {_step_line(shell, e.step, e.person)}" for e in laid.overheard))

        st.markdown(f"**{escape_markdown(t('debrief.findings'))}**")
        lines = []
        for finding in laid.findings:
            state = "debrief.gathered" if finding.gathered else "debrief.missed_finding"
            mark = ":green[:material/check:]" if finding.gathered else ":orange[:material/priority_high:]"
            lines.append(f"- {mark} {escape_markdown(questions.get(finding.fact, finding.fact))} · "
                         f"{escape_markdown(t(state))}")
            for step, taken in finding.steps:
                tag = t("debrief.taken") if taken else t("debrief.not_taken")
                step_mark = ":material/check:" if taken else ":orange[:material/radio_button_unchecked:]"
                lines.append(f"  - {step_mark} {_step_line(shell, step, card.person(step.ask or ''))} "
                             f"· *{escape_markdown(tag)}*")
        st.markdown("\n".join(lines))

        st.markdown(f"**{escape_markdown(t('debrief.leading'))}**")
        if not laid.leading:
            st.markdown(f":green[:material/check:] {escape_markdown(t('debrief.no_leading'))}")
        else:
            lines = []
            for asked in laid.leading:
                lines.append(f"- :orange[:material/warning:] {_step_line(shell, asked.step, asked.person)}")
                if asked.better is not None:
                    lines.append(f"  - {escape_markdown(t('debrief.better', text=asked.better.get(shell.language)))}")
            st.markdown("\n".join(lines))

        if laid.conflicts:
            st.markdown(f"**{escape_markdown(t('debrief.conflicts'))}**")
            for conflict in laid.conflicts:
                lines = [f"- {_quoted(shell, exchange)}"
                         + ("" if heard else f" *{escape_markdown(t('debrief.not_heard'))}*")
                         for exchange, heard in conflict.replies]
                lines.append(f"\n{escape_markdown(t('debrief.settled', text=conflict.settled.get(shell.language)))}")
                st.markdown("\n".join(lines))

