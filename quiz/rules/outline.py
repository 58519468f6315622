"""Where a line of a document stands: its sections and item, as the document's own headings
title them (the ``outline`` patterns of its ruleset file). A judge finds a rule in the official
document by these titles, not by the line numbers of the app's copy; in English, by the
English title the ruleset gives each of them (``outline.titles``) beside the Japanese one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from quiz.model.rulesets import Outline, Ruleset
from quiz.rules.engine import compile_ruleset


@dataclass(frozen=True, slots=True)
class Place:
    """A run of cited lines under one heading: ``sections`` outermost first, ``item`` the
    listed item they belong to (None for a section's own text), ``lines`` 1-based. Titles are
    in full, as the document has them (the keys of ``outline.titles``)."""

    sections: tuple[str, ...]
    item: str | None
    lines: tuple[int, ...]


def _title(match: re.Match[str]) -> str:
    title = match.groupdict().get("title")
    return (title if title is not None else match.group(0)).strip()


Located = tuple[tuple[str, ...], str | None, int]  # sections, item, the item's first line (0: none)


def line_places(lines: list[str], outline: Outline) -> list[Located]:
    """For each line, the sections it stands under and the item it belongs to (with the
    number of the item's first line).

    A heading of level k closes the headings of level k and below and any item; an item runs
    from its first line to the next item or heading.
    """
    sections = [re.compile(p) for p in outline.sections]
    item_pattern = re.compile(outline.item) if outline.item else None
    path: list[str] = []
    item: tuple[str, int] | None = None
    found: list[Located] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        level = next(((n, m) for n, p in enumerate(sections) if (m := p.match(text)) is not None), None)
        if level is not None:
            path = path[:level[0]] + [_title(level[1])]
            item = None
        elif item_pattern is not None and (m := item_pattern.match(text)) is not None:
            item = (_title(m), number)
        found.append((tuple(path), *(item or (None, 0))))
    return found


def headings(lines: list[str], outline: Outline) -> dict[str, int]:
    """Every heading and item title the outline finds in ``lines``, with the number of the
    first line it titles: what ``outline.titles`` must give an English title."""
    found: dict[str, int] = {}
    for number, (sections, item, first) in enumerate(line_places(lines, outline), start=1):
        for title in sections[-1:]:  # a heading's own line ends its path
            found.setdefault(title, number)
        if item is not None:
            found.setdefault(item, first)
    return found


def places(ruleset: Ruleset, lines: tuple[int, ...]) -> list[Place]:
    """The cited ``lines`` grouped by where they stand, in the order first cited.

    An item is named only when the citation quotes more of it than its first line (a one-line
    item is its own quote); a place is left out when another names its sections and more.
    """
    derived = compile_ruleset(ruleset).derived
    mapped: list[Located] | None = derived.get("outline")
    if mapped is None:
        mapped = derived["outline"] = line_places(ruleset.source_lines, ruleset.document.outline)
    grouped: dict[tuple[tuple[str, ...], str | None, int], list[int]] = {}
    for number in lines:
        key = mapped[number - 1] if 0 < number <= len(mapped) else ((), None, 0)
        grouped.setdefault(key, []).append(number)
    named: dict[tuple[tuple[str, ...], str | None], list[int]] = {}
    for (sections, item, first), numbers in grouped.items():
        named.setdefault((sections, item if any(n != first for n in numbers) else None), []).extend(numbers)
    found = [Place(sections, item, tuple(numbers)) for (sections, item), numbers in named.items()]
    return [place for place in found if place.item is not None or not any(
        other is not place and other.sections[:len(place.sections)] == place.sections
        and (len(other.sections) > len(place.sections) or other.item is not None) for other in found)]
