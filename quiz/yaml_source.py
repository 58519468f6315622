"""Reading YAML safely, and finding the line of a field only when there is a problem.

Files are parsed with libyaml's safe loader (CSafeLoader) for speed; line numbers come
from a second, node-level pass that runs only for files with problems.
"""

from __future__ import annotations

from typing import Any, Sequence

import yaml

SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FILE_BYTES = 2 * 1024 * 1024


class YamlProblem(Exception):
    """A file that is not safe, well-formed YAML; ``line`` is 1-based."""

    def __init__(self, line: int, message: str):
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


def parse_yaml(text: str) -> Any:
    """Parse one YAML document with the safe loader; refuse aliases and unsafe tags."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise YamlProblem(1, f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
    if "&" in text and "*" in text:
        _refuse_aliases(text)
    try:
        return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - CSafeLoader/SafeLoader only
    except yaml.constructor.ConstructorError as error:
        line = _mark_line(error.problem_mark)
        raise YamlProblem(line, f"unsafe or unknown YAML tag refused: {error.problem}") from None
    except yaml.MarkedYAMLError as error:
        line = _mark_line(error.problem_mark or error.context_mark)
        raise YamlProblem(line, f"invalid YAML: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise YamlProblem(1, f"invalid YAML: {error}") from None
    except RecursionError:
        raise YamlProblem(1, "YAML nested too deeply") from None


def _refuse_aliases(text: str) -> None:
    """Aliases can blow up into billions of nodes ("billion laughs"); content needs none."""
    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                raise YamlProblem(_mark_line(event.start_mark), "YAML aliases (*name) are not allowed")
    except yaml.YAMLError:
        return  # not well-formed: the real parse reports the error with its line


def _mark_line(mark: Any) -> int:
    return mark.line + 1 if mark is not None else 1


def locate(text: str, path: Sequence[str | int]) -> int:
    """The 1-based line of the node at ``path`` (keys and list indexes) in ``text``.

    Walks as deep as the path exists; a missing key gives the line of its parent.
    """
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return 1
    line = 1
    for part in path:
        if node is None:
            break
        line = node.start_mark.line + 1
        node = _child(node, part)
    if node is not None:
        line = node.start_mark.line + 1
    return line


def _child(node: Any, part: str | int) -> Any:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        return node.value[part] if 0 <= part < len(node.value) else None
    return None
