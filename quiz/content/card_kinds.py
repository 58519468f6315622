"""The content stage's dispatch over card kinds: what is checked of each kind, which
infraction a card is practised under, its verdict and how a preview names its answer, each a
``match`` that ``assert_never`` keeps exhaustive (``quiz.model.cards.CARD_KINDS``)."""

from __future__ import annotations

from typing import Iterable, TypeVar, assert_never

from quiz.content.card_checks import check_judgement_call, check_scenario
from quiz.content.floor_call_checks import floor_call_problems
from quiz.content.ruleset_checks import Finding, citation_problems
from quiz.model.cards import AnyCard, FloorCallCard, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.errors import unknown_id
from quiz.model.rulesets import Ruleset
from quiz.model.verdict import Verdict
from quiz.model.words import Wording
from quiz.rules.engine import judge
from quiz.rules.variants import seed_facts

NAME_JOINER = " / "  # between the names of a judgement call's accepted lines
Kind = TypeVar("Kind", ScenarioCard, FloorCallCard, KnowledgeCard, JudgementCallCard)


def cards_of(cards: Iterable[AnyCard], kind: type[Kind]) -> list[Kind]:
    """The cards of one kind, in order."""
    return [card for card in cards if isinstance(card, kind)]


def check_card(card: AnyCard, rulesets: dict[str, Ruleset], folder: str | None) -> list[Finding]:
    """Every problem of a structurally valid card, as (location, wording) pairs."""
    ruleset = rulesets.get(card.ruleset)
    if ruleset is None:
        return [(("ruleset",), unknown_id("ruleset", card.ruleset, rulesets))]
    found: list[Finding] = []
    if folder is not None and folder != card.ruleset and folder in rulesets:
        found.append((("ruleset",), Wording("problem.card.wrong_folder", ruleset=repr(card.ruleset),
                                            folder=repr(folder))))
    quoted = citation_problems(card.source, ruleset.quotes_source, ruleset.after_rules)
    found += [(("source", "ja"), wording) for wording in quoted]
    match card:
        case ScenarioCard():
            return found + check_scenario(card, ruleset)
        case FloorCallCard():
            found += check_scenario(card, ruleset)
            return found + floor_call_problems(card, ruleset) if ruleset.infraction(card.infraction) else found
        case JudgementCallCard():
            return found + check_judgement_call(card, ruleset)
        case KnowledgeCard():
            return found
        case _:
            assert_never(card)


def default_verdict(ruleset: Ruleset, card: AnyCard) -> Verdict | None:
    """The engine's verdict on a scenario card's default showing; None for other kinds."""
    match card:
        case ScenarioCard() | FloorCallCard():
            return judge(ruleset, card.infraction, seed_facts(card))
        case KnowledgeCard() | JudgementCallCard():
            return None
        case _:
            assert_never(card)


def practised_infraction(ruleset: Ruleset, card: AnyCard) -> str | None:
    """The infraction a card is practised under: a scenario's judged one, a judgement call's
    first nearest line; None for a knowledge card (and a judgement call that no line covers)."""
    match card:
        case ScenarioCard() | FloorCallCard():
            return judge(ruleset, card.infraction, seed_facts(card)).infraction
        case JudgementCallCard():
            return card.first_line
        case KnowledgeCard():
            return None
        case _:
            assert_never(card)


def preview_answer(card: AnyCard, ruleset: Ruleset | None, verdict: Verdict | None, language: str,
                   no_fix: str, no_listed: str, left_to_judge: str) -> tuple[str, str]:
    """(infraction, verdict) as a pack preview names a card's answer: a scenario's judged
    infraction and "penalty · fixes", a knowledge card's right answer, a judgement call's
    nearest infractions, every accepted one (``no_listed`` when none), and ``left_to_judge``."""
    match card:
        case KnowledgeCard():
            return "", next(c.text.get(language) for c in card.choices if c.id == card.answer)
        case JudgementCallCard():
            if not card.nearest_lines:
                return no_listed, left_to_judge
            names = []
            for line in card.nearest_lines:
                nearest = ruleset.infraction(line) if ruleset is not None else None
                names.append(nearest.name.get(language) if nearest is not None else line)
            return NAME_JOINER.join(names), left_to_judge
        case ScenarioCard() | FloorCallCard():
            return _scenario_answer(ruleset, verdict, language, no_fix)
        case _:
            assert_never(card)


def _scenario_answer(ruleset: Ruleset | None, verdict: Verdict | None, language: str, no_fix: str) -> tuple[str, str]:
    if verdict is None or ruleset is None:
        return "", ""
    infraction = ruleset.infraction(verdict.infraction)
    penalty = ruleset.penalty(verdict.penalty)
    fixes = [ruleset.fix(f) for f in verdict.fixes]
    fix_names = ", ".join(f.name.get(language) if f is not None else "?" for f in fixes) or no_fix
    return (
        infraction.name.get(language) if infraction is not None else verdict.infraction,
        f"{penalty.name.get(language) if penalty is not None else verdict.penalty} · {fix_names}",
    )
