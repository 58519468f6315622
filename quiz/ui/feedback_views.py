"""The feedback of an answered card: the verdict and one line of why (``quiz.report.why_line``)
lead; the rest (the lines of the document that decide it, the marks, the standard answer, the
explanations and the other lines) is folded in one expander below them (on a phone the
whole feedback was about 2.4 screens), drawn once opened (``quiz.ui.folds``). Which lines are quoted, each once,
is planned by ``quiz.report.citations``."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import streamlit as st

from quiz.model.attempt import AttemptRecord, PartResult
from quiz.model.cards import NO_LISTED_INFRACTION, AnyCard, JudgementCallCard, KnowledgeCard, RuledCard
from quiz.model.rulesets import Penalty, Ruleset
from quiz.model.text import Text
from quiz.model.verdict import CitedLine, Verdict
from quiz.report.citations import (
    Quotes,
    judgement_quotes,
    nearest_part,
    principle_of,
    refusal,
    scenario_quotes,
    source_citation,
    where_cited,
)
from quiz.report.why_line import judgement_why, knowledge_why, scenario_why
from quiz.rules.explain import applies_to_words, describe_facts, explain_penalty
from quiz.rules.variants import drawn_facts, seed_facts
from quiz.training.answer_outcomes import KnowledgeOutcome, ScenarioOutcome
from quiz.training.grading import Headline
from quiz.ui.findings_view import findings_feedback
from quiz.ui.folds import answer_key, fold
from quiz.ui.markdown import escape_markdown, quote_block
from quiz.ui.shell import Shell
from quiz.ui.streamlit_internals.objects import Container
from quiz.ui.widgets import players_name

MARKS = {
    PartResult.CORRECT: ":green[:material/check_circle:]",
    PartResult.ACCEPTED: ":orange[:material/check_circle:]",
    PartResult.WRONG: ":red[:material/cancel:]",
}


def _names(ruleset: Ruleset, fixes: tuple[str, ...] | list[str], lang: str) -> str:
    return ", ".join(ruleset.name_of("fix", f, lang) for f in fixes)


def citation(shell: Shell, ruleset: Ruleset, cited: CitedLine) -> None:
    """A quoted line of the document: the Japanese original, where it stands (section and
    item, ``where_cited``) and its English rendering."""
    where = where_cited(ruleset, cited.lines, shell.language)
    st.markdown(f"{quote_block(cited.ja)}\n\n*{escape_markdown(where)}*")
    if shell.language != "ja":
        st.caption("  \n".join(escape_markdown(line) for line in cited.en.split("\n")))


def source_line(shell: Shell, card: AnyCard, quotes: Quotes | None = None) -> None:
    """The line the card was drawn from; named only when the feedback quotes it already."""
    ruleset = shell.content.rulesets[card.ruleset]
    cited = source_citation(card, ruleset)
    if quotes is not None and quotes.covers(cited) and cited not in quotes.section("source"):
        where = where_cited(ruleset, cited.lines, shell.language)
        st.caption(escape_markdown(shell.t("feedback.source_quoted", where=where)))
        return
    st.caption(shell.t("feedback.source"))
    citation(shell, ruleset, cited)


def details_key(card: AnyCard, record: AttemptRecord) -> str:
    """The key of the details fold of the answer ``record`` to ``card``."""
    return f"details-{answer_key(card, record)}"


def lead(shell: Shell, card: AnyCard, record: AttemptRecord, why: str,
         before_details: Callable[[], None] | None = None) -> Container | None:
    """The one line of why under the verdict, and the fold (closed) that the rest of the
    feedback is drawn into once opened (``folds.fold``: None while closed): every card kind's
    feedback has this shape. ``before_details`` draws what is shown between them (a floor
    call's debrief of its investigation)."""
    st.markdown(f":material/lightbulb: {escape_markdown(why)}")
    if before_details is not None:
        before_details()
    return fold(shell.t("feedback.details"), details_key(card, record), icon=":material/menu_book:")


def scenario_feedback(shell: Shell, card: RuledCard, outcome: ScenarioOutcome, answered: bool = True,
                      before_details: Callable[[], None] | None = None) -> None:
    """The verdict and why in a line (then ``before_details``: a floor call's debrief); folded:
    the deciding lines, marks per part, the findings, the standard answer, why, what would
    change it and the other lines.

    A question left unanswered (an exam's) is said to be so, with no part marked.
    """
    ruleset = shell.content.rulesets[card.ruleset]
    lang, verdict, grade, record = shell.language, outcome.verdict, outcome.grade, outcome.record
    if not answered:
        st.error(shell.t("feedback.not_answered"))
    elif grade.headline is Headline.ALL_RIGHT:
        st.success(shell.t("feedback.all_right"))
    else:  # a wrong answer is one box, whatever its words ("so close" for one part only)
        right = sum(result.right for result in grade.results)
        st.error(shell.t(f"feedback.{grade.headline}", right=right, total=len(grade.results)))
    details = lead(shell, card, record, scenario_why(ruleset, verdict, grade, record, answered, lang), before_details)
    if details is None:
        return
    with details:
        quotes = scenario_quotes(card, ruleset, verdict)
        _deciding_lines(shell, ruleset, quotes.section("decisive"))
        chosen_penalty = ruleset.penalty(record.chosen_penalty or "")
        if answered:
            _scenario_marks(shell, ruleset, outcome)
        findings_feedback(shell, card, outcome, answered)
        _standard_answer(shell, ruleset, verdict, asked_players=grade.players is not None)

        st.markdown(f"#### {shell.t('feedback.why')}")
        drawn = drawn_facts(card, outcome.showing) if outcome.showing is not None else {}
        if drawn:  # a variant card: the facts drawn for this showing decide the verdict
            st.markdown(f"**{escape_markdown(shell.t('variants.drawn_facts'))}**")
            st.markdown("\n".join(f"- {escape_markdown(line)}" for line in describe_facts(ruleset, drawn, lang)))
        st.markdown("\n".join(f"- {escape_markdown(e.get(lang))}" for e in verdict.explanations))
        if grade.penalty is PartResult.WRONG and chosen_penalty is not None:
            facts = outcome.showing.facts if outcome.showing is not None else seed_facts(card)
            _when_right(shell, ruleset, card.infraction, verdict, chosen_penalty, facts)
        if answered and grade.missing_fixes:
            st.markdown(
                escape_markdown(shell.t("feedback.missing_fixes", fixes=_names(ruleset, grade.missing_fixes, lang)))
            )
        if answered and grade.extra_fixes:
            st.markdown(
                escape_markdown(shell.t("feedback.extra_fixes", fixes=_names(ruleset, grade.extra_fixes, lang)))
            )
        _more_lines(shell, card, ruleset, quotes)


def _scenario_marks(shell: Shell, ruleset: Ruleset, outcome: ScenarioOutcome) -> None:
    """Each part of an answer marked, with what was chosen; a penalty the judge may give, said so."""
    lang, grade, record = shell.language, outcome.grade, outcome.record
    chosen_infraction = ruleset.infraction(record.chosen_infraction or "")
    chosen_penalty = ruleset.penalty(record.chosen_penalty or "")
    parts = [
        ("answer.infraction", grade.infraction, chosen_infraction.name.get(lang) if chosen_infraction else "—"),
        ("answer.penalty", grade.penalty, chosen_penalty.name.get(lang) if chosen_penalty else "—"),
    ]
    if grade.players is not None:  # the card asked who receives it
        parts.append(("feedback.players", grade.players, players_name(shell, record.chosen_players)))
    parts.append(("answer.fixes", grade.fixes, _names(ruleset, record.chosen_fixes, lang) or shell.t("answer.no_fix")))
    for col, (label, result, chosen) in zip(st.columns(len(parts)), parts):
        with col:
            st.markdown(f"{MARKS[result]} **{shell.t(label)}** · {shell.t('mark.' + result)}")
            st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))
    if grade.penalty is PartResult.ACCEPTED:
        st.info(shell.t("feedback.accepted", penalty=chosen_penalty.name.get(lang) if chosen_penalty else ""))


