"""Widgets shared by every page that shows cards, answers and verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import streamlit as st

from quiz.content.loader import Content
from quiz.model.attempt import PLAYERS, AttemptRecord
from quiz.model.cards import NO_LISTED_INFRACTION, AnyCard, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.errors import QuizError, UndecidedCaseError
from quiz.model.rulesets import Penalty, Ruleset
from quiz.model.text import Text
from quiz.model.verdict import CitedLine, Verdict
from quiz.rules.engine import compile_ruleset, judge, line_numbers
from quiz.rules.explain import applies_to_words, describe_facts, explain_penalty
from quiz.rules.variants import CardShowing, drawn_facts, seed_facts
from quiz.training.answering import KnowledgeOutcome, ScenarioOutcome, asks_players
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import FORM_PARTS, answer_from_form, shown_texts
from quiz.ui.findings_view import findings_feedback, findings_inputs, found_in_form, prefill_findings
from quiz.ui.markdown import escape_markdown, quote_block
from quiz.ui.shell import Shell

MARKS = {
    "correct": ":green[:material/check_circle:]",
    "accepted": ":orange[:material/check_circle:]",
    "wrong": ":red[:material/cancel:]",
}
DECISIVE_ROLES = ("rule", "escalation", "upgrade")  # the lines that decide a verdict, quoted first


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


def _infraction_names(ruleset: Ruleset, lang: str) -> dict[str, str]:
    """Infraction id -> "category › name", in the order of the ruleset's categories."""
    order = {c.id: i for i, c in enumerate(ruleset.categories)}
    infractions = sorted(ruleset.infractions, key=lambda i: order.get(i.category, 99))
    return {
        i.id: f"{ruleset.name_of('category', i.category, lang)} › {i.name.get(lang)}"
        for i in infractions
    }


def _players_name(shell: Shell, players: str | None) -> str:
    return shell.t(f"players.{players}") if players in PLAYERS else "—"


def prefill(form_key: str, record: AttemptRecord) -> None:
    """Put a stored answer into the answer form ``form_key`` the first time it is drawn in this
    session (later, the widgets keep what the trainee has chosen since)."""
    values = {"infraction": record.chosen_infraction, "penalty": record.chosen_penalty,
              "players": record.chosen_players, "fixes": list(record.chosen_fixes),
              "choice": record.chosen_choice, "nearest": record.chosen_choice}
    for part, value in values.items():
        st.session_state.setdefault(f"{form_key}-{part}", value)
    prefill_findings(form_key, record)


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


@dataclass(frozen=True, slots=True)
class Given:
    """An answer given to a card's form (``answer`` is None for a blank one: "I don't know")."""

    answer: ScenarioAnswer | str | None


GIVEN_KEY = "given_answer"  # form key -> the answer its submit button gave, for the run it started


def give(form_key: str, answer: ScenarioAnswer | str | None) -> None:
    """Keep ``answer`` as given to the form ``form_key``, for the run that follows (a callback)."""
    st.session_state[GIVEN_KEY] = {form_key: Given(answer)}


def answer_pending() -> bool:
    """Whether a click has given an answer that its run has yet to take (``take_given``)."""
    return GIVEN_KEY in st.session_state


def take_given(form_key: str) -> Given | None:
    """The answer given to the form ``form_key`` by the click that started this run, once.

    The form's submit button reads the answer in its callback, before the run: the run that
    grades it then need not draw the form again (under load, every element is server time).
    One answer is pending at most: taking drops one given to another form (a page left before
    its run could take it)."""
    pending = st.session_state.pop(GIVEN_KEY, None)
    given = pending.get(form_key) if isinstance(pending, dict) else None
    return given if isinstance(given, Given) else None


def _take_answer(content: Content, card: AnyCard, form_key: str) -> None:
    """The submit button's callback: the form's answer, once every part it asks is chosen
    (else nothing: the form is drawn again, with what is missing said under it)."""
    parts = {part: st.session_state.get(f"{form_key}-{part}") for part in FORM_PARTS}
    parts["findings"] = found_in_form(form_key)
    answer = answer_from_form(content, card, parts)
    if answer is not None:
        give(form_key, answer)


def check_button(shell: Shell, card: AnyCard, form_key: str, submit_label: str | None = None) -> bool:
    """The answer form's submit button (Check, or ``submit_label``); Ctrl+Enter (⌘+Enter) presses it.
    Check says, when the pointer rests on it, how to answer with the keyboard alone. Pressed
    with every part chosen, the answer is given (``take_given``) and the form is not drawn;
    so it returns True only when a part was missing."""
    return st.form_submit_button(submit_label or shell.t("answer.check"), type="primary", shortcut="Mod+Enter",
                                 help=None if submit_label else shell.t("answer.keyboard_help"),
                                 on_click=_take_answer, args=(shell.content, card, form_key))


