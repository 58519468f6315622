"""Grading a trainee's answer against the engine's verdict, a knowledge card's key, or the
nearest line of a judgement call."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Iterable, Mapping

from quiz.model.attempt import FindingRecord, PartResult
from quiz.model.cards import NO_LISTED_INFRACTION, JudgementCallCard, KnowledgeCard, RulingCard
from quiz.model.facts import FactValue
from quiz.model.rulesets import Ruleset
from quiz.model.verdict import Verdict


class Headline(StrEnum):
    """The feedback's first line (its words are ``feedback.<value>``)."""

    ALL_RIGHT = "all_right"
    ONE_WRONG = "one_wrong"
    SOME_WRONG = "some_wrong"
    ALL_WRONG = "all_wrong"


@dataclass(frozen=True, slots=True)
class ScenarioAnswer:
    """``players`` is who receives the penalty (offender or both), asked only on cards
    whose infraction can name both players; None when not asked."""

    infraction: str | None
    penalty: str | None
    fixes: tuple[str, ...] = ()
    players: str | None = None
    findings: tuple[tuple[str, FactValue], ...] = ()  # (fact, value found), on cards that ask findings
    steps: tuple[str, ...] = ()  # a floor call's steps taken before the ruling, in order

    @property
    def found(self) -> dict[str, FactValue]:
        """The trainee's findings as fact -> value."""
        return dict(self.findings)


@dataclass(frozen=True, slots=True)
class ScenarioGrade:
    infraction: PartResult
    penalty: PartResult
    fixes: PartResult
    penalty_steps: int | None
    missing_fixes: tuple[str, ...]
    extra_fixes: tuple[str, ...]
    players: PartResult | None = None  # None when the card did not ask who receives it
    findings: tuple[FindingRecord, ...] = ()
    penalty_follows_findings: bool | None = None  # see grade_findings_card
    own_penalty: str | None = None  # the penalty the engine gives for the trainee's own findings and infraction

    @property
    def correct(self) -> bool:
        """Every part right; a penalty the document allows at the judge's discretion counts."""
        return (self.infraction is PartResult.CORRECT and self.penalty.right and self.fixes is PartResult.CORRECT
                and self.players is not PartResult.WRONG and all(finding.right for finding in self.findings))

    @property
    def parts_right(self) -> int:
        """How many of the verdict's parts are right: the better of two readings of an answer."""
        return ((self.infraction is PartResult.CORRECT) + self.penalty.right + (self.fixes is PartResult.CORRECT)
                + (self.players is not PartResult.WRONG))

    @property
    def results(self) -> tuple[PartResult, ...]:
        """The parts the form asked, in its order: infraction, penalty, fixes, players if asked."""
        return (self.infraction, self.penalty, self.fixes) + ((self.players,) if self.players is not None else ())

    @property
    def headline(self) -> Headline:
        """The feedback's first line: "so close" only when a single part (or only findings) is
        wrong; two wrong parts of three are not close."""
        wrong = sum(not result.right for result in self.results)
        if self.correct:
            return Headline.ALL_RIGHT
        if wrong == len(self.results):
            return Headline.ALL_WRONG
        return Headline.ONE_WRONG if wrong <= 1 else Headline.SOME_WRONG


@dataclass(frozen=True, slots=True)
class KnowledgeGrade:
    chosen: str | None
    answer: str

    @property
    def correct(self) -> bool:
        return self.chosen == self.answer


def grade_scenario(ruleset: Ruleset, verdict: Verdict, answer: ScenarioAnswer) -> ScenarioGrade:
    """Mark each part: the infraction the engine settled on, the penalty, the fixes.

    The fixes are right when every required fix is chosen and nothing chosen is outside
    the required and optional fixes; an empty choice is right when no fix is required. A
    penalty the document leaves to the judge is accepted only for the right infraction: the
    discretion belongs to that infraction's rule.
    """
    infraction = PartResult.CORRECT if answer.infraction == verdict.infraction else PartResult.WRONG
    if answer.penalty == verdict.penalty:
        penalty = PartResult.CORRECT
    elif answer.penalty in verdict.accepted and infraction is PartResult.CORRECT:
        penalty = PartResult.ACCEPTED
    else:
        penalty = PartResult.WRONG
    steps = None
    ranks = {p.id: i for i, p in enumerate(ruleset.ladder)}
    if answer.penalty in ranks:
        steps = ranks[answer.penalty] - ranks[verdict.penalty]
    chosen = set(answer.fixes)
    missing = tuple(f for f in verdict.fixes if f not in chosen)
    allowed = set(verdict.fixes) | set(verdict.optional_fixes)
    extra = tuple(sorted(chosen - allowed))
    fixes = PartResult.CORRECT if not missing and not extra else PartResult.WRONG
    players: PartResult | None = None
    if answer.players is not None:
        players = PartResult.CORRECT if answer.players == verdict.players else PartResult.WRONG
    return ScenarioGrade(infraction, penalty, fixes, steps, missing, extra, players)