def _deciding_lines(shell: Shell, ruleset: Ruleset, decisive: list[CitedLine]) -> None:
    """The lines of the document that decide the verdict, first in the details: one tap from
    the line of why that names where they stand."""
    st.markdown(f"#### {shell.t('feedback.document')}")
    for cited in decisive:
        citation(shell, ruleset, cited)


def _more_lines(shell: Shell, card: RuledCard, ruleset: Ruleset, quotes: Quotes) -> None:
    """The verdict's other lines (the penalty, its fixes and scope) behind an expander, and
    the card's source line."""
    more = quotes.section("more")
    if more:
        with st.expander(shell.t("feedback.more_lines")):
            for cited in more:
                citation(shell, ruleset, cited)
    source_line(shell, card, quotes)


def _standard_answer(shell: Shell, ruleset: Ruleset, verdict: Verdict, asked_players: bool) -> None:
    """The verdict as an answer: infraction, penalty, who receives it, required and optional
    fixes, the penalties accepted at the judge's discretion, and where it applies."""
    lang = shell.language
    infraction_name = ruleset.name_of("infraction", verdict.infraction, lang)
    penalty_name = ruleset.name_of("penalty", verdict.penalty, lang)
    st.markdown(f"#### {shell.t('feedback.standard')}")
    lines = [
        f"- **{shell.t('answer.infraction')}**: {escape_markdown(infraction_name)}",
        f"- **{shell.t('answer.penalty')}**: {escape_markdown(penalty_name)}",
    ]
    if asked_players or verdict.players == "both":
        lines.append(f"- **{shell.t('feedback.players')}**: {players_name(shell, verdict.players)}")
    required = _names(ruleset, verdict.fixes, lang) or shell.t("answer.no_fix")
    lines.append(f"- **{shell.t('feedback.required_fixes')}**: {escape_markdown(required)}")
    if verdict.optional_fixes:
        optional = _names(ruleset, verdict.optional_fixes, lang)
        lines.append(f"- **{shell.t('feedback.optional_fixes')}**: {escape_markdown(optional)}")
    if len(verdict.accepted) > 1:
        also = ", ".join(ruleset.name_of("penalty", p, lang) for p in verdict.accepted[1:])
        lines.append(f"- **{shell.t('feedback.also_accepted')}**: {escape_markdown(also)}")
    lines.append(f"- **{shell.t('feedback.applies_to')}**: {applies_to_words(verdict, lang)}")
    st.markdown("\n".join(lines))
    if verdict.players == "both":
        st.info(shell.t("feedback.both_receive"), icon=":material/group:")


