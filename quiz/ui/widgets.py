"""A card on the page and its answer form, shared by every page that shows cards: the form's
submit button reads the answer in its callback and gives it (``form_answers.give``), for the
run it starts to take."""

from __future__ import annotations

import streamlit as st

from quiz.content.loader import Content
from quiz.model.attempt import PLAYERS, AttemptRecord
from quiz.model.cards import NO_LISTED_INFRACTION, AnyCard, JudgementCallCard, KnowledgeCard, RuledCard
from quiz.rules.variants import CardShowing
from quiz.training.answer_outcomes import asks_players
from quiz.training.kinds import FORM_PARTS, answer_from_form, shown_texts
from quiz.ui import form_answers
from quiz.ui.findings_view import findings_inputs, found_in_form, prefill_findings
from quiz.ui.markdown import escape_markdown
from quiz.ui.shell import Shell


def shown_title(shell: Shell, card: AnyCard, showing: CardShowing | None = None) -> str:
    """The card's own title as shown (a variant's filled with its drawn values), in the language."""
    return shown_texts(card, showing)[0].get(shell.language)


def card_header(shell: Shell, card: AnyCard, answered: bool, showing: CardShowing | None = None) -> None:
    """Title, game and difficulty of a card. Until it is answered, the title is the card's
    kind: authors' titles ("A second late arrival today") often name the answer."""
    ruleset = shell.content.rulesets[card.ruleset]
    title = shown_title(shell, card, showing) if answered else shell.t(f"card.untitled_{card.kind}")
    st.subheader(escape_markdown(title), anchor=False)
    stars = "★" * card.difficulty + "☆" * (3 - card.difficulty)
    st.caption(f"{escape_markdown(ruleset.document.short_name.get(shell.language))} · {stars}")


def card_body(shell: Shell, card: AnyCard, showing: CardShowing | None = None) -> None:
    """The situation (filled with the showing's values) or the question, in a box."""
    text = shown_texts(card, showing)[1]
    with st.container(border=True):
        st.markdown(escape_markdown(text.get(shell.language)))


def players_name(shell: Shell, players: str | None) -> str:
    """Who receives the penalty, in words ("—" when not said)."""
    return shell.t(f"players.{players}") if players in PLAYERS else "—"


def prefill(form_key: str, record: AttemptRecord) -> None:
    """Put a stored answer into the answer form ``form_key`` the first time it is drawn in this
    session (later, the widgets keep what the trainee has chosen since)."""
    values: dict[str, object] = {"infraction": record.chosen_infraction, "penalty": record.chosen_penalty,
              "players": record.chosen_players, "fixes": list(record.chosen_fixes),
              "choice": record.chosen_choice, "nearest": record.chosen_choice}
    if record.investigation is not None:  # a floor call's: its steps, and its ruling open
        values["steps"] = list(record.investigation.steps)
        st.session_state.setdefault(ruling_key(form_key), True)
    for part, value in values.items():
        st.session_state.setdefault(f"{form_key}-{part}", value)
    prefill_findings(form_key, record)


def ruling_key(form_key: str) -> str:
    """Whether the ruling of a floor call's form is open (its investigation otherwise)."""
    return f"{form_key}-ruling"


def keep_choice(key: str, options: list[str], many: bool = False) -> str:
    """``key``, after giving its widget back the ids chosen before drawing it again.

    Streamlit matches a choice by its label, which a language switch changes: the ids are
    assigned again (as the sidebar's games are), so the choices made survive the switch.
    """
    if key in st.session_state:
        value = st.session_state[key]
        if many:
            st.session_state[key] = [v for v in value if v in options] if isinstance(value, list) else []
        else:
            st.session_state[key] = value if value in options else None
    return key


def _take_answer(content: Content, card: AnyCard, form_key: str) -> None:
    """The submit button's callback: the form's answer, once every part it asks is chosen
    (else nothing: the form is drawn again, with what is missing said under it)."""
    parts = {part: st.session_state.get(f"{form_key}-{part}") for part in FORM_PARTS}
    parts["findings"] = found_in_form(form_key)
    answer = answer_from_form(content, card, parts)
    if answer is not None:
        form_answers.give(form_key, answer)


