"""Loading content: rulesets and card files, validated, with every problem located.

One broken file never stops the rest: its problems are collected and everything else
loads. Problems read ``path:line: field: message``.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Sequence

from pydantic import TypeAdapter, ValidationError

from quiz.content.card_kinds import cards_of, check_card
from quiz.content.collector_pause import collector_paused
from quiz.content.ruleset_checks import Finding, check_ruleset
from quiz.content.schema_problems import located_problems, pydantic_findings
from quiz.content.yaml_source import YamlProblem, parse_yaml
from quiz.model.cards import (
    CARD_KINDS,
    AnyCard,
    Card,
    FloorCallCard,
    JudgementCallCard,
    KnowledgeCard,
    ScenarioCard,
)
from quiz.model.errors import Problem, unknown_id
from quiz.model.rulesets import Ruleset
from quiz.model.themes import Theme, ThemeFile
from quiz.model.words import Wording

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RULESETS_DIR = PROJECT_ROOT / "rulesets"
SCENARIOS_DIR = PROJECT_ROOT / "scenarios"
SOURCES_DIR_NAME = "sources"
THEMES_FILE = Path("themes") / "comparison.yaml"
CARD_ADAPTER: TypeAdapter = TypeAdapter(Card)
UNKNOWN_FIELD = Wording("problem.schema.extra_forbidden")
DUPLICATE_CARD_ID = "problem.card.duplicate_id"  # its ``first_in``: the file that holds the card id first


@dataclass
class Content:
    """Everything that loaded, and every problem found on the way."""

    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    cards: dict[str, AnyCard] = field(default_factory=dict)
    card_files: dict[str, str] = field(default_factory=dict)
    themes: list[Theme] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # card id -> the store whose pack holds it (only that store's trainees draw it); a card not
    # here is every store's (shipped, local, or a pack of no store): see ``quiz.content.stored``
    card_stores: dict[str, int] = field(default_factory=dict)
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        """A value derived from this content, computed once."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @property
    def scenario_cards(self) -> list[ScenarioCard]:
        return cards_of(self.cards.values(), ScenarioCard)

    @property
    def knowledge_cards(self) -> list[KnowledgeCard]:
        return cards_of(self.cards.values(), KnowledgeCard)

    @property
    def judgement_calls(self) -> list[JudgementCallCard]:
        return cards_of(self.cards.values(), JudgementCallCard)

    @property
    def floor_calls(self) -> list[FloorCallCard]:
        return cards_of(self.cards.values(), FloorCallCard)

    def fingerprint(self) -> str:
        """What the content teaches, in 16 hex digits: every ruleset (with its document's
        lines) and every card. Equal content gives equal fingerprints wherever it loads;
        answers store it so that they can be re-graded when the content changes."""
        return self.memo(FINGERPRINT_MEMO, lambda: content_fingerprint(self.rulesets.values(), self.cards.values()))

    def summary(self) -> str:
        infractions = sum(len(r.infractions) for r in self.rulesets.values())
        return (
            f"{len(self.rulesets)} rulesets, {infractions} infractions, "
            f"{len(self.scenario_cards)} scenario cards, {len(self.floor_calls)} floor calls, "
            f"{len(self.knowledge_cards)} knowledge cards, "
            f"{len(self.judgement_calls)} judgement calls, "
            f"{len(self.problems)} errors"
        )


def load_content(
    rulesets_dir: Path = RULESETS_DIR,
    card_paths: Sequence[Path] = (SCENARIOS_DIR,),
    base: Path = PROJECT_ROOT,
) -> Content:
    """Load every ruleset in ``rulesets_dir`` and every card file under ``card_paths`` (with
    the garbage collector paused: ``collector_pause``)."""
    with collector_paused():
        return _load_content(rulesets_dir, card_paths, base)


def _load_content(rulesets_dir: Path, card_paths: Sequence[Path], base: Path) -> Content:
    content = Content()
    broken_rulesets = 0
    for path in sorted(rulesets_dir.glob("*.yaml")):
        ruleset = _load_ruleset(path, base, content.problems)
        broken_rulesets += ruleset is None
        if ruleset is not None:
            if ruleset.id in content.rulesets:
                content.problems.append(Problem(shown_path(path, base), 1, "id", Wording(
                    "problem.ruleset.duplicate", ruleset=repr(ruleset.id))))
            else:
                content.rulesets[ruleset.id] = ruleset
    themes = rulesets_dir / THEMES_FILE
    if themes.is_file():
        _load_themes(themes, base, content, report_unknown_rulesets=not broken_rulesets)
    for path in card_files(card_paths):
        _load_card_file(path, base, content)
    return content


