"""Names that look alike, for the Team page: trainees made before today's name rules, or
whole words in letters of another alphabet that look Latin (``Махім`` next to ``Maxim``), are
grouped (``look_alike_groups``); ``visible_name`` spells out what the eye cannot see.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from quiz.db.store import Store, Trainee
from quiz.model.names import HIDDEN_CATEGORIES, mixed_scripts, name_key
from quiz.model.scope import Scope

# Cyrillic and Greek letters (case-folded) that look like Latin ones, for spotting look-alikes.
_LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ј": "j", "к": "k", "м": "m", "н": "h",
    "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
    "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x",
})


def look_alike_key(name: str) -> str:
    """The canonical form with Cyrillic and Greek look-alikes of Latin letters made Latin."""
    return name_key(name).translate(_LOOK_ALIKES)


def look_alike_groups(store: Store, scope: Scope) -> list[list[Trainee]]:
    """``scope``'s trainees whose names look alike (same ``look_alike_key``: differing only in case, width,
    spacing, hidden characters, or Cyrillic/Greek letters that look Latin), each group ordered
    by id, groups by their first id. Names made under today's rules cannot share a canonical
    form; these are older trainees, or whole words in look-alike letters (for the Team page)."""
    return look_alike_groups_of(store.trainees(scope))


def look_alike_groups_of(seen: Iterable[Trainee]) -> list[list[Trainee]]:
    """The groups of ``look_alike_groups`` among ``seen`` (trainees a page has read already)."""
    groups: dict[str, list[Trainee]] = {}
    for trainee in sorted(seen, key=lambda trainee: trainee.id):
        groups.setdefault(look_alike_key(trainee.name), []).append(trainee)
    return [group for group in groups.values() if len(group) > 1]


def visible_name(name: str) -> str:
    """The name with what the eye cannot see spelt out, for telling look-alikes apart on the
    Team page: hidden characters as ``<U+200B>``, and a word mixing alphabets followed by
    them, e.g. ``Alicе [Cyrillic+Latin]``. Plain text: escape it for Markdown as any name."""
    shown = "".join(f"<U+{ord(char):04X}>" if unicodedata.category(char) in HIDDEN_CATEGORIES else char
                    for char in name)
    mixed = dict.fromkeys("+".join(scripts) for _, scripts in mixed_scripts(name))
    return shown + "".join(f" [{scripts}]" for scripts in mixed)
