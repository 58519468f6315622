"""Models of a ruleset file: one penalty document encoded as data."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, PrivateAttr, model_validator

from quiz.model.errors import InvalidContentError, UnknownIdError
from quiz.model.facts import FactSpec
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording

Id = str
ID_MAX = 64  # ids are stored in VARCHAR(64) columns, a limit PostgreSQL enforces (SQLite does not)
TITLE_MAX = 120  # an English heading title: a title, not the passage it heads
ScopeId = Literal[
    "current_game", "next_game", "current_match", "next_match", "event", "future_events"
]
Condition = dict[str, Any]
CONDITION_DOC = (
    "Structured condition: {fact: value} or {fact: {gte|gt|lte|lt|eq|ne: n}}; "
    "keys all/any take lists of conditions, not takes one. All keys must hold."
)


def _id_field(description: str = "") -> Any:
    return Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=ID_MAX, description=description)


class Citation(StrictModel):
    """Line(s) of the source document, verbatim in Japanese, with an English rendering."""

    ja: str = Field(min_length=1, description="Verbatim line(s) of the seed, joined by newlines")
    en: str = Field(min_length=1)


class Outline(StrictModel):
    """How the document's text marks its headings, so that a citation names the section and
    item a judge finds in the official document (the app's line numbers are its own copy's)."""

    sections: list[str] = Field(default_factory=list, description=(
        "Regular expressions of heading lines, outermost level first; a group named 'title' is "
        "the heading as shown (else the whole line)"))
    item: str | None = Field(default=None, description=(
        "Regular expression of the first line of a listed item (a rule); a group named 'title' as above"))
    titles: dict[str, Annotated[str, Field(min_length=1, max_length=TITLE_MAX)]] = Field(
        default_factory=dict, description=(
            "The English title of every heading and item these patterns find, keyed by the heading "
            "as the document titles it (the 'title' group, in full): shown in English beside the "
            "Japanese, by which a judge finds it in the official document"))

    @model_validator(mode="after")
    def _patterns_compile(self) -> Outline:
        for pattern in (*self.sections, *([self.item] if self.item else [])):
            try:
                re.compile(pattern)
            except re.error as error:
                raise InvalidContentError(Wording("problem.ruleset.bad_pattern", pattern=repr(pattern),
                                                  problem=str(error))) from error
        return self


class Document(StrictModel):
    title: Text
    short_name: Text = Field(description="A short name of the game for menus and charts")
    version: str | None = None
    source_file: str = Field(description="The seed text in rulesets/sources/")
    publisher: Text | None = None
    rules_end: str | None = Field(default=None, description=(
        "The last line of the rules, verbatim (its first occurrence counts): what follows (an "
        "afterword, a commentary, a repeat) is never cited as a rule"))
    outline: Outline = Field(default_factory=Outline)


def split_rules(lines: list[str], rules_end: str | None) -> tuple[list[str], list[str]]:
    """The document's lines as the rules and what follows them (nothing when ``rules_end`` is
    not given or not found: the content checks report the latter)."""
    end = next((n for n, line in enumerate(lines) if rules_end is not None and line.strip() == rules_end.strip()),
               None)
    return (lines, []) if end is None else (lines[:end + 1], lines[end + 1:])


class ScopeRule(StrictModel):
    """Where a penalty applies under some facts, instead of the rung's ``applies_to``."""

    when: Condition = Field(description=CONDITION_DOC)
    applies_to: ScopeId
    discretionary: bool = Field(
        default=False,
        description="The document lets the judge apply it there (…できる), not must: the verdict says 'may'",
    )
    citation: Citation


class Penalty(StrictModel):
    """One rung of the penalty ladder."""

    id: Id = _id_field()
    name: Text
    meaning: Text
    recorded: bool | None = Field(description="Officially recorded; null where the document does not say")
    applies_to: ScopeId = "current_game"
    scopes: list[ScopeRule] = Field(default_factory=list, description="Tried in order; the first that holds decides")
    optional_fixes: list[Id] = Field(
        default_factory=list, description="Fixes a judge may add whenever this penalty is given"
    )
    citation: Citation


KNOWLEDGE_CATEGORY = "knowledge"  # reserved: the category of cards no infraction's category fits


