"""Errors of the core, kept apart so callers can catch them by kind."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One content problem, located in its file."""

    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.message}"


class QuizError(Exception):
    """Base of every error the core raises on purpose."""


class ContentError(QuizError):
    """Content that cannot be loaded; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UnknownIdError(QuizError, LookupError):
    """A ruleset, infraction, penalty or fix id that does not exist."""


class FactError(QuizError, ValueError):
    """Facts that are unknown, of the wrong type, or missing; ``fact`` names the fact."""

    def __init__(self, message: str, fact: str | None = None):
        self.fact = fact
        super().__init__(message)


class UndecidedCaseError(QuizError, ValueError):
    """Facts under which the document decides nothing: the engine refuses rather than guesses.

    ``lines`` are the document's line numbers of the infraction's line; ``reason`` says why
    in both languages (a ``Text``); ``trace`` the branches followed, the refusing one last.
    """

    def __init__(
        self, message: str, ruleset: str, infraction: str, lines: tuple[int, ...], reason: object,
        trace: tuple[str, ...] = (),
    ):
        self.trace = trace
        self.ruleset = ruleset
        self.infraction = infraction
        self.lines = lines
        self.reason = reason
        super().__init__(message)