FINGERPRINT_MEMO = "content_fingerprint"


def content_fingerprint(rulesets: Iterable[Ruleset], cards: Iterable[AnyCard]) -> str:
    """sha256 over the canonical JSON of the rulesets, their source lines and the cards (without
    ``retired``: retiring a card changes no answer's grade)."""
    digest = hashlib.sha256()
    for ruleset in sorted(rulesets, key=lambda r: r.id):
        digest.update(ruleset.model_dump_json(by_alias=True).encode("utf-8"))
        digest.update("\n".join(ruleset.source_lines).encode("utf-8"))
    for card in sorted(cards, key=lambda c: c.id):
        digest.update(card.model_dump_json(by_alias=True, exclude={"retired"}).encode("utf-8"))
    return digest.hexdigest()[:16]


def fingerprint(paths: Iterable[Path], suffixes: tuple[str, ...] = (".yaml", ".txt")) -> tuple:
    """Path, size and modification time of every file with one of ``suffixes`` below ``paths``."""
    stamps = []
    for path in paths:
        stack = [str(path)]
        while stack:
            current = stack.pop()
            try:
                entries = list(os.scandir(current))
            except NotADirectoryError:
                info = os.stat(current)
                stamps.append((current, info.st_size, info.st_mtime_ns))
                continue
            except FileNotFoundError:
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith(suffixes):
                    info = entry.stat()
                    stamps.append((entry.path, info.st_size, info.st_mtime_ns))
    return tuple(sorted(stamps))


def card_files(paths: Iterable[Path]) -> list[Path]:
    """The YAML files named, and those under the folders named, in a stable order.

    Hidden files and folders (a name starting with ``.``) under a folder are skipped: a
    content pack is staged in one until it has been validated.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(_yaml_below(path))
        elif path.exists():
            found.append(path)
    return found


def _yaml_below(folder: Path) -> list[Path]:
    """The YAML files under ``folder``, never entering a hidden folder (a staging folder may
    be renamed or removed by an import while the walk runs; a folder that vanishes is skipped)."""
    found: list[Path] = []
    for top, folders, files in os.walk(folder, onerror=lambda error: None):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        found += [Path(top) / name for name in files if name.endswith(".yaml") and not name.startswith(".")]
    return found


def shown_path(path: Path, base: Path) -> str:
    """``path`` relative to ``base`` when it lies below it, as problems name files."""
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path)


def read_yaml_file(path: Path, base: Path, problems: list[Problem]) -> tuple[str, Any] | None:
    """The text and safely parsed data of a YAML file, or None with the problem recorded."""
    shown = shown_path(path, base)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        problems.append(Problem(shown, 1, "file", Wording("problem.file.unreadable",
                                                          error=Wording.untranslated(str(error)))))
        return None
    try:
        return text, parse_yaml(text)
    except YamlProblem as error:
        problems.append(Problem(shown, error.line, "yaml", error.wording))
        return None


def _load_ruleset(path: Path, base: Path, problems: list[Problem]) -> Ruleset | None:
    read = read_yaml_file(path, base, problems)
    if read is None:
        return None
    text, data = read
    shown = shown_path(path, base)
    try:
        ruleset = Ruleset.model_validate(data)
    except ValidationError as error:
        problems += located_problems(shown, text, (), pydantic_findings(error))
        return None
    source = path.parent / SOURCES_DIR_NAME / ruleset.document.source_file
    source_lines: list[str] | None = None
    if source.is_file():
        source_lines = source.read_text(encoding="utf-8").splitlines()
        ruleset.attach_source(source_lines)
    else:
        problems += located_problems(shown, text, (), [(("document", "source_file"),
                                                        Wording("problem.ruleset.no_source", file=source))])
    findings = check_ruleset(ruleset, source_lines)
    if findings:
        problems += located_problems(shown, text, (), findings)
        return None
    return ruleset


def _load_card_file(path: Path, base: Path, content: Content) -> None:
    read = read_yaml_file(path, base, content.problems)
    if read is None:
        return
    text, data = read
    _load_cards(shown_path(path, base), text, data, path.parent.name, content)


def add_card_text(content: Content, shown: str, text: str) -> list[str]:
    """Load the cards of one card file's ``text`` into ``content`` as a file at ``shown``
    (``.../<ruleset id>/<file>.yaml``: a pack kept in the database), with every problem
    recorded as for a file on disk; the ids of the cards added."""
    try:
        data = parse_yaml(text)
    except YamlProblem as error:
        content.problems.append(Problem(shown, error.line, "yaml", error.wording))
        return []
    return _load_cards(shown, text, data, PurePosixPath(shown).parent.name, content)


def _load_cards(shown: str, text: str, data: Any, folder: str, content: Content) -> list[str]:
    """The cards of one file's data into ``content``; the ids of those that loaded."""
    added: list[str] = []
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        content.problems.append(Problem(shown, 1, "cards", Wording("problem.card_file.not_cards")))
        return added
    extra = [key for key in data if key != "cards"]
    if extra:
        content.problems += located_problems(shown, text, (), [((extra[0],), UNKNOWN_FIELD)])
    for index, raw in enumerate(data["cards"]):
        prefix = ("cards", index)
        try:
            card = CARD_ADAPTER.validate_python(raw)
        except ValidationError as error:
            content.problems += located_problems(shown, text, prefix, pydantic_findings(error))
            # an unknown field changes no meaning: check the rest of the card too, so that an
            # author sees every problem at once
            content.problems += located_problems(shown, text, prefix, _checks_without_unknown_fields(
                raw, error, content.rulesets, folder))
            continue
        if card.id in content.cards:
            where = content.card_files[card.id]
            content.problems += located_problems(
                shown, text, prefix, [(("id",), Wording(DUPLICATE_CARD_ID, id=repr(card.id), first_in=where))]
            )
            continue
        findings = check_card(card, content.rulesets, folder)
        if findings:
            content.problems += located_problems(shown, text, prefix, findings)
            continue
        content.cards[card.id] = card
        content.card_files[card.id] = shown
        added.append(card.id)
    return added


