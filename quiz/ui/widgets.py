"""Widgets shared by every page that shows cards, answers and verdicts."""

from __future__ import annotations

import streamlit as st

from quiz.card_model import KnowledgeCard, ScenarioCard
from quiz.engine import line_numbers
from quiz.explain import describe_facts, when_penalty_applies
from quiz.grading import ScenarioAnswer
from quiz.markdown import escape_markdown, quote_block
from quiz.practice import KnowledgeOutcome, ScenarioOutcome
from quiz.ruleset_model import Ruleset
from quiz.text import Text
from quiz.ui.shell import Shell
from quiz.variants import CardShowing, drawn_facts, show_card
from quiz.verdict import CitedLine

MARKS = {
    "correct": ":green[:material/check_circle:]",
    "accepted": ":orange[:material/check_circle:]",
    "wrong": ":red[:material/cancel:]",
}


def _shown(card: ScenarioCard | KnowledgeCard, showing: CardShowing | None) -> tuple[Text, Text]:
    """The title and body text as shown: a scenario's texts filled with the showing's values."""
    if isinstance(card, KnowledgeCard):
        return card.title, card.question
    showing = showing or show_card(card)
    return showing.title, showing.situation


def card_header(
    shell: Shell, card: ScenarioCard | KnowledgeCard, answered: bool, showing: CardShowing | None = None
) -> None:
    """Title, game and difficulty of a card; its tags (which may give the answer away) once answered."""
    ruleset = shell.content.rulesets[card.ruleset]
    st.subheader(escape_markdown(_shown(card, showing)[0].get(shell.language)), anchor=False)
    stars = "★" * card.difficulty + "☆" * (3 - card.difficulty)
    tags = " ".join(f"`{tag.replace('`', '')}`" for tag in card.tags) if answered else ""
    st.caption(f"{escape_markdown(ruleset.document.short_name.get(shell.language))} · {stars} {tags}")


def card_body(shell: Shell, card: ScenarioCard | KnowledgeCard, showing: CardShowing | None = None) -> None:
    """The situation (filled with the showing's values) or the question, in a box."""
    text = _shown(card, showing)[1]
    with st.container(border=True):
        st.markdown(escape_markdown(text.get(shell.language)))


def scenario_form(
    shell: Shell, card: ScenarioCard, form_key: str, submit_label: str | None = None
) -> ScenarioAnswer | None:
    """The three-part answer form; returns the answer once "check" (or ``submit_label``) is pressed with all parts."""
    ruleset = shell.content.rulesets[card.ruleset]
    lang = shell.language
    order = {c.id: i for i, c in enumerate(ruleset.categories)}
    infractions = sorted(ruleset.infractions, key=lambda i: order.get(i.category, 99))
    names = {
        i.id: f"{ruleset.category(i.category).name.get(lang)} › {i.name.get(lang)}"  # type: ignore[union-attr]
        for i in infractions
    }
    with st.form(form_key):
        infraction = st.selectbox(
            shell.t("answer.infraction"), [i.id for i in infractions], index=None,
            format_func=names.__getitem__, placeholder=shell.t("answer.pick_infraction"),
        )
        penalty = st.radio(
            shell.t("answer.penalty"), [p.id for p in ruleset.ladder], index=None,
            format_func=lambda pid: ruleset.penalty(pid).name.get(lang),  # type: ignore[union-attr]
            horizontal=True,
        )
        fixes = st.multiselect(
            shell.t("answer.fixes"), [f.id for f in ruleset.fixes],
            format_func=lambda fid: ruleset.fix(fid).name.get(lang),  # type: ignore[union-attr]
            placeholder=shell.t("answer.no_fix"), help=shell.t("answer.fixes_help"),
        )
        pressed = st.form_submit_button(submit_label or shell.t("answer.check"), type="primary")
    if not pressed:
        return None
    if infraction is None or penalty is None:
        st.warning(shell.t("answer.incomplete"))
        return None
    return ScenarioAnswer(infraction=infraction, penalty=penalty, fixes=tuple(fixes))


def knowledge_form(shell: Shell, card: KnowledgeCard, form_key: str, submit_label: str | None = None) -> str | None:
    lang = shell.language
    texts = {c.id: escape_markdown(c.text.get(lang)) for c in card.choices}  # radio labels are Markdown
    with st.form(form_key):
        chosen = st.radio(shell.t("answer.choose"), list(texts), index=None, format_func=texts.__getitem__)
        pressed = st.form_submit_button(submit_label or shell.t("answer.check"), type="primary")
    if not pressed:
        return None
    if chosen is None:
        st.warning(shell.t("answer.incomplete"))
        return None
    return chosen


def _names(ruleset: Ruleset, fixes: tuple[str, ...] | list[str], lang: str) -> str:
    return ", ".join(ruleset.fix(f).name.get(lang) for f in fixes)  # type: ignore[union-attr]


def citation(shell: Shell, cited: CitedLine) -> None:
    """A quoted line of the document: the Japanese original and its English rendering."""
    key = "feedback.line" if len(set(cited.lines)) == 1 else "feedback.lines"
    where = shell.t(key, document=cited.document, lines=_line_span(cited.lines))
    st.markdown(f"{quote_block(cited.ja)}\n\n*{escape_markdown(where)}*")
    if shell.language != "ja":
        st.caption("  \n".join(escape_markdown(line) for line in cited.en.split("\n")))


