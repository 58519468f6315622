"""The findings of a card (CONTENT.md revision 3) on the page: asked at the top of the answer
form, one compact control each, and marked in the feedback's details with the evidence that
showed them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

import streamlit as st

from quiz.model.attempt import AttemptRecord, FindingRecord
from quiz.model.cards import RulingCard
from quiz.model.facts import FactSpec
from quiz.model.rulesets import Ruleset
from quiz.report.why_line import finding_question, finding_value
from quiz.training.answer_outcomes import ScenarioOutcome
from quiz.ui.markdown import escape_markdown
from quiz.ui.shell import Shell

YES_NO = (True, False)


def finding_key(form_key: str, fact: str) -> str:
    return f"{form_key}-finding-{fact}"


class FormFindings(Mapping[str, Any]):
    """What the finding widgets of one form hold, fact -> value, each read when asked for:
    ``answer_from_form`` asks for the card's facts only, and a walk over the whole session
    state (Streamlit builds every value of it for an ``items()``) cost more than the form."""

    def __init__(self, form_key: str) -> None:
        self._prefix = finding_key(form_key, "")

    def __getitem__(self, fact: str) -> Any:
        key = self._prefix + fact
        if key not in st.session_state:
            raise KeyError(fact)
        return st.session_state[key]

    def __iter__(self) -> Iterator[str]:
        prefix = self._prefix
        return iter([key[len(prefix):] for key in st.session_state.keys()
                     if isinstance(key, str) and key.startswith(prefix)])

    def __len__(self) -> int:
        return sum(1 for _ in self)


def found_in_form(form_key: str) -> Mapping[str, Any]:
    """What the finding widgets of the form ``form_key`` hold: fact -> value (None while
    unanswered); ``quiz.training.kinds.answer_from_form`` checks them against the card."""
    return FormFindings(form_key)


def prefill_findings(form_key: str, record: AttemptRecord) -> None:
    """A stored answer's findings into the form, the first time it is drawn in this session."""
    for finding in record.findings:
        st.session_state.setdefault(finding_key(form_key, finding.fact), finding.chosen)


def _specs(ruleset: Ruleset) -> dict[str, FactSpec]:
    return {spec.id: spec for spec in ruleset.facts}


def _question(shell: Shell, spec: FactSpec) -> str:
    return finding_question(spec, shell.language)


def _said(shell: Shell, spec: FactSpec, value: object) -> str:
    return finding_value(spec, value, shell.language)


def findings_inputs(shell: Shell, card: RulingCard, form_key: str) -> None:
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
            st.segmented_control(escape_markdown(_question(shell, spec)), YES_NO, key=key,
                                 format_func=partial(_said, shell, spec))
        else:
            st.number_input(escape_markdown(_question(shell, spec)), min_value=spec.min or 0, step=1, value=None,
                            placeholder=shell.t("findings.number"), key=key)


def findings_feedback(shell: Shell, card: RulingCard, outcome: ScenarioOutcome, answered: bool) -> None:
    """Each finding marked, with what showed it and, for an arguable one, why judges may
    differ (which of the two mistakes a wrong penalty was is the feedback's line of why)."""
    grade = outcome.grade
    if not grade.findings:
        return
    specs = _specs(shell.content.rulesets[card.ruleset])
    st.markdown(f"#### {shell.t('findings.what_you_found')}")
    lines = [_finding_line(shell, card, specs[finding.fact], finding, answered) for finding in grade.findings]
    st.markdown("\n".join(lines))


def _finding_line(shell: Shell, card: RulingCard, spec: FactSpec, finding: FindingRecord, answered: bool) -> str:
    lang = shell.language
    entry = card.findings[finding.fact]
    mark = (":green[:material/check:]" if finding.chosen == finding.standard
            else ":blue[:material/balance:]" if entry.arguable is not None
            else ":red[:material/close:]")
    said = shell.t("findings.line", question=escape_markdown(_question(shell, spec)),
                   standard=escape_markdown(finding_value(spec, finding.standard, lang)))
    if answered:
        said += " · " + shell.t("findings.yours", value=escape_markdown(finding_value(spec, finding.chosen, lang)))
    line = f"- {mark} {said}" + _note(shell.t("findings.evidence"), entry.evidence.get(lang))
    if entry.arguable is not None:
        line += _note(shell.t("findings.arguable"), entry.arguable.get(lang))
    return line


def _note(label: str, text: str) -> str:
    """A labelled line under a finding's list item (a Markdown line break, indented into it)."""
    return f"\n  \n  *{escape_markdown(label)}*: {escape_markdown(text)}"
