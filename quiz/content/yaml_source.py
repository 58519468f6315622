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
from quiz.model.safe_yaml import SafeLoader, safe_load
from quiz.model.words import Wording

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 100  # collections inside collections; the shipped content needs 8
# Nodes (scalars and collections) in one file: the shipped content's largest file has 3,178,
# its densest card 317. Building a node costs PyYAML about 18 µs and 600 bytes, so a 1.4 MB
# file of 100,000 ``kN: N`` lines took 3.6 s and 111 MiB before anything could refuse it.
MAX_NODES = 50_000
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
_NODES = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)

_trees: OrderedDict[str, Any] = OrderedDict()  # text -> its node tree (None: not composable)
_shallow: OrderedDict[str, None] = OrderedDict()  # texts whose nesting was checked: locate skips the check
_memo_lock = threading.Lock()
_compositions = 0


def parse_yaml(text: str, max_nodes: int = MAX_NODES) -> Any:
    """Parse one YAML document with the safe loader; refuse aliases, unsafe tags, deep nesting
    and more than ``max_nodes`` nodes, the last three before PyYAML builds anything."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise YamlProblem(1, Wording("problem.yaml.too_large", kib=MAX_FILE_BYTES // 1024))
    _check_events(text, aliases="&" in text and "*" in text, max_nodes=max_nodes)
    try:
        return safe_load(text)
    except yaml.constructor.ConstructorError as error:
        line = _mark_line(error.problem_mark)
        refused = Wording("problem.yaml.tag_refused", problem=yaml_wording(error.problem or ""))
        raise YamlProblem(line, refused) from None
    except yaml.MarkedYAMLError as error:
        raise _syntax_problem(error) from None
    except yaml.YAMLError as error:
        raise YamlProblem(1, Wording("problem.yaml.invalid", problem=yaml_wording(str(error)))) from None
    except RecursionError:
        raise YamlProblem(1, Wording("problem.yaml.too_deep")) from None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as error:
        # a typed value the constructor cannot build (``!!int x``, the date 2001-02-30)
        raise YamlProblem(1, Wording("problem.yaml.bad_value", error=Wording.untranslated(str(error)))) from None


# What libyaml (and PyYAML's own parser) says, as full texts, each with its key under
# ``problem.yaml.says.``: the problems, and the constructs an error happened in ("a block
# mapping", from "while parsing a block mapping"). A text not listed is said untranslated.
YAML_TEXTS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), key) for pattern, key in (
    # problems (libyaml)
    (r"found unexpected end of stream", "end_of_stream"),
    (r"mapping values are not allowed in this context", "mapping_values"),
    (r"did not find expected key", "expected_key"),
    (r"found character that cannot start any token", "bad_character"),
    (r"did not find expected ',' or '\]'", "expected_sequence_end"),
    (r"did not find expected ',' or '\}'", "expected_mapping_end"),
    (r"found unknown escape character", "unknown_escape"),
    (r"could not find expected ':'", "expected_colon"),
    (r"but found another document", "another_document"),
    (r"second occurrence", "second_occurrence"),
    (r"found undefined alias", "undefined_alias"),
    (r"found undefined tag handle", "undefined_tag_handle"),
    (r"did not find expected comment or line break", "expected_line_break"),
    (r"found unknown directive name", "unknown_directive"),
    (r"found incompatible YAML document", "incompatible_document"),
    (r"did not find expected alphabetic or numeric character", "expected_alphanumeric"),
    (r"did not find expected '-' indicator", "expected_dash"),
    (r"did not find expected <document start>", "expected_document_start"),
    (r"did not find expected node content", "expected_node"),
    (r"did not find the expected '>'", "expected_angle"),
    (r"did not find URI escaped octet", "bad_uri_escape"),
    (r"found a tab character that violates indentation", "tab_indentation"),
    (r"found a tab character where an indentation space is expected", "tab_indentation_space"),
    (r'unacceptable character #x(?P<code>[0-9a-fA-F]+): control characters are not allowed\n'
     r'  in "<unicode string>", position (?P<position>\d+)', "control_character"),
    # problems (PyYAML's own parser, without libyaml)
    (r"mapping values are not allowed here", "mapping_values_here"),
    (r"found character (?P<char>.+) that cannot start any token", "bad_character_found"),
    (r"expected <block end>, but found (?P<found>.+)", "expected_block_end"),
    (r"expected ',' or '\]', but got (?P<found>.+)", "expected_sequence_end_got"),
    (r"expected ',' or '\}', but got (?P<found>.+)", "expected_mapping_end_got"),
    (r"expected the node content, but found (?P<found>.+)", "expected_node_found"),
    (r"found unknown escape character (?P<char>.+)", "unknown_escape_found"),
    (r'unacceptable character #x(?P<code>[0-9a-fA-F]+): special characters are not allowed\n'
     r'  in "<unicode string>", position (?P<position>\d+)', "special_character"),
    (r"found undefined alias (?P<alias>.+)", "undefined_alias_named"),
    (r"found undefined tag handle (?P<handle>.+)", "undefined_tag_handle_named"),
    (r"expected chomping or indentation indicators, but found (?P<found>.+)", "expected_block_indicator"),
    (r"found incompatible YAML document \(version 1\.\* is required\)", "incompatible_document_version"),
    (r"expected alphabetic or numeric character, but found (?P<found>.+)", "expected_alphanumeric_found"),
    (r"expected '<document start>', but found (?P<found>.+)", "expected_document_start_found"),
    (r"expected '>', but found (?P<found>.+)", "expected_angle_found"),
    (r"expected URI escape sequence of 2 hexadecimal numbers, but found (?P<found>.+)", "bad_uri_escape_found"),
    # problems of the constructor (unsafe or unknown tags)
    (r"could not determine a constructor for the tag (?P<tag>.+)", "no_constructor"),
    (r"found unhashable key", "unhashable_key"),
    (r"expected a mapping node, but found (?P<found>\w+)", "expected_mapping_node"),
    (r"expected a sequence, but found (?P<found>\w+)", "expected_sequence"),
    (r"expected a mapping of length 1, but found (?P<found>\w+)", "expected_pair"),
    # the constructs an error happened in
    (r"a quoted scalar", "quoted_scalar"),
    (r"a double-quoted scalar", "double_quoted_scalar"),
    (r"a plain scalar", "plain_scalar"),
    (r"a block scalar", "block_scalar"),
    (r"a block mapping", "block_mapping"),
    (r"a block collection", "block_collection"),
    (r"a flow sequence", "flow_sequence"),
    (r"a flow mapping", "flow_mapping"),
    (r"a flow node", "flow_node"),
    (r"a node", "node"),
    (r"a simple key", "simple_key"),
    (r"a directive", "directive"),
    (r"an anchor", "anchor"),
    (r"an alias", "alias"),
    (r"a tag", "tag"),
    (r"for the next token", "next_token"),
    (r"expected a single document in the stream", "single_document"),
    (r"found duplicate anchor; first occurrence", "duplicate_anchor"),
    (r"found duplicate anchor (?P<anchor>.+); first occurrence", "duplicate_anchor_named"),
))


NODE_KINDS = frozenset({"scalar", "sequence", "mapping"})  # what the constructor "found", worded too


def yaml_wording(text: str) -> Wording:
    """What PyYAML said (a problem, or the construct it was in), as a wording of ``YAML_TEXTS``;
    a text not listed there is said untranslated."""
    for pattern, key in YAML_TEXTS:
        match = pattern.fullmatch(text)
        if match:
            values = {name: Wording(f"problem.yaml.node.{value}") if value in NODE_KINDS else value
                      for name, value in match.groupdict().items()}
            return Wording(f"problem.yaml.says.{key}", **values)
    return Wording.untranslated(text)


def _syntax_problem(error: yaml.MarkedYAMLError) -> YamlProblem:
    """The problem at the line that causes it. An error found only at the end of the file
    (an unclosed quote) is caused where the unclosed thing starts, libyaml's context mark,
    not the last line where libyaml gave up; other errors are where they are found, with
    the line their construct starts on said too."""
    problem, context = error.problem or "", re.sub(r"^while (scanning|parsing) ", "", error.context or "")
    found = _mark_line(error.problem_mark) if error.problem_mark is not None else None
    start = _mark_line(error.context_mark) if error.context_mark is not None else None
    if start is None or found is None:
        return YamlProblem(found or start or 1,
                           Wording("problem.yaml.invalid", problem=yaml_wording(problem or context)))
    if "end of stream" in problem:
        return YamlProblem(start, Wording("problem.yaml.not_closed", context=yaml_wording(context), start=start,
                                          problem=yaml_wording(problem)))
    return YamlProblem(found, Wording("problem.yaml.invalid_in", problem=yaml_wording(problem),
                                      context=yaml_wording(context), start=start))


def check_nesting(text: str) -> None:
    """Raise ``YamlProblem`` at the first collection nested deeper than ``MAX_DEPTH``."""
    _check_events(text, aliases=False)


def node_bound(text: str) -> int:
    """An upper bound on the nodes of ``text``'s document, from its characters alone.

    Besides the root, every node is a block sequence's item (after a ``-``), a flow
    collection's entry (after its ``[``, ``{`` or a ``,``; at most a one-pair mapping, 3 nodes)
    or a key and its value (at a ``:`` or ``?``). Quoted text holding these only raises the bound.
    """
    return (1 + text.count("-") + 2 * (text.count(":") + text.count("?"))
            + 3 * (text.count(",") + text.count("[") + text.count("{")))


def count_nodes(text: str, limit: int) -> int:
    """The nodes of ``text`` (scalars, collections and aliases), counted up to ``limit + 1``:
    from the characters when they bound it by ``limit``, else on libyaml's events, which
    build no node. A text that does not parse counts what came before its error, one nested
    too deep what came before its deepest collection (``parse_yaml`` refuses it for that)."""
    bound = node_bound(text)
    if bound <= limit:
        return bound
    nodes = depth = 0
    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            if isinstance(event, _NODES):
                nodes += 1
                if nodes > limit:
                    break
            if isinstance(event, _STARTS):
                depth += 1
                if depth > MAX_DEPTH:
                    break  # refused for its nesting before anything is built
            elif isinstance(event, _ENDS):
                depth -= 1
    except yaml.YAMLError:
        pass  # the real parse reports it
    return nodes


def _check_events(text: str, aliases: bool, max_nodes: int | None = None) -> None:
    """One pass of libyaml's event parser, only when needed: refuse nesting deeper than
    ``MAX_DEPTH`` (unless the characters already prove it shallow), more than ``max_nodes``
    nodes (unless the characters bound them) and, when ``aliases``, any alias (they can blow
    up into billions of nodes, "billion laughs"; content needs none).

    The event parser keeps its state on the heap, so it is safe on any nesting; the
    composer that builds nodes from the events is not, and runs only after this. Events
    cost about a twentieth of a node, so counting them bounds a hostile file's cost.
    """
    with _memo_lock:
        deep = text not in _shallow
    deep = deep and not _surely_shallow(text)
    many = max_nodes is not None and node_bound(text) > max_nodes
    if not (deep or aliases or many):
        return
    depth = nodes = 0
    limit = max_nodes if max_nodes is not None and many else -1
    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            if isinstance(event, _NODES):
                nodes += 1
                if nodes == limit + 1:
                    raise YamlProblem(_mark_line(event.start_mark), Wording("problem.yaml.too_many_nodes",
                                                                            limit=f"{limit:,}"))
            if isinstance(event, _STARTS):
                depth += 1
                if deep and depth > MAX_DEPTH:
                    raise YamlProblem(_mark_line(event.start_mark), Wording("problem.yaml.nesting", depth=MAX_DEPTH))
            elif isinstance(event, _ENDS):
                depth -= 1
            elif aliases and isinstance(event, yaml.AliasEvent):
                raise YamlProblem(_mark_line(event.start_mark), Wording("problem.yaml.aliases"))
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
