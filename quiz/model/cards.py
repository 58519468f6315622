"""Models of card files: scenario cards (judged by the engine), floor calls (a scenario the
trainee investigates before ruling), knowledge cards, and judgement calls (cases the
document leaves to the head judge)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import Field, model_validator

from quiz.model.errors import InvalidContentError
from quiz.model.parameters import FactEntry, Parameter, ParameterName
from quiz.model.rulesets import ID_MAX, Citation
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording

CardKind = Literal["scenario", "floor_call", "knowledge", "judgement_call"]
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


class RulingCard(CardBase):
    """What every card ruled by the engine holds: the infraction, the facts the engine reads,
    the findings the trainee must establish, and the author's expected answer."""

    OPENING: ClassVar[str] = "situation"  # the YAML key the opening text is written under

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

    @property
    def arguable(self) -> tuple[str, ...]:
        """The findings a competent judge could establish either way."""
        return tuple(fact for fact, finding in self.findings.items() if finding.arguable is not None)

    @property
    def accounts_disagree(self) -> bool:
        """Two accounts (or an account and what the judge sees) disagree on something that
        decides a finding: the card's tag says so."""
        return ACCOUNTS_DISAGREE in self.tags

    @property
    def investigated(self) -> bool:
        """The trainee gathers the evidence by asking and checking (a floor call)."""
        return False


ACCOUNTS_DISAGREE = "accounts-disagree"  # the tag of a card whose accounts disagree on a finding


class ScenarioCard(RulingCard):
    """A case the engine decides from the card's facts.

    A floor-style card (the default) shows evidence and asks its ``findings`` first; an
    exam-style card (``style: exam``) states its facts as a certification test does and asks
    no findings.
    """

    kind: Literal["scenario"]
    style: Literal["floor", "exam"] = "floor"

    @model_validator(mode="after")
    def _findings_match_style(self) -> ScenarioCard:
        if self.style == "exam" and self.findings:
            raise InvalidContentError(Wording("problem.card.exam_with_findings"))
        if self.style == "floor" and not self.findings:
            raise InvalidContentError(Wording("problem.card.floor_without_findings"))
        return self


LocalId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=ID_MAX)]
Role = Literal["offender", "opponent", "witness"]
QUESTION_SECONDS = 30  # a step's round time when it gives none: a question
CHECK_SECONDS = 60  # a check (counting a deck, reading a list)
SEPARATE_SECONDS = 15  # taking one player aside
DEFAULT_BUDGET_SECONDS = 300


class Person(StrictModel):
    """Someone the judge can ask: ``role`` is for grading and authoring, never shown."""

    id: LocalId
    role: Role
    name: Text


class Step(StrictModel):
    """One thing the judge can do at the table: ask a person (``ask``), look at something
    (``check``), or take the players apart (``separate``)."""

    id: LocalId
    ask: LocalId | None = Field(default=None, description="The id of the person asked")
    check: LocalId | None = Field(default=None, description="What is looked at: deck, decklist, trash, clock, ...")
    separate: bool = Field(default=False, description="Take the players apart: questions before it were heard by both")
    text: Text = Field(description="The question as asked, or the check as done")
    reply: Text = Field(description="What is said or seen")
    seconds: int | None = Field(default=None, ge=0, le=1800,
                                description="Round time it costs (default 30 a question, 60 a check)")
    after: list[LocalId] = Field(default_factory=list, description="Steps that must be taken first (a follow-up)")
    shows: list[str] = Field(default_factory=list, description="The findings whose evidence the reply carries")
    leading: bool = Field(default=False, description="A question that suggests its answer: never counts as gathering")
    better: Text | None = Field(
        default=None, description="On a leading question: how a judge would ask it without suggesting the answer")

    @model_validator(mode="after")
    def _one_action(self) -> Step:
        actions = (self.ask is not None) + (self.check is not None) + self.separate
        if actions != 1:
            raise InvalidContentError(Wording("problem.floor_call.one_action"))
        if self.leading and self.ask is None:
            raise InvalidContentError(Wording("problem.floor_call.leading_not_a_question"))
        if self.better is not None and not self.leading:
            raise InvalidContentError(Wording("problem.floor_call.better_not_leading"))
        if self.separate and self.shows:
            raise InvalidContentError(Wording("problem.floor_call.separate_shows"))
        return self

    @property
    def cost(self) -> int:
        """The round time the step takes."""
        if self.seconds is not None:
            return self.seconds
        if self.ask is not None:
            return QUESTION_SECONDS
        return CHECK_SECONDS if self.check is not None else SEPARATE_SECONDS