def _line_span(lines: tuple[int, ...]) -> str:
    """Line numbers as runs: ``9–11, 48``."""
    if not lines:
        return "?"
    runs: list[list[int]] = []
    for number in sorted(set(lines)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def scenario_feedback(shell: Shell, card: ScenarioCard, outcome: ScenarioOutcome) -> None:
    """Marks per part, the standard answer, why, the decisive lines, and what would change it."""
    ruleset = shell.content.rulesets[card.ruleset]
    lang, verdict, grade, record = shell.language, outcome.verdict, outcome.grade, outcome.record
    if grade.correct:
        st.success(shell.t("feedback.all_right"))
    else:
        st.error(shell.t("feedback.some_wrong"))
    infraction_name = ruleset.infraction(verdict.infraction).name.get(lang)  # type: ignore[union-attr]
    chosen_infraction = ruleset.infraction(record.chosen_infraction or "")
    penalty_name = ruleset.penalty(verdict.penalty).name.get(lang)  # type: ignore[union-attr]
    chosen_penalty = ruleset.penalty(record.chosen_penalty or "")
    cols = st.columns(3)
    parts = [
        ("answer.infraction", grade.infraction, chosen_infraction.name.get(lang) if chosen_infraction else "—"),
        ("answer.penalty", grade.penalty, chosen_penalty.name.get(lang) if chosen_penalty else "—"),
        ("answer.fixes", grade.fixes, _names(ruleset, record.chosen_fixes, lang) or shell.t("answer.no_fix")),
    ]
    for col, (label, result, chosen) in zip(cols, parts):
        with col:
            st.markdown(f"{MARKS[result]} **{shell.t(label)}** · {shell.t('mark.' + result)}")
            st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))
    if grade.penalty == "accepted":
        st.info(shell.t("feedback.accepted", penalty=chosen_penalty.name.get(lang) if chosen_penalty else ""))

    st.markdown(f"#### {shell.t('feedback.standard')}")
    lines = [
        f"- **{shell.t('answer.infraction')}**: {escape_markdown(infraction_name)}",
        f"- **{shell.t('answer.penalty')}**: {escape_markdown(penalty_name)}"
        + (f" ({shell.t('feedback.both_players')})" if verdict.players == "both" else ""),
        f"- **{shell.t('answer.fixes')}**: {escape_markdown(_names(ruleset, verdict.fixes, lang) or shell.t('answer.no_fix'))}",
    ]
    if verdict.optional_fixes:
        lines.append(f"- **{shell.t('feedback.optional_fixes')}**: {escape_markdown(_names(ruleset, verdict.optional_fixes, lang))}")
    if len(verdict.accepted) > 1:
        also = ", ".join(ruleset.penalty(p).name.get(lang) for p in verdict.accepted[1:])  # type: ignore[union-attr]
        lines.append(f"- **{shell.t('feedback.also_accepted')}**: {escape_markdown(also)}")
    lines.append(f"- **{shell.t('feedback.applies_to')}**: {shell.t('scope.' + verdict.applies_to)}")
    st.markdown("\n".join(lines))

    st.markdown(f"#### {shell.t('feedback.why')}")
    drawn = drawn_facts(card, outcome.showing) if outcome.showing is not None else {}
    if drawn:  # a variant card: the facts drawn for this showing decide the verdict
        st.markdown(f"**{escape_markdown(shell.t('variants.drawn_facts'))}**")
        st.markdown("\n".join(f"- {escape_markdown(line)}" for line in describe_facts(ruleset, drawn, lang)))
    st.markdown("\n".join(f"- {escape_markdown(e.get(lang))}" for e in verdict.explanations))
    if grade.penalty == "wrong" and chosen_penalty is not None:
        answer = when_penalty_applies(ruleset, verdict.infraction, chosen_penalty.id, lang)
        chosen_name = chosen_penalty.name.get(lang)
        if answer.conditions:
            st.markdown(f"**{escape_markdown(shell.t('feedback.when_chosen', penalty=chosen_name))}**")
            st.markdown("\n".join(f"- {escape_markdown(c)}" for c in answer.conditions))
        elif answer.other_infractions:
            st.markdown(f"**{escape_markdown(shell.t('feedback.given_for_others', penalty=chosen_name))}**")
            st.markdown("\n".join(f"- {escape_markdown(c)}" for c in answer.other_infractions))
        else:
            st.markdown(escape_markdown(shell.t("feedback.never_here", penalty=chosen_name)))
    if grade.missing_fixes:
        st.markdown(escape_markdown(shell.t("feedback.missing_fixes", fixes=_names(ruleset, grade.missing_fixes, lang))))
    if grade.extra_fixes:
        st.markdown(escape_markdown(shell.t("feedback.extra_fixes", fixes=_names(ruleset, grade.extra_fixes, lang))))

    st.markdown(f"#### {shell.t('feedback.document')}")
    for cited in verdict.citations:
        if cited.role in ("rule", "escalation", "upgrade"):
            citation(shell, cited)
    with st.expander(shell.t("feedback.more_lines")):
        for cited in verdict.citations:
            if cited.role not in ("rule", "escalation", "upgrade"):
                citation(shell, cited)
    source_line(shell, card)


def source_line(shell: Shell, card: ScenarioCard | KnowledgeCard) -> None:
    ruleset = shell.content.rulesets[card.ruleset]
    st.caption(shell.t("feedback.source"))
    citation(shell, CitedLine(ruleset.document.title.ja, "source", card.source.ja, card.source.en,
                              line_numbers(card.source.ja, ruleset.source_lines)))


def knowledge_feedback(shell: Shell, card: KnowledgeCard, outcome: KnowledgeOutcome) -> None:
    lang = shell.language
    answer = next(c for c in card.choices if c.id == card.answer)
    if outcome.grade.correct:
        st.success(shell.t("feedback.all_right"))
    else:
        st.error(shell.t("feedback.knowledge_wrong", answer=escape_markdown(answer.text.get(lang))))
    st.markdown(f"#### {shell.t('feedback.why')}")
    st.markdown(escape_markdown(card.explanation.get(lang)))
    source_line(shell, card)
