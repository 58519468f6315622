"""Comparison themes: which infractions of each game deal with the same subject."""

from __future__ import annotations

from pydantic import Field

from quiz.model.text import StrictModel, Text


class Theme(StrictModel):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: Text
    infractions: dict[str, list[str]]


class ThemeFile(StrictModel):
    themes: list[Theme]
