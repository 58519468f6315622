"""One answered card, as it is stored: what was chosen, what was right, and when."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Callable

from quiz.model.cards import CARD_KINDS, CardKind
from quiz.model.investigation import InvestigationRecord


class Mode(StrEnum):
    """Where a card was answered: it decides what the answer moves (an exam's waits for its close)."""

    PRACTICE = "practice"
    EXAM = "exam"
    REVIEW = "review"


class PartResult(StrEnum):
    """The mark of one part of an answer (infraction, penalty, fixes, who receives it):
    ``ACCEPTED`` is a penalty the document leaves to the judge, and counts as right."""

    CORRECT = "correct"
    ACCEPTED = "accepted"
    WRONG = "wrong"

    @property
    def right(self) -> bool:
        return self is not PartResult.WRONG


PLAYERS: tuple[str, ...] = ("offender", "both")
MODES: tuple[str, ...] = tuple(mode.value for mode in Mode)
RESULTS: tuple[str, ...] = tuple(result.value for result in PartResult)
RIGHT_RESULTS: tuple[str, ...] = tuple(result.value for result in PartResult if result.right)
RESULT_FIELDS: tuple[str, ...] = ("infraction_result", "penalty_result", "fixes_result")
FIX_FIELDS: tuple[str, ...] = ("chosen_fixes", "standard_fixes")
FIX_SEPARATOR = ","


class SteadyClock:
    """The wall clock, except that it never steps back: between readings it moves on by the
    monotonic clock, and takes the wall clock's time only when that is later (a clock set
    forward, or slewed ahead). A server's clock stepped back 60 minutes used to lengthen a
    running exam by as much and to store answers timed before their exam began; this clock
    keeps counting from where it was."""

    def __init__(self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._wall, self._monotonic = wall, monotonic
        self._lock = threading.Lock()
        self._at, self._mark = wall(), monotonic()

    def __call__(self) -> float:
        """Seconds since the epoch."""
        with self._lock:
            wall, mark = self._wall(), self._monotonic()
            steady = self._at + max(0.0, mark - self._mark)
            self._at, self._mark = max(steady, wall), mark
            return self._at


STEADY = SteadyClock()


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC, from a clock that never steps back (``SteadyClock``)."""
    return datetime.fromtimestamp(STEADY(), UTC)


@dataclass(frozen=True, slots=True)
class FindingRecord:
    """One finding of an answer: the fact, what the trainee found, the card's value, and
    whether it counts as right (an arguable finding always does)."""

    fact: str
    chosen: bool | int | None
    standard: bool | int
    right: bool

    def stored(self) -> dict[str, Any]:
        return {"fact": self.fact, "chosen": self.chosen, "standard": self.standard, "right": self.right}

    @classmethod
    def from_stored(cls, value: dict[str, Any]) -> FindingRecord:
        return cls(str(value["fact"]), value.get("chosen"), value["standard"], bool(value["right"]))


@dataclass(frozen=True, slots=True, kw_only=True)
class AttemptRecord:
    """One answered card.

    Attributes:
        category: infraction category of the standard answer; None for knowledge cards.
        fixes: stored sorted, so two records of the same choice compare equal.
        correct: the whole answer was right (an "accepted" penalty counts as right).
        penalty_steps: ladder rank of the chosen penalty minus that of the standard one;
            negative is too lenient, positive too harsh.
        answered_at: timezone-aware; converted to UTC on construction.
        variant_values: a variant card's drawn values (``quiz.rules.variants.stored_values``).
        content_fingerprint: the content the answer was graded under, for re-grading.
        chosen_players, standard_players, players_result: who receives the penalty, on
            cards that ask it (None elsewhere).
        findings: on a card with findings, one ``FindingRecord`` per finding, in the
            card's order; () elsewhere.
        penalty_follows_findings: when the penalty is wrong on a card with findings,
            whether the engine gives it for the trainee's own findings and infraction
            (misjudged the facts) or not (misapplied the document); None otherwise.
        investigation: on a floor call, what the trainee asked and checked before ruling;
            None elsewhere.
    """

    trainee_id: int
    card_id: str
    ruleset: str
    category: str | None
    card_kind: CardKind
    mode: Mode = Mode.PRACTICE
    chosen_infraction: str | None = None
    standard_infraction: str | None = None
    chosen_penalty: str | None = None
    standard_penalty: str | None = None
    chosen_fixes: tuple[str, ...] = ()
    standard_fixes: tuple[str, ...] = ()
    chosen_choice: str | None = None
    correct_choice: str | None = None
    infraction_result: PartResult | None = None
    penalty_result: PartResult | None = None
    fixes_result: PartResult | None = None
    correct: bool
    penalty_steps: int | None = None
    seconds: float
    answered_at: datetime = field(default_factory=utc_now)
    exam_id: int | None = None
    variant_values: dict[str, Any] | None = None
    content_fingerprint: str | None = None
    chosen_players: str | None = None
    standard_players: str | None = None
    players_result: PartResult | None = None
    findings: tuple[FindingRecord, ...] = ()
    penalty_follows_findings: bool | None = None
    investigation: InvestigationRecord | None = None

    @property
    def blank(self) -> bool:
        """Nothing chosen: an exam question left unanswered, or "I don't know" in practice."""
        return self.chosen_infraction is None and self.chosen_penalty is None and self.chosen_choice is None

    def values(self) -> dict[str, Any]:
        """Field name -> value, the row to store (``dataclasses.asdict`` would copy each
        tuple and dict again, on every answer)."""
        row = {name: getattr(self, name) for name in ATTEMPT_FIELDS}
        for name in ENUM_FIELDS:  # stored as their plain values
            value = row[name]
            row[name] = value.value if value is not None else None
        row["findings"] = [finding.stored() for finding in self.findings] if self.findings else None
        row["investigation"] = self.investigation.stored() if self.investigation is not None else None
        return row

    @classmethod
    def from_row(cls, values: dict[str, Any]) -> AttemptRecord:
        """The record of a stored row (``values()`` read back: findings as stored JSON)."""
        stored = values.get("findings") or ()
        findings = tuple(f if isinstance(f, FindingRecord) else FindingRecord.from_stored(f) for f in stored)
        investigation = values.get("investigation")
        if isinstance(investigation, dict):
            investigation = InvestigationRecord.from_stored(investigation)
        return cls(**{**values, "findings": findings, "investigation": investigation})

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ValueError("invalid attempt: " + "; ".join(problems))
        for name in FIX_FIELDS:
            object.__setattr__(self, name, tuple(sorted(getattr(self, name))))
        object.__setattr__(self, "mode", Mode(self.mode))  # a stored row's strings as their enums
        for name in ENUM_FIELDS[1:]:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, PartResult(value))
        object.__setattr__(self, "answered_at", self.answered_at.astimezone(UTC))


ATTEMPT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AttemptRecord))
ENUM_FIELDS: tuple[str, ...] = ("mode", *RESULT_FIELDS, "players_result")


def _problems(attempt: AttemptRecord) -> list[str]:
    """Every reason the attempt is invalid, gathered so one message names them all."""
    problems = []
    if attempt.card_kind not in CARD_KINDS:
        problems.append(f"card_kind {attempt.card_kind!r} is not one of {CARD_KINDS}")
    if attempt.mode not in MODES:
        problems.append(f"mode {attempt.mode!r} is not one of {MODES}")
    for name in RESULT_FIELDS:
        value = getattr(attempt, name)
        if value is not None and value not in RESULTS:
            problems.append(f"{name} {value!r} is not one of {RESULTS}")
    for name in ("chosen_players", "standard_players"):
        value = getattr(attempt, name)
        if value is not None and value not in PLAYERS:
            problems.append(f"{name} {value!r} is not one of {PLAYERS}")
    if attempt.players_result is not None and attempt.players_result not in RESULTS:
        problems.append(f"players_result {attempt.players_result!r} is not one of {RESULTS}")
    for name in FIX_FIELDS:
        if any(FIX_SEPARATOR in fix or not fix for fix in getattr(attempt, name)):
            problems.append(f"{name} holds an empty fix id or one with {FIX_SEPARATOR!r}")
    if attempt.answered_at.tzinfo is None or attempt.answered_at.utcoffset() is None:
        problems.append("answered_at must be timezone-aware")
    if attempt.seconds < 0:
        problems.append(f"seconds must not be negative, got {attempt.seconds}")
    return problems