def scenario_form(shell: Shell, card: ScenarioCard, form_key: str, submit_label: str | None = None) -> None:
    """The answer form: infraction, penalty, who receives it (on cards whose infraction can name
    both players) and fixes; "check" (or ``submit_label``) gives the answer (``take_given``).
    Each widget is keyed by the form, so a language switch (new labels) keeps the choices made."""
    ruleset = shell.content.rulesets[card.ruleset]
    lang = shell.language
    names = _infraction_names(ruleset, lang)
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
                format_func=lambda who: _players_name(shell, who), horizontal=True,
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
        **_infraction_names(ruleset, shell.language),
        NO_LISTED_INFRACTION: shell.t("answer.no_listed_infraction"),
    }
    with st.form(form_key):
        st.selectbox(
            shell.t("answer.nearest"), list(labels), index=None, format_func=labels.__getitem__,
            placeholder=shell.t("answer.pick_infraction"), key=keep_choice(f"{form_key}-nearest", list(labels)),
        )
        missing = check_button(shell, card, form_key, submit_label)
    if missing:
        st.warning(shell.t("answer.incomplete_choice"))


def _names(ruleset: Ruleset, fixes: tuple[str, ...] | list[str], lang: str) -> str:
    return ", ".join(ruleset.name_of("fix", f, lang) for f in fixes)


def citation(shell: Shell, cited: CitedLine) -> None:
    """A quoted line of the document: the Japanese original and its English rendering."""
    st.markdown(f"{quote_block(cited.ja)}\n\n*{escape_markdown(_where(shell, cited.document, cited.lines))}*")
    if shell.language != "ja":
        st.caption("  \n".join(escape_markdown(line) for line in cited.en.split("\n")))


def _where(shell: Shell, document: str, lines: tuple[int, ...]) -> str:
    """"Document, line 12" (or lines 12–14)."""
    key = "feedback.line" if len(set(lines)) == 1 else "feedback.lines"
    return shell.t(key, document=document, lines=_line_span(lines))


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


def _parts(cited: CitedLine) -> list[str]:
    return [part.strip() for part in cited.ja.split("\n") if part.strip()]


@dataclass
class Quotes:
    """The passages one feedback quotes, planned before any is shown so that no line of the
    document is quoted twice (compared by text, line by line): a passage whose every line is
    quoted already is left out, and a passage holding every line of an earlier one is quoted
    in that one's place instead.

    Add passages with ``add(section, cited)`` in the order they are shown; ``section(name)``
    then gives that section's passages to quote, and ``covers(cited)`` whether the lines of a
    passage are all quoted.
    """

    slots: list[tuple[str, CitedLine | None]] = field(default_factory=list)

    def covers(self, cited: CitedLine) -> bool:
        quoted = [part for _, c in self.slots if c is not None for part in _parts(c)]
        return all(any(part in other for other in quoted) for part in _parts(cited))

    def add(self, section: str, cited: CitedLine) -> None:
        if self.covers(cited):
            self.slots.append((section, None))
            return
        inside = [i for i, (_, c) in enumerate(self.slots)
                  if c is not None and all(any(part in mine for mine in _parts(cited)) for part in _parts(c))]
        if inside:  # earlier, shorter passages: the longer one takes the first one's place
            first, *rest = inside
            self.slots[first] = (self.slots[first][0], cited)
            for index in rest:
                self.slots[index] = (self.slots[index][0], None)
            self.slots.append((section, None))
            return
        self.slots.append((section, cited))

    def section(self, name: str) -> list[CitedLine]:
        return [c for s, c in self.slots if s == name and c is not None]


def _source(card: AnyCard, ruleset: Ruleset) -> CitedLine:
    return CitedLine(ruleset.document.title.ja, "source", card.source.ja, card.source.en,
                     line_numbers(card.source.ja, ruleset.source_lines))


def source_line(shell: Shell, card: AnyCard, quotes: Quotes | None = None) -> None:
    """The line the card was drawn from; named only when the feedback quotes it already."""
    cited = _source(card, shell.content.rulesets[card.ruleset])
    if quotes is not None and quotes.covers(cited) and cited not in quotes.section("source"):
        st.caption(escape_markdown(shell.t("feedback.source_quoted", where=_where(shell, cited.document, cited.lines))))
        return
    st.caption(shell.t("feedback.source"))
    citation(shell, cited)