class Category(StrictModel):
    id: Id = _id_field()
    name: Text

    @model_validator(mode="after")
    def _not_reserved(self) -> Category:
        if self.id == KNOWLEDGE_CATEGORY:
            raise InvalidContentError(Wording("problem.ruleset.reserved_category", category=repr(KNOWLEDGE_CATEGORY)))
        return self


class Fix(StrictModel):
    id: Id = _id_field()
    name: Text
    citation: Citation


class Rule(StrictModel):
    """One branch of an infraction: tried in order, the first whose ``when`` holds wins.

    It ends in exactly one of: a ``penalty``; ``becomes`` (judge as that infraction); or
    ``undecided`` (the document does not decide these facts; the engine refuses them).
    """

    id: Id = _id_field()
    when: Condition | None = Field(default=None, description=CONDITION_DOC)
    becomes: Id | None = Field(default=None, description="Judge as this infraction instead")
    penalty: Id | None = None
    undecided: bool = Field(default=False, description="The document does not decide this case: refuse it")
    fixes: list[Id] = Field(default_factory=list)
    optional_fixes: list[Id] = Field(default_factory=list)
    players: Literal["offender", "both"] = "offender"
    also_accepted: list[Id] = Field(
        default_factory=list, description="Penalties the document lets a judge give instead (e.g. either or both)"
    )
    citation: Citation
    explain: Text

    @model_validator(mode="after")
    def _one_outcome(self) -> Rule:
        outcomes = (self.becomes is not None) + (self.penalty is not None) + self.undecided
        if outcomes != 1:
            raise InvalidContentError(Wording("problem.ruleset.one_outcome"))
        if self.penalty is None and (
            self.fixes or self.optional_fixes or self.also_accepted or self.players != "offender"
        ):
            raise InvalidContentError(Wording("problem.ruleset.fixes_without_penalty"))
        return self


class Infraction(StrictModel):
    id: Id = _id_field()
    category: Id
    name: Text
    description: Text
    requires: list[Id] = Field(default_factory=list, description="Facts that must be given")
    assumes: dict[Id, bool | int] = Field(
        default_factory=dict,
        description="Facts the infraction's own wording states (故意に: intentional true): its defaults",
    )
    rules: list[Rule] = Field(min_length=1)
    other_player: list[Id] = Field(
        default_factory=list,
        description="Infractions the other player commits in the same story (a Prize left untaken by one "
                    "player and overlooked by the other): an answer naming one rules on the other player's "
                    "act, and is never graded as a misapplied document",
    )


class Upgrade(StrictModel):
    """A discretionary upgrade: ``accepted`` also holds every penalty above the standard one
    up to and including ``up_to``. The standard penalty stays the same."""

    id: Id = _id_field()
    when: Condition = Field(description=CONDITION_DOC)
    rules: list[str] | None = Field(
        default=None, description="Only these branches, as infraction/rule ids (default: every branch)"
    )
    up_to: Id = Field(description="The heaviest penalty the judge may give instead")
    citation: Citation
    explain: Text


class Escalation(StrictModel):
    """Replaces a standard penalty by a heavier one; the first that holds wins.

    The fixes of the original infraction stay unless ``keep_fixes`` is false (a case that
    can no longer be put right); the new rung's optional fixes come with it.
    """

    id: Id = _id_field()
    from_penalties: list[Id] = Field(alias="from", min_length=1)
    when: Condition = Field(description=CONDITION_DOC)
    to: Id
    keep_fixes: bool = True
    citation: Citation
    explain: Text


class Principle(StrictModel):
    """A principle taught in explanations but not graded."""

    id: Id = _id_field()
    text: Text
    citation: Citation


