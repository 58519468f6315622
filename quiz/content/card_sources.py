"""Where a card comes from: its file and line, and the lines of the document it cites.

For authors fixing a card (the review queue): the loader keeps each card's file; the line is
found on demand by reading that file again with the safe loader, once per file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from quiz.content.loader import PROJECT_ROOT, Content
from quiz.content.yaml_source import locate, parse_yaml
from quiz.model.cards import AnyCard
from quiz.model.errors import YamlProblem
from quiz.rules.engine import line_numbers


@dataclass(frozen=True, slots=True)
class CardSource:
    """A card's file (as the loader names it), its line there (0: not found), and the line
    numbers of the document passage it cites (empty when not found)."""

    card_id: str
    path: str
    line: int
    document_lines: tuple[int, ...]

    @property
    def where(self) -> str:
        """``path:line`` (the path alone when the line is not known)."""
        return f"{self.path}:{self.line}" if self.line else self.path


def card_source(content: Content, card: AnyCard, base: Path = PROJECT_ROOT) -> CardSource:
    """Where ``card`` is written and which lines of its ruleset's document it cites."""
    path = content.card_files.get(card.id, "")
    lines = content.memo(("card_lines", path, str(base)), lambda: _card_lines(path, base)) if path else {}
    ruleset = content.rulesets.get(card.ruleset)
    cited = line_numbers(card.source.ja, ruleset.source_lines) if ruleset is not None else ()
    return CardSource(card.id, path, lines.get(card.id, 0), cited)


def _card_lines(shown: str, base: Path) -> dict[str, int]:
    """Card id -> the line its entry starts on, in the card file ``shown`` (relative to ``base``
    unless absolute); nothing when it cannot be read now."""
    path = Path(shown) if Path(shown).is_absolute() else base / shown
    try:
        text = path.read_text(encoding="utf-8")
        data = parse_yaml(text)
    except (OSError, UnicodeDecodeError, YamlProblem):
        return {}
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        return {}
    return {raw["id"]: locate(text, ("cards", index)) for index, raw in enumerate(cards)
            if isinstance(raw, dict) and isinstance(raw.get("id"), str)}
