"""Reading YAML safely, and finding the line of a field only when there is a problem.

Files are parsed with libyaml's safe loader (CSafeLoader) for speed; line numbers come
from a second, node-level pass that runs only for files with problems, once per file
however many problems it has.

libyaml's composer recurses once per level of nesting and has no limit: 100,000 ``[`` (100
KB) overflow the C stack and kill the process. So nesting is bounded *before* the composer
runs: a pre-scan of the characters proves most files shallow (see ``_surely_shallow``); the
others go through libyaml's event parser, which keeps its state on the heap, stopping at
the first collection deeper than ``MAX_DEPTH``.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any, Sequence

import yaml

from quiz.model.errors import YamlProblem

SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 100  # collections inside collections; the shipped content needs 8
TREES_KEPT = 2  # node trees memoised for ``locate``: the loader locates one file's problems in a row

# The pre-scan's budget (see ``_surely_shallow``): block nesting <= 2 * (PREFIX_LIMIT + 1),
# flow nesting <= 2 * (FLOW_OPENS_LIMIT + 1); together at most MAX_DEPTH.
PREFIX_LIMIT = 30
FLOW_OPENS_LIMIT = 18
assert 2 * (PREFIX_LIMIT + 1) + 2 * (FLOW_OPENS_LIMIT + 1) <= MAX_DEPTH

_BREAKS_AND_BOM = "\r\x85\u2028\u2029\ufeff"
_AS_NEWLINES = str.maketrans({"\r": "\n", "\x85": "\n", "\u2028": "\n", "\u2029": "\n", "\ufeff": " "})
_DEEP_PREFIX = re.compile(rf"^[ \t?:-]{{{PREFIX_LIMIT},}}", re.MULTILINE)
_PLAIN_FLOW = re.compile(r"\[[^\[\]{}'\"#!]*\]|\{[^\[\]{}'\"#!]*\}")  # no nested, quoted, commented or tagged text
_STARTS = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_ENDS = (yaml.SequenceEndEvent, yaml.MappingEndEvent)

_trees: OrderedDict[str, Any] = OrderedDict()  # text -> its node tree (None: not composable)
_shallow: OrderedDict[str, None] = OrderedDict()  # texts whose nesting was checked: locate skips the check
_memo_lock = threading.Lock()
_compositions = 0


def parse_yaml(text: str) -> Any:
    """Parse one YAML document with the safe loader; refuse aliases, unsafe tags and deep nesting."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise YamlProblem(1, f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
    _check_events(text, aliases="&" in text and "*" in text)
    try:
        return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - CSafeLoader/SafeLoader only
    except yaml.constructor.ConstructorError as error:
        line = _mark_line(error.problem_mark)
        raise YamlProblem(line, f"unsafe or unknown YAML tag refused: {error.problem}") from None
    except yaml.MarkedYAMLError as error:
        raise _syntax_problem(error) from None
    except yaml.YAMLError as error:
        raise YamlProblem(1, f"invalid YAML: {error}") from None
    except RecursionError:
        raise YamlProblem(1, "YAML nested too deeply") from None


def _syntax_problem(error: yaml.MarkedYAMLError) -> YamlProblem:
    """The problem at the line that causes it. An error found only at the end of the file
    (an unclosed quote) is caused where the unclosed thing starts, libyaml's context mark,
    not the last line where libyaml gave up; other errors are where they are found, with
    the line their construct starts on said too."""
    problem, context = error.problem or "", re.sub(r"^while (scanning|parsing) ", "", error.context or "")
    found = _mark_line(error.problem_mark) if error.problem_mark is not None else None
    start = _mark_line(error.context_mark) if error.context_mark is not None else None
    if start is None or found is None:
        return YamlProblem(found or start or 1, f"invalid YAML: {problem or context}")
    if "end of stream" in problem:
        return YamlProblem(start, f"invalid YAML: {context} that starts on line {start} is not closed ({problem})")
    return YamlProblem(found, f"invalid YAML: {problem} ({context} that starts on line {start})")


def check_nesting(text: str) -> None:
    """Raise ``YamlProblem`` at the first collection nested deeper than ``MAX_DEPTH``."""
    _check_events(text, aliases=False)