class Ruleset(StrictModel):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=ID_MAX)
    document: Document
    facts: list[FactSpec] = Field(min_length=1)
    ladder: list[Penalty] = Field(min_length=1, description="Lightest first")
    categories: list[Category] = Field(min_length=1)
    fixes: list[Fix] = Field(default_factory=list)
    infractions: list[Infraction] = Field(min_length=1)
    upgrades: list[Upgrade] = Field(default_factory=list)
    escalations: list[Escalation] = Field(default_factory=list)
    principles: list[Principle] = Field(default_factory=list)
    search_synonyms: dict[str, list[str]] = Field(default_factory=dict, description=(
        "For the Reference search: a way people say a thing (ドロー, 引きすぎ) -> the words the "
        "document and this file use for it; a query word equal to a key also finds those words"))

    _source_lines: list[str] = PrivateAttr(default_factory=list)
    _after_rules: list[str] = PrivateAttr(default_factory=list)
    _compiled: Any = PrivateAttr(default=None)
    _quoted: dict[str, bool] = PrivateAttr(default_factory=dict)
    _by_id: dict[str, dict[str, Any]] = PrivateAttr(default_factory=dict)
    _infraction_labels: dict[str, dict[str, str]] = PrivateAttr(default_factory=dict)

    def compiled(self) -> Any:
        """What ``quiz.rules.engine.compile_ruleset`` made of this ruleset, or None (a cache
        that lives and dies with the ruleset: the same ruleset is the same content)."""
        return self._private()["_compiled"]

    def attach_source(self, lines: list[str]) -> None:
        """Give the ruleset its document's lines, so citations can name line numbers; those
        after its rules are kept apart (a citation into them is refused)."""
        self._source_lines, self._after_rules = split_rules(list(lines), self.document.rules_end)
        self._compiled = None
        self._quoted = {}

    def _private(self) -> dict[str, Any]:
        """Pydantic's private attributes as a plain dict (one lookup: read on every verdict)."""
        private = self.__pydantic_private__
        assert private is not None  # declared private attributes: pydantic always sets the dict
        return private

    @property
    def source_lines(self) -> list[str]:
        """The document's lines up to where its rules end: all a citation may quote."""
        lines: list[str] = self._private()["_source_lines"]
        return lines

    @property
    def after_rules(self) -> list[str]:
        """The document's lines after its rules (an afterword): never quoted as a rule."""
        lines: list[str] = self._private()["_after_rules"]
        return lines

    def quotes_source(self, part: str) -> bool:
        """Whether ``part`` occurs within one line of the document's rules (memoised)."""
        quoted: dict[str, bool] = self._private()["_quoted"]
        found = quoted.get(part)
        if found is None:
            found = quoted[part] = any(part in line for line in self.source_lines)
        return found

    def known(self, kind: Literal["infraction", "penalty", "fix", "category"], item_id: str) -> Any:
        """The infraction, penalty, fix or category of a checked id; ``UnknownIdError`` if absent."""
        found = getattr(self, kind)(item_id)
        if found is None:
            raise UnknownIdError(Wording("problem.unknown_in_ruleset", what=Wording(f"problem.what.{kind}"),
                                         id=repr(item_id), ruleset=self.id))
        return found

    def name_of(self, kind: Literal["infraction", "penalty", "fix", "category"], item_id: str, language: str) -> str:
        """The name of a checked id in ``language``."""
        name: str = self.known(kind, item_id).name.get(language)
        return name

    def infraction(self, infraction_id: str) -> Infraction | None:
        found: Infraction | None = self._by_kind("infraction").get(infraction_id)
        return found

    def penalty(self, penalty_id: str) -> Penalty | None:
        found: Penalty | None = self._by_kind("penalty").get(penalty_id)
        return found

    def fix(self, fix_id: str) -> Fix | None:
        found: Fix | None = self._by_kind("fix").get(fix_id)
        return found

    def category(self, category_id: str) -> Category | None:
        found: Category | None = self._by_kind("category").get(category_id)
        return found

    def infraction_labels(self, language: str) -> dict[str, str]:
        """Infraction id -> "category › name" in ``language``, in the order of the ruleset's
        categories: the choices of an answer form (memoised: every form draws them)."""
        labels: dict[str, dict[str, str]] = self._private()["_infraction_labels"]
        found = labels.get(language)
        if found is None:
            order = {c.id: i for i, c in enumerate(self.categories)}
            infractions = sorted(self.infractions, key=lambda i: order.get(i.category, len(order)))
            found = labels[language] = {
                i.id: f"{self.name_of('category', i.category, language)} › {i.name.get(language)}"
                for i in infractions
            }
        return found

    def _by_kind(self, kind: Literal["infraction", "penalty", "fix", "category"]) -> dict[str, Any]:
        """Id -> item of one kind, the first of an id winning (built once per kind: a page looks
        up every choice's name on every run)."""
        index: dict[str, dict[str, Any]] = self._private()["_by_id"]
        items = index.get(kind)
        if items is None:
            items = {}
            for item in getattr(self, _ITEMS_OF[kind]):
                items.setdefault(item.id, item)
            index[kind] = items
        return items


_ITEMS_OF = {"infraction": "infractions", "penalty": "ladder", "fix": "fixes", "category": "categories"}
