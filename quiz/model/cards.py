"""Models of card files: scenario cards (judged by the engine), knowledge cards, and
judgement calls (cases the document leaves to the head judge)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, model_validator

from quiz.model.errors import InvalidContentError
from quiz.model.parameters import FactEntry, Parameter, ParameterName
from quiz.model.rulesets import ID_MAX, Citation
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording

CardKind = Literal["scenario", "knowledge", "judgement_call"]
CARD_KINDS: tuple[CardKind, ...] = get_args(CardKind)
"""Every kind of card. Code that does something different per kind does it in one dispatch
module per stage (``quiz.content.card_kinds``, ``quiz.training.kinds``,
``quiz.report.card_words``, ``quiz.ui.card_views``), with ``match`` and ``assert_never``."""

CardId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=120)]


class Expect(StrictModel):
    """What the author expects the engine to decide; checked at validation."""

    penalty: str
    fixes: list[str] = Field(default_factory=list)
    infraction: str | None = None
    players: Literal["offender", "both"] | None = None


class CardBase(StrictModel):
    id: CardId
    ruleset: str
    title: Text
    tags: list[str] = Field(default_factory=list)
    difficulty: int = Field(default=1, ge=1, le=3)
    source: Citation
    retired: bool = Field(
        default=False, description="Kept for the history of its answers, never drawn again (practice, review, exams)"
    )


class FactFinding(StrictModel):
    """A fact the trainee must establish from the evidence of the situation.

    ``evidence`` says what in the situation shows the card's value of the fact (shown in the
    feedback under "what showed it"); ``arguable``, when given, says why a competent judge
    could establish it either way: the verdict under either value is then accepted.
    """

    evidence: Text
    arguable: Text | None = None


class ScenarioCard(CardBase):
    """A case the engine decides from the card's facts.

    A floor-style card (the default) shows evidence and asks its ``findings`` first; an
    exam-style card (``style: exam``) states its facts as a certification test does and asks
    no findings.
    """

    kind: Literal["scenario"]
    style: Literal["floor", "exam"] = "floor"
    situation: Text
    infraction: str
    findings: dict[str, FactFinding] = Field(
        default_factory=dict, description="Fact id -> its evidence: the facts the trainee must establish"
    )
    parameters: dict[ParameterName, Parameter] = Field(
        default_factory=dict,
        description="Values drawn afresh for each showing; {name} in the title and situation shows them",
    )
    facts: dict[str, FactEntry] = Field(
        default_factory=dict, description="Fact values: true/false, a number, or {param: name} for a drawn number"
    )
    expect: Expect | None = Field(
        default=None, description="The answer for every showing; leave it out when the answer depends on the values"
    )

    @model_validator(mode="after")
    def _findings_match_style(self) -> ScenarioCard:
        if self.style == "exam" and self.findings:
            raise InvalidContentError(Wording("problem.card.exam_with_findings"))
        if self.style == "floor" and not self.findings:
            raise InvalidContentError(Wording("problem.card.floor_without_findings"))
        return self

    @property
    def arguable(self) -> tuple[str, ...]:
        """The findings a competent judge could establish either way."""
        return tuple(fact for fact, finding in self.findings.items() if finding.arguable is not None)


class Choice(StrictModel):
    id: str = Field(pattern=r"^[a-z0-9_-]+$", max_length=ID_MAX)
    text: Text


class KnowledgeCard(CardBase):
    kind: Literal["knowledge"]
    question: Text
    choices: list[Choice] = Field(min_length=2)
    answer: str
    explanation: Text

    @model_validator(mode="after")
    def _answer_is_a_choice(self) -> KnowledgeCard:
        ids = [c.id for c in self.choices]
        if len(set(ids)) != len(ids):
            raise InvalidContentError(Wording("problem.card.duplicate_choice_ids"))
        if self.answer not in ids:
            raise InvalidContentError(Wording("problem.card.answer_not_a_choice", answer=repr(self.answer),
                                              choices=ids))
        return self


NO_LISTED_INFRACTION = "(none)"  # a judgement call's answer when no line of the document covers the case


class JudgementCallCard(CardBase):
    """A case the document does not decide: graded only on what it does decide.

    The trainee says which line of the document is nearest (``nearest``, an infraction id),
    or that no listed infraction covers the case (``nearest: null``). The feedback shows the
    nearest lines, the principle that leaves the rest to the head judge, and why.
    """

    kind: Literal["judgement_call"]
    situation: Text
    nearest: str | None = Field(description="The infraction whose line is nearest; null when no line covers the case")
    facts: dict[str, bool | int] = Field(
        default_factory=dict,
        description="With nearest: the facts under which the engine must refuse the case (checked at validation)",
    )
    principle: str = Field(description="The ruleset's principle that leaves the case to the head judge")
    explanation: Text


Card = Annotated[ScenarioCard | KnowledgeCard | JudgementCallCard, Field(discriminator="kind")]
AnyCard = ScenarioCard | KnowledgeCard | JudgementCallCard


class CardFile(StrictModel):
    """A card file: a list of cards (validated one by one by the loader)."""

    cards: list[Card]


def card_kind(raw: Any) -> str | None:
    return raw.get("kind") if isinstance(raw, dict) else None
