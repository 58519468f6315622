"""Grading one answer to a scenario card outside the app (``python -m quiz grade``), for
authors and outside checks: the same answer path as the pages, reported part by part."""

from __future__ import annotations

from typing import Any, Mapping

from quiz.content.loader import Content
from quiz.model.errors import FactError, StepError, UnknownIdError
from quiz.model.facts import coerce_value
from quiz.model.words import Wording
from quiz.rules.variants import DEFAULT_SEED, Value, drawn_facts, show_card
from quiz.training.answer_outcomes import ScenarioOutcome
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card, as_scenario


def grade_json(
    content: Content, card_id: str, findings: Mapping[str, str], infraction: str | None, penalty: str | None,
    fixes: tuple[str, ...] = (), players: str | None = None, steps: tuple[str, ...] = (),
    seed: int = DEFAULT_SEED,
) -> dict[str, Any]:
    """The grade of the answer as JSON-able data: each finding ``correct`` or ``wrong``, each
    part ``correct``, ``accepted`` (penalty) or ``wrong`` (``players`` null when the card does not
    ask it), and ``penalty_follows_findings`` (null when the penalty is right or the card has
    no findings). A floor call's ``steps`` (taken before the ruling, in order) add its
    ``investigation``: each finding's evidence ``gathered`` or ``missed``, the leading
    questions asked, the seconds used and the budget, and whether the players were separated
    (null when the call does not ask it). A variant card (one with ``parameters``) is graded
    as the showing ``seed`` draws (seed 0 by default, as a page without a seed shows it), and
    ``variant`` reports that showing: the seed, the values drawn (a number as itself, a text
    option as its ``ja``/``en`` texts) and the facts they gave.

    Raises:
        UnknownIdError: no such scenario card.
        FactError: a finding names a fact that is not one of the card's findings, or a value
            of the wrong type.
        StepError: a step the card does not have, one taken before a step it follows, or
            steps given for a card that is not a floor call.
    """
    card = as_scenario(content.cards.get(card_id))
    if card is None:
        raise UnknownIdError(Wording("problem.grade.no_scenario_card", card=repr(card_id)))
    specs = {spec.id: spec for spec in content.rulesets[card.ruleset].facts}
    found = []
    for fact, value in findings.items():
        if fact not in card.findings:
            raise FactError(Wording("problem.grade.not_a_finding", fact=repr(fact), card=card.id,
                                    findings=", ".join(card.findings) or "-"), fact)
        found.append((fact, coerce_value(specs[fact], value)))
    answer = ScenarioAnswer(infraction, penalty, fixes, players, tuple(found), steps)
    showing = show_card(card, seed)
    outcome = answer_card(content, GivenAnswer(card, answer, trainee_id=0, seconds=0.0, showing=showing))
    assert isinstance(outcome, ScenarioOutcome)
    investigation = outcome.record.investigation
    if steps and investigation is None:
        raise StepError(Wording("problem.grade.no_steps", card=card.id))
    grade = outcome.grade
    graded: dict[str, Any] = {
        "findings": {f.fact: "correct" if f.right else "wrong" for f in grade.findings},
        "infraction": grade.infraction,
        "penalty": grade.penalty,
        "fixes": grade.fixes,
        "players": grade.players,
        "penalty_follows_findings": grade.penalty_follows_findings,
        "correct": grade.correct,
    }
    if investigation is not None:
        graded["investigation"] = investigation.summary()
    if card.parameters:
        graded["variant"] = {
            "seed": seed,
            "values": {name: _value_json(value) for name, value in showing.values.items()},
            "facts": drawn_facts(card, showing),
        }
    return graded


def _value_json(value: Value) -> int | dict[str, str]:
    """A drawn value as JSON: a number as itself, a text option as its texts."""
    return value if isinstance(value, int) else {"ja": value.ja, "en": value.en}
