"""The engine's verdict: what the document decides for one scenario, with its reasons."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from quiz.model.text import Text


@dataclass(frozen=True, slots=True)
class CitedLine:
    """A quoted passage of a source document and why it is quoted."""

    document: str
    role: str
    ja: str
    en: str
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    ruleset: str
    infraction: str
    penalty: str
    players: str
    accepted: tuple[str, ...]
    fixes: tuple[str, ...]
    optional_fixes: tuple[str, ...]
    applies_to: str
    citations: tuple[CitedLine, ...]
    trace: tuple[str, ...]
    explanations: tuple[Text, ...] = ()
    scope_discretionary: bool = False  # applies_to is where the judge *may* apply it (a scope's …できる)

    def to_json(self) -> dict[str, Any]:
        """The verdict as plain JSON-able data (explanations as ja/en pairs)."""
        data = asdict(self)
        data["explanations"] = [e.model_dump() for e in self.explanations]
        for key in ("accepted", "fixes", "optional_fixes", "trace"):
            data[key] = list(data[key])
        data["citations"] = [dict(c, lines=list(c["lines"])) for c in data["citations"]]
        return data
