"""Locating a file's problems costs one parse of it, however many problems it has.

Each problem's line used to come from composing the whole file again: 300 invalid cards
(38 KB) took 92 s to check, 1,000 did not finish in 17 minutes. Parses are counted (a
wrapper around ``yaml.compose``, what ``locate`` builds its node tree with), never timed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import quiz.content.packs as content_pack
from quiz.content import yaml_source
from quiz.content.loader import RULESETS_DIR, load_content
from quiz.content.packs import check_pack
from quiz.content.uploads import UploadLimits
from tests.pack_files import SCENARIO, zip_of

INVALID_CARD = """\
  - id: bad-{n}
    kind: scenario
    ruleset: yugioh-ocg
    title: {{ja: "t{n}", en: "t{n}"}}
    infraction: tardiness
    colour: red
    style: exam
"""
LINES_PER_CARD = INVALID_CARD.count("\n")


def invalid_cards(count: int) -> str:
    """``count`` cards, each with an unknown field and missing ones (3 problems a card)."""
    return "cards:\n" + "".join(INVALID_CARD.format(n=n) for n in range(count))


def valid_cards(first: int, count: int) -> str:
    """``count`` valid scenario cards in one file, ids ``pack-late-<first>`` and on."""
    body = "".join(SCENARIO.format(id=f"pack-late-{n}").split("\n", 1)[1] for n in range(first, first + count))
    return "cards:\n" + body


@pytest.fixture
def compositions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every node-tree parse of a text (``yaml.compose``), recorded as the text's length."""
    calls: list[int] = []
    compose = yaml.compose

    def counted(stream, *args, **kwargs):
        calls.append(len(stream))
        return compose(stream, *args, **kwargs)

    monkeypatch.setattr(yaml, "compose", counted)
    yaml_source._trees.clear()  # noqa: SLF001 - a file located by an earlier test must be parsed again
    return calls


def test_a_thousand_invalid_cards_are_located_with_one_parse(tmp_path: Path, compositions: list[int]):
    folder = tmp_path / "scenarios" / "yugioh-ocg"
    folder.mkdir(parents=True)
    text = invalid_cards(1000)
    (folder / "bad.yaml").write_text(text, encoding="utf-8")
    content = load_content(RULESETS_DIR, [tmp_path / "scenarios"], tmp_path)
    assert content.cards == {}
    assert len(content.problems) >= 1000
    assert compositions == [len(text)]  # before: one parse per problem (4,000 here)
    unknown = [p for p in content.problems if p.field.endswith(".colour")]
    assert len(unknown) == 1000
    for problem in unknown:  # every line still right: card n's "colour" is its sixth line
        n = int(problem.field.split("[")[1].split("]")[0])
        assert problem.line == 2 + n * LINES_PER_CARD + 5, problem


def test_doubling_the_problems_does_not_add_parses(tmp_path: Path, compositions: list[int]):
    counts = []
    for cards in (250, 500):
        folder = tmp_path / f"x{cards}" / "scenarios" / "yugioh-ocg"
        folder.mkdir(parents=True)
        (folder / "bad.yaml").write_text(invalid_cards(cards), encoding="utf-8")
        before = len(compositions)
        content = load_content(RULESETS_DIR, [folder.parent], folder.parent.parent)
        assert len(content.problems) >= cards
        counts.append(len(compositions) - before)
    assert counts == [1, 1]


def test_a_pack_of_invalid_cards_is_checked_with_one_parse_per_file(tmp_path: Path, compositions: list[int]):
    data = zip_of({"a.yaml": invalid_cards(200), "b.yaml": invalid_cards(200).replace("bad-", "worse-")})
    report = check_pack("bad.zip", data, tmp_path / "content")
    assert not report.ok and len([p for p in report.problems if p.field.endswith(".colour")]) == 400
    assert len(compositions) == 2


def test_a_pack_whose_ids_are_all_taken_is_located_in_one_parse(tmp_path: Path, compositions: list[int],
                                                                 monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "content"
    text = valid_cards(0, 300)
    pack = text.encode("utf-8")
    (folder / "first" / "yugioh-ocg").mkdir(parents=True)
    (folder / "first" / "yugioh-ocg" / "first.yaml").write_text(text, encoding="utf-8")  # the same ids, held
    parses = []
    parse_yaml = content_pack.parse_yaml
    monkeypatch.setattr(content_pack, "parse_yaml", lambda text: parses.append(len(text)) or parse_yaml(text))
    report = check_pack("again.yaml", pack, folder)  # the same 300 ids again
    assert len(report.problems) == 300 and all("already used by" in p.message for p in report.problems)
    assert report.problems[299].line == text.splitlines().index("  - id: pack-late-299") + 1
    assert len(compositions) == 1
    # The upload's text: read once, its ids once, and the imported copy once; before: once more per card.
    assert 1 <= parses.count(len(text)) <= 3


def test_a_pack_over_the_card_limit_is_refused_before_it_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    limit = UploadLimits().cards
    monkeypatch.setattr(content_pack, "load_content", lambda *a, **k: pytest.fail("the pack was checked"))
    data = zip_of({"a.yaml": invalid_cards(limit // 2 + 1), "b.yaml": invalid_cards(limit // 2)})
    report = check_pack("big.zip", data, tmp_path / "content")
    assert [(p.path, p.line, p.field, p.message) for p in report.problems] == [
        ("big.zip", 1, "cards", f"the pack holds {limit + 1} cards; the limit is {limit}: split it into smaller packs"),
    ]
    assert not (tmp_path / "content").exists() or not any((tmp_path / "content").iterdir())


def test_a_pack_at_the_card_limit_is_checked(tmp_path: Path):
    limits = UploadLimits(cards=3)
    report = check_pack("three.yaml", valid_cards(0, 3).encode("utf-8"), tmp_path / "content", limits=limits)
    assert report.ok and len(report.cards) == 3
