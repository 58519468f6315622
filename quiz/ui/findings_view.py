"""The findings of a card (CONTENT.md revision 3) on the page: asked at the top of the answer
form, one compact control each, and marked in the feedback with the evidence that showed them
and, for a wrong penalty, which of the two mistakes it was."""

from __future__ import annotations

from typing import Any

import streamlit as st

from quiz.model.attempt import AttemptRecord, FindingRecord
from quiz.model.cards import ScenarioCard
from quiz.model.facts import FactSpec
from quiz.model.rulesets import Ruleset
from quiz.training.answering import ScenarioOutcome
from quiz.ui.markdown import escape_markdown
from quiz.ui.shell import Shell

YES_NO = (True, False)


def finding_key(form_key: str, fact: str) -> str:
    return f"{form_key}-finding-{fact}"


def found_in_form(form_key: str) -> dict[str, Any]:
    """What the finding widgets of the form ``form_key`` hold: fact -> value (None while
    unanswered); ``quiz.training.kinds.answer_from_form`` checks them against the card."""
    prefix = finding_key(form_key, "")
    return {key[len(prefix):]: value for key, value in st.session_state.items()
            if isinstance(key, str) and key.startswith(prefix)}


def prefill_findings(form_key: str, record: AttemptRecord) -> None:
    """A stored answer's findings into the form, the first time it is drawn in this session."""
    for finding in record.findings:
        st.session_state.setdefault(finding_key(form_key, finding.fact), finding.chosen)


def _specs(ruleset: Ruleset) -> dict[str, FactSpec]:
    return {spec.id: spec for spec in ruleset.facts}


def _question(shell: Shell, spec: FactSpec) -> str:
    asked = spec.finding.question if spec.finding is not None else spec.name
    return asked.get(shell.language)


def _yes_no(shell: Shell, value: object) -> str:
    return shell.t("findings.yes") if value is True else shell.t("findings.no") if value is False else "—"


def _value_text(shell: Shell, spec: FactSpec, value: object) -> str:
    if spec.type == "bool":
        return _yes_no(shell, value)
    if value is None:
        return "—"
    unit = spec.unit.get(shell.language) if spec.unit is not None else ""
    return f"{value} {unit}".strip()


def findings_inputs(shell: Shell, card: ScenarioCard, form_key: str) -> None:
    """One control per finding, in the card's order, under a short heading: a yes/no pair of
    buttons, or a whole number. Drawn inside the card's form."""
    if not card.findings:
        return
    specs = _specs(shell.content.rulesets[card.ruleset])
    st.markdown(f"**{escape_markdown(shell.t('findings.heading'))}**", help=shell.t("findings.help"))
    for fact in card.findings:
        spec = specs[fact]
        key = finding_key(form_key, fact)
        if spec.type == "bool":
            if st.session_state.get(key) not in (*YES_NO, None):
                st.session_state[key] = None  # a stale or crafted value: ask again
            st.segmented_control(escape_markdown(_question(shell, spec)), YES_NO,
                                 format_func=lambda value: _yes_no(shell, value), key=key)
        else:
            st.number_input(escape_markdown(_question(shell, spec)), min_value=spec.min or 0, step=1, value=None,
                            placeholder=shell.t("findings.number"), key=key)


def findings_feedback(shell: Shell, card: ScenarioCard, outcome: ScenarioOutcome, answered: bool) -> None:
    """Which of the two mistakes a wrong penalty was, then each finding marked, with what
    showed it and, for an arguable one, why judges may differ."""
    grade = outcome.grade
    if not grade.findings:
        return
    ruleset = shell.content.rulesets[card.ruleset]
    lang = shell.language
    wrong = [finding for finding in grade.findings if not finding.right]
    standard = ruleset.name_of("penalty", outcome.verdict.penalty, lang)
    if answered and grade.penalty == "wrong":
        if grade.penalty_follows_findings:
            st.warning(shell.t("findings.follows", count=len(wrong)), icon=":material/search:")
        elif not wrong:
            st.warning(shell.t("findings.misapplied", penalty=standard), icon=":material/menu_book:")
        else:
            own = grade.own_penalty
            st.warning(shell.t("findings.misapplied_own", penalty=ruleset.name_of("penalty", own, lang))
                       if own is not None else shell.t("findings.misapplied_undecided"), icon=":material/menu_book:")
    elif answered and wrong:
        st.warning(shell.t("findings.penalty_right_facts_wrong", count=len(wrong)), icon=":material/search:")
    st.markdown(f"#### {shell.t('findings.what_you_found')}")
    specs = _specs(ruleset)
    lines = [_finding_line(shell, card, specs[finding.fact], finding, answered) for finding in grade.findings]
    st.markdown("\n".join(lines))


def _finding_line(shell: Shell, card: ScenarioCard, spec: FactSpec, finding: FindingRecord, answered: bool) -> str:
    lang = shell.language
    entry = card.findings[finding.fact]
    mark = (":green[:material/check:]" if finding.chosen == finding.standard
            else ":blue[:material/balance:]" if entry.arguable is not None
            else ":red[:material/close:]")
    said = shell.t("findings.line", question=escape_markdown(_question(shell, spec)),
                   standard=_value_text(shell, spec, finding.standard))
    if answered:
        said += " · " + shell.t("findings.yours", value=_value_text(shell, spec, finding.chosen))
    line = f"- {mark} {said}" + _note(shell.t("findings.evidence"), entry.evidence.get(lang))
    if entry.arguable is not None:
        line += _note(shell.t("findings.arguable"), entry.arguable.get(lang))
    return line


def _note(label: str, text: str) -> str:
    """A labelled line under a finding's list item (a Markdown line break, indented into it)."""
    return f"\n  \n  *{escape_markdown(label)}*: {escape_markdown(text)}"
