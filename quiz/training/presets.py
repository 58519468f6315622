"""Mock exam presets, read from ``rulesets/exams/presets.yaml``: data, never code.

A preset names the rulesets it draws from; presets for a game that did not load are left
out with a located problem, so a broken or outdated preset never stops the app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Collection

from pydantic import Field, ValidationError

from quiz.content.loader import PROJECT_ROOT, RULESETS_DIR, located_problems, pydantic_findings, read_yaml_file
from quiz.model.errors import Problem
from quiz.model.text import StrictModel, Text
from quiz.training.exams import MINUTES_RANGE, PASS_PERCENT_RANGE, QUESTIONS_RANGE, ExamSpec

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

    @property
    def spec(self) -> ExamSpec:
        return ExamSpec(
            questions=self.questions,
            minutes=self.minutes,
            pass_percent=self.pass_percent,
            rulesets=tuple(self.rulesets),
            categories=None if self.categories is None else tuple(self.categories),
        )


class PresetFile(StrictModel):
    presets: list[ExamPreset]


def load_presets(
    known_rulesets: Collection[str], path: Path = PRESETS_FILE, base: Path = PROJECT_ROOT
) -> tuple[list[ExamPreset], list[Problem]]:
    """The presets whose rulesets are all known, in file order, and every problem found."""
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
    findings: list[tuple[tuple, str]] = []
    playable: list[ExamPreset] = []
    seen: set[str] = set()
    for index, preset in enumerate(presets):
        unknown = [rid for rid in preset.rulesets if rid not in known_rulesets]
        for rid in unknown:
            findings.append((("presets", index, "rulesets"), f"unknown ruleset {rid!r}"))
        if preset.id in seen:
            findings.append((("presets", index, "id"), f"duplicate preset id {preset.id!r}"))
        elif not unknown:
            playable.append(preset)
        seen.add(preset.id)
    return playable, problems + located_problems(shown, text, (), findings)
