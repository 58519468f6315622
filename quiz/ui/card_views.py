"""The UI's dispatch over card kinds: a card's answer form, its feedback and a stored answer
in words, each a ``match`` that ``assert_never`` keeps exhaustive
(``quiz.model.cards.CARD_KINDS``); the drawing itself is in ``quiz.ui.widgets`` (forms) and
``quiz.ui.feedback_views``."""

from __future__ import annotations

from typing import assert_never

from quiz.model.attempt import AttemptRecord
from quiz.model.cards import (
    NO_LISTED_INFRACTION,
    AnyCard,
    FloorCallCard,
    JudgementCallCard,
    KnowledgeCard,
    ScenarioCard,
)
from quiz.training.answer_outcomes import KnowledgeOutcome, Outcome, ScenarioOutcome
from quiz.ui import feedback_views, investigation_view, widgets
from quiz.ui.markdown import escape_markdown
from quiz.ui.report_problem import report_problem
from quiz.ui.shell import Shell


def answer_form(shell: Shell, card: AnyCard, form_key: str, submit_label: str | None = None,
                exam_id: int | None = None) -> None:
    """The card's answer form; its submit button gives the answer (``form_answers.take_given``),
    in the form ``quiz.training.kinds.answer_card`` takes. A floor call is investigated
    first, its steps kept per exam (``exam_id``) or outside exams, and "Rule" opens the form."""
    match card:
        case ScenarioCard():
            widgets.scenario_form(shell, card, form_key, submit_label)
        case FloorCallCard():
            investigation_view.investigation(shell, card, form_key, submit_label, exam_id)
        case JudgementCallCard():
            widgets.judgement_form(shell, card, form_key, submit_label)
        case KnowledgeCard():
            widgets.knowledge_form(shell, card, form_key, submit_label)
        case _:
            assert_never(card)


def feedback(shell: Shell, card: AnyCard, outcome: Outcome, answered: bool | None = None) -> None:
    """The marks and explanations of an answered card, as on the practice page; a question
    left unanswered (in an exam, or "I don't know") is said to be so, with the standard answer
    and no marks. ``answered`` defaults to whether anything was chosen."""
    answered = not outcome.record.blank if answered is None else answered
    match card:
        case ScenarioCard():
            assert isinstance(outcome, ScenarioOutcome)
            feedback_views.scenario_feedback(shell, card, outcome, answered)
        case FloorCallCard():
            assert isinstance(outcome, ScenarioOutcome)
            feedback_views.scenario_feedback(
                shell, card, outcome, answered,
                before_details=lambda: investigation_view.debrief_section(shell, card, outcome.record.investigation))
        case JudgementCallCard():
            assert isinstance(outcome, KnowledgeOutcome)
            feedback_views.judgement_feedback(shell, card, outcome, answered)
        case KnowledgeCard():
            assert isinstance(outcome, KnowledgeOutcome)
            feedback_views.knowledge_feedback(shell, card, outcome, answered)
        case _:
            assert_never(card)
    report_problem(shell, card, outcome.record)


def answer_summary(shell: Shell, card: AnyCard, record: AttemptRecord) -> str:
    """A stored answer in words, as the trainee chose it (Markdown-escaped): a scenario's
    infraction, penalty, who receives it and fixes; a knowledge card's choice; a judgement
    call's nearest line."""
    lang = shell.language
    match card:
        case KnowledgeCard():
            texts = {c.id: c.text.get(lang) for c in card.choices}
            return escape_markdown(texts.get(record.chosen_choice or "", "—"))
        case JudgementCallCard():
            chosen = record.chosen_choice or ""
            names = {i.id: i.name.get(lang) for i in shell.content.rulesets[card.ruleset].infractions}
            return escape_markdown(shell.t("answer.no_listed_infraction") if chosen == NO_LISTED_INFRACTION
                                   else names.get(chosen, "—"))
        case ScenarioCard() | FloorCallCard():
            parts = feedback_views.scenario_answer_parts(shell, card, record)
            return " · ".join(escape_markdown(part) for part in parts)
        case _:
            assert_never(card)
