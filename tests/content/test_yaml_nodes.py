"""A pack of many small values is refused before PyYAML builds any of it (finding M1).

Before, ``cards: []`` and 100,000 ``kN: N`` lines (1.4 MB) were parsed whole: 3.6 s of the
server's one Python core and +111 MiB per check, before one problem was said.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
import yaml

from quiz.content import yaml_source
from quiz.content.packs import check_pack
from quiz.content.uploads import UploadLimits
from quiz.content.yaml_source import MAX_NODES, count_nodes, node_bound, parse_yaml
from quiz.model.errors import YamlProblem
from quiz.model.safe_yaml import SafeLoader
from tests.pack_files import knowledge, zip_of

HOSTILE = "cards: []\n" + "".join(f"k{i}: {i}\n" for i in range(100_000))


def _nodes(text: str) -> int:
    kinds = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)
    return sum(isinstance(e, kinds) for e in yaml.parse(text, Loader=SafeLoader))


def test_the_hostile_pack_is_refused_before_anything_is_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    built = []
    monkeypatch.setattr(yaml_source, "safe_load", lambda text: built.append(text))
    started = time.perf_counter()
    report = check_pack("many.yaml", HOSTILE.encode(), tmp_path / "content")
    seconds = time.perf_counter() - started
    assert [p.wording.key for p in report.problems] == ["problem.pack.too_many_nodes"]
    assert str(report.problems[0]).startswith("many.yaml:1: cards: the pack holds more than 60,000 YAML")
    assert not built and not report.cards
    assert seconds < 1.0, seconds  # before: 3.6 s (events are counted only up to the limit: about 0.1 s)


def test_the_budget_is_the_packs_not_each_files(tmp_path: Path):
    half = "cards: []\n" + "".join(f"k{i}: {i}\n" for i in range(20_000))  # 40,003 nodes each
    report = check_pack("pack.zip", zip_of({"a.yaml": half, "b.yaml": half}), tmp_path / "content")
    assert [p.wording.key for p in report.problems] == ["problem.pack.too_many_nodes"]
    small = check_pack("pack.zip", zip_of({"a.yaml": half, "good.yaml": knowledge()}), tmp_path / "content",
                       limits=UploadLimits(nodes=100_000))
    assert "problem.pack.too_many_nodes" not in [p.wording.key for p in small.problems]


def test_a_file_over_the_node_limit_is_refused_at_the_node_that_passes_it():
    with pytest.raises(YamlProblem) as refused:
        parse_yaml(HOSTILE)
    assert refused.value.line == 25_000  # line 1 holds 3 nodes, every other line a key and its value
    assert refused.value.wording.key == "problem.yaml.too_many_nodes"
    assert parse_yaml("a: [1, 2, 3]\n", max_nodes=6) == {"a": [1, 2, 3]}
    with pytest.raises(YamlProblem):
        parse_yaml("a: [1, 2, 3]\n", max_nodes=5)


def test_the_character_bound_never_undercounts():
    rng = random.Random(23)
    pieces = ["- ", "? ", ": ", "a: ", "[", "{", "]", "}", ", ", "x", " ", "  ", "\n", "\n  ", "\n- ",
              '"a, b"', "'[x]'", "[a]", "{a: b}", "{a}", "[a: b]", "# :,\n", "!t ", "&x ", "*x"]
    checked = 0
    for _ in range(6_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        try:
            nodes = _nodes(text)
        except yaml.YAMLError:
            continue
        checked += 1
        assert node_bound(text) >= nodes, text
        assert count_nodes(text, 10**6) >= nodes
        assert count_nodes(text, 0) >= min(nodes, 1)
    assert checked > 200


def test_the_shipped_content_is_far_below_the_limit(content_root: Path = Path(".")):
    for path in [*Path("scenarios").rglob("*.yaml"), *Path("rulesets").rglob("*.yaml")]:
        assert _nodes(path.read_text(encoding="utf-8")) < MAX_NODES // 10, path