def scenario_feedback(shell: Shell, card: ScenarioCard, outcome: ScenarioOutcome, answered: bool = True) -> None:
    """Marks per part, the standard answer, why, the decisive lines, and what would change it.

    A question left unanswered (an exam's) is said to be so, with no part marked.
    """
    ruleset = shell.content.rulesets[card.ruleset]
    lang, verdict, grade, record = shell.language, outcome.verdict, outcome.grade, outcome.record
    results = [grade.infraction, grade.penalty, grade.fixes] + ([grade.players] if grade.players is not None else [])
    if not answered:
        st.error(shell.t("feedback.not_answered"))
    elif grade.correct:
        st.success(shell.t("feedback.all_right"))
    elif all(result == "wrong" for result in results):
        st.error(shell.t("feedback.all_wrong"))
    else:
        st.error(shell.t("feedback.some_wrong"))
    chosen_infraction = ruleset.infraction(record.chosen_infraction or "")
    chosen_penalty = ruleset.penalty(record.chosen_penalty or "")
    parts = [
        ("answer.infraction", grade.infraction, chosen_infraction.name.get(lang) if chosen_infraction else "—"),
        ("answer.penalty", grade.penalty, chosen_penalty.name.get(lang) if chosen_penalty else "—"),
    ]
    if grade.players is not None:  # the card asked who receives it
        parts.append(("feedback.players", grade.players, _players_name(shell, record.chosen_players)))
    parts.append(("answer.fixes", grade.fixes, _names(ruleset, record.chosen_fixes, lang) or shell.t("answer.no_fix")))
    for col, (label, result, chosen) in zip(st.columns(len(parts)) if answered else (), parts):
        with col:
            st.markdown(f"{MARKS[result]} **{shell.t(label)}** · {shell.t('mark.' + result)}")
            st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))
    if answered and grade.penalty == "accepted":
        st.info(shell.t("feedback.accepted", penalty=chosen_penalty.name.get(lang) if chosen_penalty else ""))

    findings_feedback(shell, card, outcome, answered)
    _standard_answer(shell, ruleset, verdict, asked_players=grade.players is not None)

    st.markdown(f"#### {shell.t('feedback.why')}")
    drawn = drawn_facts(card, outcome.showing) if outcome.showing is not None else {}
    if drawn:  # a variant card: the facts drawn for this showing decide the verdict
        st.markdown(f"**{escape_markdown(shell.t('variants.drawn_facts'))}**")
        st.markdown("\n".join(f"- {escape_markdown(line)}" for line in describe_facts(ruleset, drawn, lang)))
    st.markdown("\n".join(f"- {escape_markdown(e.get(lang))}" for e in verdict.explanations))
    if grade.penalty == "wrong" and chosen_penalty is not None:
        facts = outcome.showing.facts if outcome.showing is not None else seed_facts(card)
        _when_right(shell, ruleset, card.infraction, verdict, chosen_penalty, facts)
    if answered and grade.missing_fixes:
        st.markdown(
            escape_markdown(shell.t("feedback.missing_fixes", fixes=_names(ruleset, grade.missing_fixes, lang)))
        )
    if answered and grade.extra_fixes:
        st.markdown(escape_markdown(shell.t("feedback.extra_fixes", fixes=_names(ruleset, grade.extra_fixes, lang))))

    quotes = Quotes()
    for cited in verdict.citations:
        quotes.add("decisive" if cited.role in DECISIVE_ROLES else "more", cited)
    quotes.add("source", _source(card, ruleset))
    st.markdown(f"#### {shell.t('feedback.document')}")
    for cited in quotes.section("decisive"):
        citation(shell, cited)
    more = quotes.section("more")
    if more:
        with st.expander(shell.t("feedback.more_lines")):
            for cited in more:
                citation(shell, cited)
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
        lines.append(f"- **{shell.t('feedback.players')}**: {_players_name(shell, verdict.players)}")
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
    lang = shell.language
    answer = next(c for c in card.choices if c.id == card.answer)
    if not answered:
        st.error(shell.t("feedback.knowledge_not_answered", answer=escape_markdown(answer.text.get(lang))))
    elif outcome.grade.correct:
        st.success(shell.t("feedback.all_right"))
    else:
        st.error(shell.t("feedback.knowledge_wrong", answer=escape_markdown(answer.text.get(lang))))
    if answered:
        chosen = next((c.text.get(lang) for c in card.choices if c.id == outcome.record.chosen_choice), "—")
        st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))
    st.markdown(f"#### {shell.t('feedback.why')}")
    st.markdown(escape_markdown(card.explanation.get(lang)))
    source_line(shell, card)