def grade_findings(card: RulingCard, facts: Mapping[str, FactValue],
                   found: Mapping[str, FactValue]) -> tuple[FindingRecord, ...]:
    """Each finding of the card against its value in ``facts`` (the card as shown); an
    arguable finding is right whatever was found, a finding left unanswered is wrong."""
    return tuple(
        FindingRecord(fact, found.get(fact), facts[fact],
                      right=finding.arguable is not None or found.get(fact) == facts[fact])
        for fact, finding in card.findings.items()
    )


def grade_findings_card(
    ruleset: Ruleset, verdict: Verdict, alternatives: Iterable[Verdict], answer: ScenarioAnswer,
    findings: tuple[FindingRecord, ...], own_reading: Verdict | None,
) -> ScenarioGrade:
    """Grade an answer to a card with findings (CONTENT.md revision 3).

    The answer is graded against the card's verdict and, where that leaves a part wrong,
    against ``alternatives`` (the verdicts under the other values of arguable findings),
    whose penalty then counts as accepted. ``own_reading`` is the engine's verdict for the
    trainee's own findings and infraction (None when the document decides no such case):
    a wrong penalty that it gives (or accepts), after a wrong finding, follows from what the
    trainee found; any other wrong penalty misapplies the document, except one given for the
    other player's act in the same story (the infraction's ``other_player``): that answer
    rules on the wrong player, and is neither.
    """
    grade = grade_scenario(ruleset, verdict, answer)
    for other in alternatives:
        candidate = grade_scenario(ruleset, other, answer)
        if candidate.parts_right > grade.parts_right:
            penalty = candidate.penalty
            if candidate.penalty is PartResult.CORRECT:  # the other reading's penalty, for the right infraction only
                penalty = PartResult.ACCEPTED if candidate.infraction is PartResult.CORRECT else PartResult.WRONG
            grade = replace(candidate, penalty=penalty, penalty_steps=grade.penalty_steps)
    follows = None
    story = ruleset.infraction(verdict.infraction)
    other_players_act = story is not None and answer.infraction in story.other_player
    if grade.penalty is PartResult.WRONG and not other_players_act:
        misjudged = any(not finding.right for finding in findings)
        follows = bool(misjudged and own_reading is not None and answer.penalty in own_reading.accepted)
    return replace(grade, findings=findings, penalty_follows_findings=follows,
                   own_penalty=own_reading.penalty if own_reading is not None else None)


def grade_knowledge(card: KnowledgeCard, chosen: str | None) -> KnowledgeGrade:
    return KnowledgeGrade(chosen=chosen, answer=card.answer)


def judgement_call_answers(card: JudgementCallCard) -> tuple[str, ...]:
    """Every right choice of a judgement call: each line a judge could lean on, or
    ``NO_LISTED_INFRACTION`` alone when no line comes near."""
    return card.nearest_lines or (NO_LISTED_INFRACTION,)


def judgement_call_answer(card: JudgementCallCard) -> str:
    """The right choice a judgement call is practised under: its first nearest line, or ``NO_LISTED_INFRACTION``."""
    return judgement_call_answers(card)[0]


def grade_judgement_call(card: JudgementCallCard, chosen: str | None) -> KnowledgeGrade:
    """Only what the document decides: which lines come near (or that none does). Any listed
    line is right; the answer kept is the line chosen when it is one of them, else the first."""
    answers = judgement_call_answers(card)
    return KnowledgeGrade(chosen=chosen, answer=chosen if chosen in answers and chosen is not None else answers[0])