def _check_events(text: str, aliases: bool) -> None:
    """One pass of libyaml's event parser, only when needed: refuse nesting deeper than
    ``MAX_DEPTH`` (unless the characters already prove it shallow) and, when ``aliases``,
    any alias (they can blow up into billions of nodes, "billion laughs"; content needs none).

    The event parser keeps its state on the heap, so it is safe on any nesting; the
    composer that builds nodes from the events is not, and runs only after this.
    """
    with _memo_lock:
        deep = text not in _shallow
    deep = deep and not _surely_shallow(text)
    if not (deep or aliases):
        return
    depth = 0
    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            if isinstance(event, _STARTS):
                depth += 1
                if deep and depth > MAX_DEPTH:
                    raise YamlProblem(_mark_line(event.start_mark), f"nesting deeper than {MAX_DEPTH}")
            elif isinstance(event, _ENDS):
                depth -= 1
            elif aliases and isinstance(event, yaml.AliasEvent):
                raise YamlProblem(_mark_line(event.start_mark), "YAML aliases (*name) are not allowed")
    except yaml.YAMLError:
        pass  # not well-formed: the real parse reports the error with its line, and its
        # composer stops at the same event, no deeper than the events seen here
    if deep:
        _remember(_shallow, text, None)  # so that locating its problems does not scan it again


def _surely_shallow(text: str) -> bool:
    """True when the characters alone prove that no collection nests deeper than ``MAX_DEPTH``.

    Block collections: libyaml opens one at a column greater than its parent's (a sequence
    that is a mapping's value may share its key's column, never twice in a row), and only
    where a simple key is allowed: after the indentation and the ``-``/``?``/``:``
    indicators that begin a line. A line prefix of fewer than ``PREFIX_LIMIT`` such
    characters everywhere bounds block nesting by ``2 * (PREFIX_LIMIT + 1)``.

    Flow collections open at ``[`` or ``{`` (each may also hold a one-pair mapping, so at
    most two levels per bracket). Outside quotes, comments and tags a flow collection
    cannot hold a bracket of text, so a ``[...]``/``{...}`` with none of ``[]{}'"#!``
    inside is innermost (or text): dropping those, every bracket of the deepest chain but
    its last is still counted.
    """
    if any(char in text for char in _BREAKS_AND_BOM):  # libyaml's other line breaks; a BOM takes a column
        text = text.translate(_AS_NEWLINES)
    if _DEEP_PREFIX.search(text):
        return False
    if text.count("[") + text.count("{") <= FLOW_OPENS_LIMIT:
        return True
    rest = _PLAIN_FLOW.sub("", text)
    return rest.count("[") + rest.count("{") <= FLOW_OPENS_LIMIT


def _mark_line(mark: Any) -> int:
    return mark.line + 1 if mark is not None else 1


def locate(text: str, path: Sequence[str | int]) -> int:
    """The 1-based line of the node at ``path`` (keys and list indexes) in ``text``.

    Walks as deep as the path exists; a missing key gives the line of its parent. The
    node tree of ``text`` is built once and kept for the next calls (the last
    ``TREES_KEPT`` texts), so locating every problem of a file costs one parse.
    """
    node = _node_tree(text)
    line = 1
    for part in path:
        if node is None:
            break
        line = node.start_mark.line + 1
        node = _child(node, part)
    if node is not None:
        line = node.start_mark.line + 1
    return line


def compositions() -> int:
    """How many node trees ``locate`` has built in this process (a test counts them)."""
    return _compositions


def _node_tree(text: str) -> Any:
    global _compositions
    with _memo_lock:
        if text in _trees:
            _trees.move_to_end(text)
            return _trees[text]
    try:
        check_nesting(text)
        node = yaml.compose(text, Loader=SafeLoader)
    except (YamlProblem, yaml.YAMLError, RecursionError):
        node = None
    with _memo_lock:
        _compositions += 1
    _remember(_trees, text, node)
    return node


def _remember(memo: OrderedDict, text: str, value: Any) -> None:
    """Keep ``text -> value`` as the newest of the last ``TREES_KEPT`` entries of ``memo``."""
    with _memo_lock:
        memo[text] = value
        memo.move_to_end(text)
        while len(memo) > TREES_KEPT:
            memo.popitem(last=False)


def _child(node: Any, part: str | int) -> Any:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        return node.value[part] if 0 <= part < len(node.value) else None
    return None