def _when_right(
    shell: Shell, ruleset: Ruleset, infraction: str, verdict: Verdict, chosen: Penalty, facts: Mapping[str, Any]
) -> None:
    """When the penalty the trainee chose would have been right, as the engine says
    (``quiz.rules.explain.explain_penalty``): the facts that would have to differ, or the
    infractions that carry it when no facts make it right here."""
    lang = shell.language
    name = chosen.name.get(lang)
    explained = explain_penalty(ruleset, infraction, chosen.id, facts, lang)
    if explained.possible:
        if not explained.changes:  # right as the card stands: nothing to explain
            return
        key = "feedback.would_be_right" if explained.standard else "feedback.would_be_accepted"
        st.markdown(f"**{escape_markdown(shell.t(key, penalty=name))}**")
        st.markdown("\n".join(f"- {escape_markdown(change)}" for change in explained.changes))
        if explained.discretion:  # what lets the judge give it, and how far this app reads that range
            st.markdown("\n\n".join(escape_markdown(reason) for reason in explained.discretion))
        if explained.judged_as is not None and explained.judged_as != verdict.infraction:
            other = ruleset.infraction(explained.judged_as)
            judged = other.name.get(lang) if other is not None else explained.judged_as
            st.markdown(escape_markdown(shell.t("feedback.judged_as", infraction=judged)))
    elif explained.other_infractions:
        st.markdown(f"**{escape_markdown(shell.t('feedback.never_right', penalty=name))}**")
        st.markdown("\n".join(f"- {escape_markdown(other)}" for other in explained.other_infractions))
    else:
        st.markdown(escape_markdown(shell.t("feedback.never_here", penalty=name)))


def knowledge_feedback(shell: Shell, card: KnowledgeCard, outcome: KnowledgeOutcome, answered: bool = True) -> None:
    """The verdict (with the answer) and why in a line; folded: the source line, the choice
    made and the explanation."""
    lang = shell.language
    answer = next(c for c in card.choices if c.id == card.answer)
    if not answered:
        st.error(shell.t("feedback.knowledge_not_answered", answer=escape_markdown(answer.text.get(lang))))
    elif outcome.grade.correct:
        st.success(shell.t("feedback.all_right"))
    else:
        st.error(shell.t("feedback.knowledge_wrong", answer=escape_markdown(answer.text.get(lang))))
    details = lead(shell, card, outcome.record, knowledge_why(card, shell.content.rulesets[card.ruleset], lang))
    if details is None:
        return
    with details:
        source_line(shell, card)
        if answered:
            chosen = next((c.text.get(lang) for c in card.choices if c.id == outcome.record.chosen_choice), "—")
            st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))
        st.markdown(f"#### {shell.t('feedback.why')}")
        st.markdown(escape_markdown(card.explanation.get(lang)))


