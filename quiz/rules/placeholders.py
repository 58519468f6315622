"""Card texts with ``{name}`` placeholders: a tiny formatter that only ever looks names up.

``{minutes}`` is replaced by a parameter's value; ``{{`` and ``}}`` write literal braces.
Anything else between braces (``{x.__class__}``, ``{0}``, ``{x!r}``, ``{x:>9}``) is refused:
no attribute access, no indexing, no format specs, so a text can never reach into Python.
"""

from __future__ import annotations

import re
from typing import Mapping

from quiz.model.errors import PlaceholderError
from quiz.model.words import Wording

NAME = re.compile(r"[a-z][a-z0-9_]*")
TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")  # {{, }}, {anything}, or a lone brace
Segment = tuple[bool, str]  # (is a placeholder, literal text or placeholder name)


def parse_template(text: str) -> tuple[Segment, ...]:
    """The text cut into literal runs and placeholder names, in order.

    Raises:
        PlaceholderError: an unclosed or lone brace, or braces around anything but a name.
    """
    if "{" not in text and "}" not in text:
        return ((False, text),) if text else ()
    segments: list[Segment] = []
    literal: list[str] = []
    last = 0
    for match in TOKEN.finditer(text):
        literal.append(text[last : match.start()])
        last = match.end()
        token, name = match.group(0), match.group(1)
        if token in ("{{", "}}"):
            literal.append(token[0])
        elif name is None:
            raise PlaceholderError(
                Wording("problem.placeholder.lone_close", brace="}", pair="}}") if token == "}"
                else Wording("problem.placeholder.unclosed", brace="{", pair="{{")
            )
        elif not NAME.fullmatch(name):
            raise PlaceholderError(Wording("problem.placeholder.not_a_name", name=name))
        else:
            segments += [(False, "".join(literal))] if any(literal) else []
            segments.append((True, name))
            literal = []
    literal.append(text[last:])
    if any(literal):
        segments.append((False, "".join(literal)))
    return tuple(segments)


def placeholder_names(text: str) -> list[str]:
    """The names of the placeholders in ``text``, each once, in order of first use."""
    return list(dict.fromkeys(part for is_name, part in parse_template(text) if is_name))


def fill(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each placeholder replaced by its value from ``values``.

    Raises:
        PlaceholderError: the text is malformed, or names a placeholder ``values`` lacks.
    """
    out: list[str] = []
    for is_name, part in parse_template(text):
        if not is_name:
            out.append(part)
        elif part in values:
            out.append(values[part])
        else:
            raise PlaceholderError(Wording("problem.placeholder.no_value", name=part))
    return "".join(out)