def check_button(shell: Shell, card: AnyCard, form_key: str, submit_label: str | None = None) -> bool:
    """The answer form's submit button (Check, or ``submit_label``); Ctrl+Enter (⌘+Enter) presses it.
    Check says, when the pointer rests on it, how to answer with the keyboard alone. Pressed
    with every part chosen, the answer is given (``form_answers.take_given``) and the form is not drawn;
    so it returns True only when a part was missing."""
    return st.form_submit_button(submit_label or shell.t("answer.check"), type="primary", shortcut="Mod+Enter",
                                 help=None if submit_label else shell.t("answer.keyboard_help"),
                                 on_click=_take_answer, args=(shell.content, card, form_key))


def scenario_form(shell: Shell, card: RuledCard, form_key: str, submit_label: str | None = None) -> None:
    """The answer form: infraction, penalty, who receives it (on cards whose infraction can name
    both players) and fixes; "check" (or ``submit_label``) gives the answer (``form_answers.take_given``).
    Each widget is keyed by the form, so a language switch (new labels) keeps the choices made."""
    ruleset = shell.content.rulesets[card.ruleset]
    lang = shell.language
    names = ruleset.infraction_labels(lang)
    ask_players = asks_players(shell.content, card)
    with st.form(form_key):
        findings_inputs(shell, card, form_key)
        st.selectbox(
            shell.t("answer.infraction"), list(names), index=None,
            format_func=names.__getitem__, placeholder=shell.t("answer.pick_infraction"),
            key=keep_choice(f"{form_key}-infraction", list(names)),
        )
        st.radio(
            shell.t("answer.penalty"), [p.id for p in ruleset.ladder], index=None,
            format_func=lambda pid: ruleset.name_of("penalty", pid, lang),
            horizontal=True, key=keep_choice(f"{form_key}-penalty", [p.id for p in ruleset.ladder]),
        )
        if ask_players:
            st.radio(
                shell.t("answer.players"), list(PLAYERS), index=None,
                format_func=lambda who: players_name(shell, who), horizontal=True,
                key=keep_choice(f"{form_key}-players", list(PLAYERS)),
            )
        st.multiselect(
            shell.t("answer.fixes"), [f.id for f in ruleset.fixes],
            format_func=lambda fid: ruleset.name_of("fix", fid, lang),
            placeholder=shell.t("answer.no_fix"), help=shell.t("answer.fixes_help"),
            key=keep_choice(f"{form_key}-fixes", [f.id for f in ruleset.fixes], many=True),
            select_all=False,
        )
        missing = check_button(shell, card, form_key, submit_label)
    if missing:
        asked = "answer.incomplete_players" if ask_players else "answer.incomplete"
        st.warning(shell.t(asked) + (" " + shell.t("findings.incomplete") if card.findings else ""))


def knowledge_form(shell: Shell, card: KnowledgeCard, form_key: str, submit_label: str | None = None) -> None:
    lang = shell.language
    texts = {c.id: escape_markdown(c.text.get(lang)) for c in card.choices}  # radio labels are Markdown
    with st.form(form_key):
        st.radio(shell.t("answer.choose"), list(texts), index=None, format_func=texts.__getitem__,
                 key=keep_choice(f"{form_key}-choice", list(texts)))
        missing = check_button(shell, card, form_key, submit_label)
    if missing:
        st.warning(shell.t("answer.incomplete_choice"))


def judgement_form(shell: Shell, card: JudgementCallCard, form_key: str, submit_label: str | None = None) -> None:
    """The nearest infraction of the document, or that none covers the case (all the document
    decides of a judgement call; the form does not say what kind of card it is)."""
    ruleset = shell.content.rulesets[card.ruleset]
    labels = {
        **ruleset.infraction_labels(shell.language),
        NO_LISTED_INFRACTION: shell.t("answer.no_listed_infraction"),
    }
    with st.form(form_key):
        st.caption(shell.t("answer.nearest_help"))
        st.selectbox(
            shell.t("answer.nearest"), list(labels), index=None, format_func=labels.__getitem__,
            placeholder=shell.t("answer.pick_infraction"), key=keep_choice(f"{form_key}-nearest", list(labels)),
        )
        missing = check_button(shell, card, form_key, submit_label)
    if missing:
        st.warning(shell.t("answer.incomplete_choice"))