class Conflict(StrictModel):
    """Replies that disagree on something that decides a finding, and what settles it (shown in
    the debrief)."""

    steps: list[LocalId] = Field(min_length=2, description="The steps whose replies disagree")
    settled: Text = Field(description="What settles it, or why it stays open")


class FloorCallCard(RulingCard):
    """A call to a table: the trainee asks and checks (``steps``), then rules as on a
    scenario card with findings (CONTENT.md, "Floor calls")."""

    OPENING: ClassVar[str] = "call"

    kind: Literal["floor_call"]
    situation: Text = Field(alias="call", description="What the judge sees and hears on arriving, and nothing more")
    people: list[Person] = Field(min_length=1)
    steps: list[Step] = Field(min_length=1)
    separate: bool = Field(default=False, description="The players should be questioned apart (a dispute)")
    budget_seconds: int = Field(default=DEFAULT_BUDGET_SECONDS, ge=30, le=3600,
                                description="Round time the judge may take before the table is held up")
    conflicts: list[Conflict] = Field(default_factory=list,
                                      description="Replies that disagree on a finding, and what settles them")

    @model_validator(mode="after")
    def _ids_unique(self) -> FloorCallCard:
        if not self.findings:
            raise InvalidContentError(Wording("problem.floor_call.no_findings"))
        if self.parameters:
            raise InvalidContentError(Wording("problem.floor_call.parameters"))
        for ids in ([p.id for p in self.people], [s.id for s in self.steps]):
            if len(set(ids)) != len(ids):
                raise InvalidContentError(Wording("problem.floor_call.duplicate_ids", ids=sorted(ids)))
        return self

    @property
    def investigated(self) -> bool:
        return True

    @property
    def accounts_disagree(self) -> bool:
        """A floor call's ``conflicts`` say so (or its tag)."""
        return bool(self.conflicts) or ACCOUNTS_DISAGREE in self.tags

    @property
    def call(self) -> Text:
        """What the judge sees and hears on arriving (the card's ``situation``, written ``call``)."""
        return self.situation

    def step(self, step_id: str) -> Step | None:
        return next((step for step in self.steps if step.id == step_id), None)

    def person(self, person_id: str) -> Person | None:
        return next((person for person in self.people if person.id == person_id), None)


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

    The trainee says which line of the document is nearest (``nearest``: an infraction id, or
    a list of every line a competent judge could lean on by analogy, each graded right), or
    that no line of the document comes near (``nearest: null``). The first listed line is the
    one the card is practised under, and the line ``facts`` are stated against. The feedback
    shows the nearest lines, the principle that leaves the rest to the head judge, and why.
    """

    kind: Literal["judgement_call"]
    situation: Text
    nearest: str | list[str] | None = Field(
        description="The infraction whose line is nearest, or a list of every line a judge could lean on by "
                    "analogy (the first is the one the card is practised under); null when no line comes near",
    )
    facts: dict[str, bool | int] = Field(
        default_factory=dict,
        description="With nearest: the facts under which the engine must refuse the case under the first listed "
                    "line (checked at validation)",
    )
    principle: str = Field(description="The ruleset's principle that leaves the case to the head judge")
    explanation: Text

    @model_validator(mode="after")
    def _lines_listed_once(self) -> JudgementCallCard:
        if isinstance(self.nearest, list):
            if not self.nearest:
                raise InvalidContentError(Wording("problem.card.nearest_empty"))
            if len(set(self.nearest)) != len(self.nearest):
                raise InvalidContentError(Wording("problem.card.nearest_repeated"))
        return self

    @property
    def nearest_lines(self) -> tuple[str, ...]:
        """Every accepted line, the one the card is practised under first; () when no line comes near."""
        if self.nearest is None:
            return ()
        return (self.nearest,) if isinstance(self.nearest, str) else tuple(self.nearest)

    @property
    def first_line(self) -> str | None:
        """The line the card is practised under (and its ``facts`` are stated against); None when no line comes near."""
        return self.nearest_lines[0] if self.nearest_lines else None


Card = Annotated[ScenarioCard | FloorCallCard | KnowledgeCard | JudgementCallCard, Field(discriminator="kind")]
AnyCard = ScenarioCard | FloorCallCard | KnowledgeCard | JudgementCallCard
RuledCard = ScenarioCard | FloorCallCard  # the cards the engine rules on


class CardFile(StrictModel):
    """A card file: a list of cards (validated one by one by the loader)."""

    cards: list[Card]


def card_kind(raw: Any) -> str | None:
    return raw.get("kind") if isinstance(raw, dict) else None
