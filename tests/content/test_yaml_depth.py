"""Deep nesting is refused before libyaml's composer can recurse into it.

The composer recursed once per level without limit: 100,000 ``[`` (100 KB) overflowed the C
stack and killed the process (SIGSEGV) in the loader and in a pack check alike. Each crash
case runs in a subprocess, so that a crash fails the test instead of killing pytest.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR
from quiz.content.yaml_source import MAX_DEPTH, YamlProblem, _surely_shallow, parse_yaml
from quiz.model.safe_yaml import SafeLoader
from tests.pack_files import knowledge, scenario, zip_of

ROOT = Path(__file__).resolve().parents[2]
DEEP = 100_000
NESTED = {  # 100–600 KB, each nested DEEP levels (or more) if the composer were let in
    "flow sequences": "cards:\n  - " + "[" * DEEP + "\n",
    "flow mappings": "{a: " * DEEP,
    "compact block sequences": "- " * DEEP + "x\n",
    "explicit keys": "? " * DEEP + "x\n",
    "sequences behind a line separator": "a:\u2028" + "- " * DEEP + "x\n",
    "quoted brackets": '["]", ' * DEEP,
}


def _max_depth(text: str) -> int:
    depth = deepest = 0
    for event in yaml.parse(text, Loader=SafeLoader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return deepest


def _run(code: str, timeout: float = 120) -> dict:
    """Run ``code`` in a fresh interpreter; its last stdout line is JSON. A crash fails here."""
    result = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
    )
    assert result.returncode == 0, f"exit code {result.returncode} (-11 is SIGSEGV)\n{result.stderr[-2000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_shipped_content_needs_a_small_fraction_of_the_limit():
    files = [*RULESETS_DIR.rglob("*.yaml"), *SCENARIOS_DIR.rglob("*.yaml")]
    deepest = max(_max_depth(path.read_text(encoding="utf-8")) for path in files)
    assert deepest * 4 <= MAX_DEPTH, deepest  # 8 today


@pytest.mark.parametrize("kind", list(NESTED))
def test_deep_nesting_is_a_located_problem_in_a_subprocess(kind, tmp_path):
    source = tmp_path / "deep.yaml"
    source.write_bytes(NESTED[kind].encode("utf-8"))
    found = _run(f"""
        import json
        from pathlib import Path
        from quiz.content.yaml_source import YamlProblem, parse_yaml
        try:
            parse_yaml(Path({str(source)!r}).read_bytes().decode("utf-8"))
            print(json.dumps({{"parsed": True}}))
        except YamlProblem as problem:
            print(json.dumps({{"line": problem.line, "message": problem.message}}))
    """)
    if kind == "quoted brackets":  # not well-formed once the brackets run out: either refusal is fine
        assert "line" in found
        return
    assert found == {"line": 2 if kind.endswith("separator") or kind == "flow sequences" else 1,
                     "message": f"nesting deeper than {MAX_DEPTH}"}


def test_nesting_at_the_limit_loads_and_one_more_level_is_refused():
    assert parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    block = "".join(" " * level + "a:\n" for level in range(MAX_DEPTH - 1)) + " " * (MAX_DEPTH - 1) + "a: 1\n"
    assert _max_depth(block) == MAX_DEPTH and parse_yaml(block)
    with pytest.raises(YamlProblem, match=f"nesting deeper than {MAX_DEPTH}") as refused:
        parse_yaml("x: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert refused.value.line == 1
    deeper = block.replace("a: 1\n", "a:\n" + " " * MAX_DEPTH + "b: 1\n")
    with pytest.raises(YamlProblem, match="nesting deeper") as refused:
        parse_yaml(deeper)
    assert refused.value.line == MAX_DEPTH + 1


def test_a_deep_card_file_in_the_scenarios_folder_is_a_problem_and_the_rest_loads(tmp_path):
    folder = tmp_path / "scenarios" / "yugioh-ocg"
    folder.mkdir(parents=True)
    (folder / "good.yaml").write_text(scenario("good-card"), encoding="utf-8")
    (folder / "deep.yaml").write_text(NESTED["flow sequences"], encoding="utf-8")
    found = _run(f"""
        import json
        from pathlib import Path
        from quiz.content.loader import RULESETS_DIR, load_content
        root = Path({str(tmp_path)!r})
        content = load_content(RULESETS_DIR, [root / "scenarios"], root)
        print(json.dumps({{"cards": sorted(content.cards), "problems": [str(p) for p in content.problems]}}))
    """)
    assert found == {"cards": ["good-card"],
                     "problems": [f"scenarios/yugioh-ocg/deep.yaml:2: yaml: nesting deeper than {MAX_DEPTH}"]}


def test_a_deep_file_in_an_uploaded_pack_is_a_problem_and_the_rest_is_previewed(tmp_path):
    upload = tmp_path / "pack.zip"
    upload.write_bytes(zip_of({"deep.yaml": "- " * DEEP + "x\n", "good.yaml": knowledge()}))
    found = _run(f"""
        import json
        from pathlib import Path
        from quiz.content.packs import check_pack
        upload = Path({str(upload)!r})
        single = check_pack("deep.yaml", b"cards: " + b"[" * {DEEP}, upload.parent / "content")
        report = check_pack("pack.zip", upload.read_bytes(), upload.parent / "content")
        print(json.dumps({{
            "single": [str(p) for p in single.problems],
            "problems": [str(p) for p in report.problems], "cards": [c.card.id for c in report.cards],
        }}))
    """)
    assert found == {
        "single": [f"deep.yaml:1: yaml: nesting deeper than {MAX_DEPTH}"],
        "problems": [f"deep.yaml:1: yaml: nesting deeper than {MAX_DEPTH}"], "cards": ["pack-pkm-k-piles"],
    }


def test_the_pre_scan_only_waves_through_files_that_are_shallow():
    """``_surely_shallow`` lets a file skip the event scan: it must never be wrong."""
    rng = random.Random(17)
    pieces = ["- ", "? ", ": ", "a: ", "[", "{", "]", "}", ", ", "x", " ", "  ", "\n", "\n  ", "\n    - ",
              '"]"', "'['", "[a]", "{a: b}", "# ]\n", "!t ", "&x ", "\t", "\r", "\u2028", "\x85", "\ufeff"]
    checked = 0
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 400)))
        if _surely_shallow(text):
            checked += 1
            try:
                assert _max_depth(text) <= MAX_DEPTH, repr(text)
            except yaml.YAMLError:
                pass
    for text in NESTED.values():
        assert not _surely_shallow(text)
    assert not _surely_shallow("a]]]: " + "[" * 200)  # closing brackets in plain text cannot hide opening ones
    assert not _surely_shallow('["]", ' * 200)
    assert checked > 100