def judgement_feedback(shell: Shell, card: JudgementCallCard, outcome: KnowledgeOutcome, answered: bool = True) -> None:
    """A judgement call answered: right or wrong on the nearest line (all the document
    decides), why the rest is left to the head judge, the nearest lines and the principle."""
    ruleset = shell.content.rulesets[card.ruleset]
    lang, grade = shell.language, outcome.grade
    names = {i.id: i.name.get(lang) for i in ruleset.infractions}
    nearest = names.get(card.nearest or "", card.nearest or "")
    if not answered:
        st.error(shell.t("feedback.not_answered"))
    elif grade.correct:
        st.success(shell.t("feedback.judgement_right" if card.nearest else "feedback.judgement_right_none"))
    elif card.nearest:
        st.error(shell.t("feedback.judgement_wrong", answer=escape_markdown(nearest)))
    else:
        st.error(shell.t("feedback.judgement_wrong_none"))
    st.info(shell.t("feedback.left_to_judge"), icon=":material/gavel:")
    chosen = shell.t("answer.no_listed_infraction") if grade.chosen == NO_LISTED_INFRACTION else names.get(
        grade.chosen or "", "—")
    result = "correct" if grade.correct else "wrong"
    if answered:
        st.markdown(f"{MARKS[result]} **{shell.t('feedback.nearest')}** · {shell.t('mark.' + result)}")
        st.caption(shell.t("feedback.your_answer") + ": " + escape_markdown(chosen))

    st.markdown(f"#### {shell.t('feedback.why')}")
    st.markdown(escape_markdown(card.explanation.get(lang)))
    refusal = _refusal(ruleset, card)
    if refusal is not None:
        where = _where(shell, ruleset.document.title.ja, tuple(refusal.lines))
        reason = refusal.reason.get(lang) if isinstance(refusal.reason, Text) else str(refusal.reason)
        st.markdown(f"**{escape_markdown(shell.t('feedback.undecided', where=where))}** {escape_markdown(reason)}")
    principle = next((p for p in ruleset.principles if p.id == card.principle), None)
    if principle is not None:
        st.markdown(
            f"**{escape_markdown(shell.t('feedback.principle'))}**: {escape_markdown(principle.text.get(lang))}"
        )

    quotes = Quotes()
    if card.nearest is not None and card.nearest in compile_ruleset(ruleset).infractions:
        for rule in compile_ruleset(ruleset).infractions[card.nearest][1]:
            quotes.add("nearest", rule.cited)
    if principle is not None:
        quotes.add("principle", CitedLine(ruleset.document.title.ja, "principle", principle.citation.ja,
                                          principle.citation.en,
                                          line_numbers(principle.citation.ja, ruleset.source_lines)))
    quotes.add("source", _source(card, ruleset))
    st.markdown(f"#### {shell.t('feedback.document')}")
    if quotes.section("nearest"):
        st.markdown(f"**{escape_markdown(shell.t('feedback.nearest_lines', infraction=nearest))}**")
        for cited in quotes.section("nearest"):
            citation(shell, cited)
    if quotes.section("principle"):
        st.markdown(f"**{escape_markdown(shell.t('feedback.principle'))}**")
        for cited in quotes.section("principle"):
            citation(shell, cited)
    source_line(shell, card, quotes)


def _refusal(ruleset: Ruleset, card: JudgementCallCard) -> UndecidedCaseError | None:
    """The engine's refusal of the card's facts under its nearest infraction (None without facts)."""
    if card.nearest is None or not card.facts:
        return None
    try:
        judge(ruleset, card.nearest, card.facts)
    except UndecidedCaseError as refused:
        return refused
    except QuizError:
        return None
    return None


def scenario_answer_parts(shell: Shell, card: ScenarioCard, record: AttemptRecord) -> list[str]:
    """A stored answer to a scenario card as words: infraction, penalty, who receives it (when
    asked) and fixes."""
    lang = shell.language
    ruleset = shell.content.rulesets[card.ruleset]
    infraction = ruleset.infraction(record.chosen_infraction or "")
    penalty = ruleset.penalty(record.chosen_penalty or "")
    parts = [infraction.name.get(lang) if infraction else "—", penalty.name.get(lang) if penalty else "—"]
    if record.chosen_players:
        parts.append(_players_name(shell, record.chosen_players))
    parts.append(_names(ruleset, record.chosen_fixes, lang) or shell.t("answer.no_fix"))
    return parts