def judgement_feedback(shell: Shell, card: JudgementCallCard, outcome: KnowledgeOutcome, answered: bool = True) -> None:
    """A judgement call answered: right or wrong on the nearest lines (all the document
    decides; any line a judge could lean on is right, and a wrong answer is shown every one of
    them) and why in a line; folded: each nearest line's quotes and the principle, the mark, why
    the rest is left to the head judge, and the source line."""
    ruleset = shell.content.rulesets[card.ruleset]
    lang, grade = shell.language, outcome.grade
    names = {i.id: i.name.get(lang) for i in ruleset.infractions}
    lines = card.nearest_lines
    several = len(lines) > 1
    nearest = "」「".join(names.get(line, line) for line in lines) if lang == "ja" else "; ".join(
        names.get(line, line) for line in lines)
    if not answered:
        st.error(shell.t("feedback.not_answered"))
    elif grade.correct:
        st.success(shell.t("feedback.judgement_right_several" if several else "feedback.judgement_right" if lines
                           else "feedback.judgement_right_none"))
    elif lines:
        st.error(shell.t("feedback.judgement_wrong_several" if several else "feedback.judgement_wrong",
                         answer=escape_markdown(nearest)))
    else:
        st.error(shell.t("feedback.judgement_wrong_none"))
    details = lead(shell, card, outcome.record, judgement_why(card, lang))
    if details is None:
        return
    with details:
        quotes = judgement_quotes(card, ruleset)
        st.markdown(f"#### {shell.t('feedback.document')}")
        for line in lines:
            if quotes.section(nearest_part(line)):
                heading = shell.t("feedback.nearest_lines", infraction=names.get(line, line))
                st.markdown(f"**{escape_markdown(heading)}**")
                for cited in quotes.section(nearest_part(line)):
                    citation(shell, ruleset, cited)
        if quotes.section("principle"):
            st.markdown(f"**{escape_markdown(shell.t('feedback.principle'))}**")
            for cited in quotes.section("principle"):
                citation(shell, ruleset, cited)
        st.info(shell.t("feedback.left_to_judge"), icon=":material/gavel:")
        if answered:
            chosen = shell.t("answer.no_listed_infraction") if grade.chosen == NO_LISTED_INFRACTION else names.get(
                grade.chosen or "", "—")
            result = PartResult.CORRECT if grade.correct else PartResult.WRONG
            st.markdown(f"{MARKS[result]} **{shell.t('feedback.nearest')}** · {shell.t('mark.' + result)}")
            st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))

        st.markdown(f"#### {shell.t('feedback.why')}")
        st.markdown(escape_markdown(card.explanation.get(lang)))
        refused = refusal(card, ruleset)
        if refused is not None:
            where = where_cited(ruleset, tuple(refused.lines), lang)
            reason = refused.reason.get(lang) if isinstance(refused.reason, Text) else str(refused.reason)
            st.markdown(f"**{escape_markdown(shell.t('feedback.undecided', where=where))}** {escape_markdown(reason)}")
        principle = principle_of(card, ruleset)
        if principle is not None:
            st.markdown(
                f"**{escape_markdown(shell.t('feedback.principle'))}**: {escape_markdown(principle.text.get(lang))}"
            )
        source_line(shell, card, quotes)


def scenario_answer_parts(shell: Shell, card: RuledCard, record: AttemptRecord) -> list[str]:
    """A stored answer to a scenario card as words: infraction, penalty, who receives it (when
    asked) and fixes."""
    lang = shell.language
    ruleset = shell.content.rulesets[card.ruleset]
    infraction = ruleset.infraction(record.chosen_infraction or "")
    penalty = ruleset.penalty(record.chosen_penalty or "")
    parts = [infraction.name.get(lang) if infraction else "—", penalty.name.get(lang) if penalty else "—"]
    if record.chosen_players:
        parts.append(players_name(shell, record.chosen_players))
    parts.append(_names(ruleset, record.chosen_fixes, lang) or shell.t("answer.no_fix"))
    return parts
