"""Bilingual text: every name and sentence the app shows has Japanese and English."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Language = Literal["ja", "en"]
LANGUAGES: tuple[Language, ...] = ("ja", "en")


class StrictModel(BaseModel):
    """Base of all content models: unknown keys are errors, instances are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(StrictModel):
    """A text in Japanese and English; both are required and non-empty."""

    ja: str = Field(min_length=1)
    en: str = Field(min_length=1)

    def get(self, language: str) -> str:
        """The text in ``language``, falling back to Japanese."""
        return self.en if language == "en" else self.ja
