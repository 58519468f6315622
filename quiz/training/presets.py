"""Mock exam presets, read from ``rulesets/exams/presets.yaml``: data, never code.

A preset names the rulesets it draws from, and may give a blueprint: how many questions
come from each category. Presets for a game that did not load, and (when the content is
given) presets whose blueprint the pool cannot fill, are left out with a located problem,
so a broken or outdated preset never stops the app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Collection

from pydantic import Field, ValidationError

from quiz.content.categories import KNOWLEDGE, category_keys, split_key
from quiz.content.loader import PROJECT_ROOT, RULESETS_DIR, Content, read_yaml_file
from quiz.content.ruleset_checks import Finding
from quiz.content.schema_problems import located_problems, pydantic_findings
from quiz.model.cards import CardKind
from quiz.model.errors import Problem, unknown_id
from quiz.model.text import StrictModel, Text
from quiz.model.words import Wording
from quiz.training.blueprints import Blueprint, pool_by_category, shortfalls
from quiz.training.exams import MINUTES_RANGE, PASS_PERCENT_RANGE, QUESTIONS_RANGE, ExamSpec, exam_pool

PRESETS_PATH = Path("exams") / "presets.yaml"  # within the rulesets folder
PRESETS_FILE = RULESETS_DIR / PRESETS_PATH


class ExamPreset(StrictModel):
    """A ready-made exam: its name, what it is modelled on, and its settings."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)
    name: Text
    basis: Text
    rulesets: list[str] = Field(min_length=1)
    questions: int = Field(ge=QUESTIONS_RANGE[0], le=QUESTIONS_RANGE[1])
    minutes: int = Field(ge=MINUTES_RANGE[0], le=MINUTES_RANGE[1])
    pass_percent: int = Field(ge=PASS_PERCENT_RANGE[0], le=PASS_PERCENT_RANGE[1])
    categories: list[str] | None = Field(default=None, min_length=1)
    blueprint: dict[str, int] | None = Field(
        default=None, description="Questions per ruleset/category key, in all as many as questions")
    findings_only: bool = Field(
        default=False, description="Draw only cards with findings (floor style), not cards that state their facts")
    closed_book: bool = Field(
        default=False, description="While the exam runs, Practice, Reference and Progress wait for it")
    unseen_first: bool = Field(
        default=False, description="Draw the cards the trainee has never answered before any they have")
    kinds: list[CardKind] | None = Field(
        default=None, min_length=1, description="Draw only cards of these kinds (floor_call: a practical exam)")

    @property
    def sections(self) -> Blueprint | None:
        """The blueprint as (category key, questions) pairs, in file order."""
        return None if self.blueprint is None else tuple(self.blueprint.items())

    @property
    def spec(self) -> ExamSpec:
        return ExamSpec(
            questions=self.questions,
            minutes=self.minutes,
            pass_percent=self.pass_percent,
            rulesets=tuple(self.rulesets),
            categories=None if self.categories is None else tuple(self.categories),
            blueprint=self.sections,
            findings_only=self.findings_only,
            closed_book=self.closed_book,
            unseen_first=self.unseen_first,
            kinds=None if self.kinds is None else tuple(self.kinds),
        )


class PresetFile(StrictModel):
    presets: list[ExamPreset]


def load_presets(
    known_rulesets: Collection[str], path: Path = PRESETS_FILE, base: Path = PROJECT_ROOT,
    content: Content | None = None,
) -> tuple[list[ExamPreset], list[Problem]]:
    """The presets whose rulesets are all known and whose blueprint is sound, in file order,
    and every problem found. With ``content``, a blueprint the pool cannot fill is a problem too."""
    problems: list[Problem] = []
    read = read_yaml_file(path, base, problems)
    if read is None:
        return [], problems
    text, data = read
    shown = str(path.relative_to(base)) if path.is_relative_to(base) else str(path)
    try:
        presets = PresetFile.model_validate(data).presets
    except ValidationError as error:
        return [], problems + located_problems(shown, text, (), pydantic_findings(error))
    findings: list[Finding] = []
    playable: list[ExamPreset] = []
    seen: set[str] = set()
    for index, preset in enumerate(presets):
        unknown = [rid for rid in preset.rulesets if rid not in known_rulesets]
        for rid in unknown:
            findings.append((("presets", index, "rulesets"), unknown_id("ruleset", rid)))
        unsound = [] if unknown else blueprint_findings(preset, content) + pool_findings(preset, content)
        findings += [(("presets", index, *loc), wording) for loc, wording in unsound]
        if preset.id in seen:
            findings.append((("presets", index, "id"), Wording("problem.preset.duplicate_id", id=repr(preset.id))))
        elif not unknown and not unsound:
            playable.append(preset)
        seen.add(preset.id)
    return playable, problems + located_problems(shown, text, (), findings)


def blueprint_findings(preset: ExamPreset, content: Content | None = None) -> list[Finding]:
    """(location within the preset, wording) for each flaw of its blueprint: a total other
    than ``questions``, a key outside the preset's games, categories or their rulesets'
    categories, a count below 1; and, with ``content``, a section the pool cannot fill."""
    if preset.blueprint is None:
        return []
    findings: list[Finding] = []
    preset_id = repr(preset.id)
    total = sum(preset.blueprint.values())
    if total != preset.questions:
        findings.append((("blueprint",), Wording("problem.preset.total", preset=preset_id, total=total,
                                                 questions=preset.questions)))
    for key, count in preset.blueprint.items():
        ruleset_id, category_id = split_key(key)
        if ruleset_id not in preset.rulesets or (preset.categories is not None and key not in preset.categories):
            findings.append((("blueprint", key), Wording("problem.preset.not_in_pool", preset=preset_id,
                                                         category=repr(key))))
        elif content is not None and category_id != KNOWLEDGE and (
            ruleset_id not in content.rulesets or content.rulesets[ruleset_id].category(category_id) is None
        ):
            findings.append((("blueprint", key), Wording("problem.preset.unknown_category", preset=preset_id,
                                                         category=repr(key))))
        if count < 1:
            findings.append((("blueprint", key), Wording("problem.preset.at_least_one", preset=preset_id,
                                                         category=repr(key))))
    if content is not None and not findings:
        grouped = pool_by_category(exam_pool(content, preset.rulesets, preset.categories, preset.findings_only,
                                             preset.kinds),
                                   category_keys(content))
        for key, wanted, available in shortfalls(tuple(preset.blueprint.items()), grouped):
            findings.append((("blueprint", key), Wording("problem.preset.shortfall", preset=preset_id, category=key,
                                                         wanted=wanted, available=available)))
    return findings


def pool_findings(preset: ExamPreset, content: Content | None = None) -> list[Finding]:
    """With ``content``: a preset that draws only cards with findings, or only cards of some
    kinds, and has fewer of them than its questions."""
    if content is None or not (preset.findings_only or preset.kinds):
        return []
    available = len(exam_pool(content, preset.rulesets, preset.categories, preset.findings_only, preset.kinds))
    if available >= preset.questions:
        return []
    field = "findings_only" if preset.findings_only else "kinds"
    return [((field,), Wording("problem.preset.findings_shortfall", preset=repr(preset.id),
                               wanted=preset.questions, available=available))]