def _checks_without_unknown_fields(
    raw: Any, error: ValidationError, rulesets: dict[str, Ruleset], folder: str | None
) -> list[Finding]:
    """The cross-reference checks of a card whose only schema problems are unknown fields, run
    on the card without them; nothing when any other schema problem remains."""
    unknown = [tuple(item["loc"]) for item in error.errors(include_url=False) if item["type"] == "extra_forbidden"]
    if not unknown or len(unknown) != error.error_count():
        return []
    stripped = _without(raw, [loc[1:] if loc and loc[0] in CARD_KINDS else loc for loc in unknown])
    try:
        card = CARD_ADAPTER.validate_python(stripped)
    except ValidationError:
        return []
    return check_card(card, rulesets, folder)


def _without(data: Any, paths: Iterable[tuple]) -> Any:
    """A copy of nested mappings and lists ``data`` without the keys at ``paths``."""
    if isinstance(data, dict):
        here = {path[0] for path in paths if len(path) == 1}
        return {key: _without(value, [p[1:] for p in paths if len(p) > 1 and p[0] == key])
                for key, value in data.items() if key not in here}
    if isinstance(data, list):
        return [_without(value, [p[1:] for p in paths if len(p) > 1 and p[0] == n]) for n, value in enumerate(data)]
    return data


def _load_themes(path: Path, base: Path, content: Content, report_unknown_rulesets: bool) -> None:
    """The comparison themes; a ruleset that failed to load is left out, not reported again."""
    read = read_yaml_file(path, base, content.problems)
    if read is None:
        return
    text, data = read
    shown = shown_path(path, base)
    try:
        themes = ThemeFile.model_validate(data).themes
    except ValidationError as error:
        content.problems += located_problems(shown, text, (), pydantic_findings(error))
        return
    findings: list[Finding] = []
    for index, theme in enumerate(themes):
        for ruleset_id, ids in theme.infractions.items():
            ruleset = content.rulesets.get(ruleset_id)
            if ruleset is None:
                if report_unknown_rulesets:
                    findings.append((("themes", index, "infractions", ruleset_id), unknown_id("ruleset", ruleset_id)))
                continue
            for n, infraction_id in enumerate(ids):
                if ruleset.infraction(infraction_id) is None:
                    findings.append(
                        (("themes", index, "infractions", ruleset_id, n), unknown_id("infraction", infraction_id))
                    )
    content.problems += located_problems(shown, text, (), findings)
    content.themes = themes if not findings else []
