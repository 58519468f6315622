"""Every error the app raises on purpose, on one base (``QuizError``), each with the typed
fields a caller needs; and ``Problem``, the one shape of a located content problem."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from quiz.model.words import Wording


@dataclass(frozen=True, slots=True)
class Problem:
    """One content problem, located in its file: ``wording`` says it in any language,
    ``message`` in English (the command line, logs)."""

    path: str
    line: int
    field: str
    wording: Wording

    @property
    def message(self) -> str:
        return self.wording.english

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.message}"


def unknown_id(what: str, value: str, known: Iterable[str] | None = None) -> Wording:
    """``unknown fix 'x'``, and ``; known: a, b`` with ``known``: ``what`` names the kind of id
    (its wording is ``problem.what.<what>``)."""
    kind = Wording(f"problem.what.{what}")
    if known is None:
        return Wording("problem.unknown", what=kind, id=repr(value))
    return Wording("problem.unknown_listed", what=kind, id=repr(value), known=", ".join(known))


class QuizError(Exception):
    """Base of every error the core raises on purpose.

    Raised with a ``Wording`` as its message, it can be said in any language (``wording``);
    ``str(error)`` is the English. Raised with a plain text, ``wording`` says that text as
    untranslated.
    """

    def __init__(self, *args: object) -> None:
        message = args[0] if args else ""
        self.wording = message if isinstance(message, Wording) else Wording.untranslated(str(message))
        if args:
            args = (str(message), *args[1:])
        super().__init__(*args)


class UnknownIdError(QuizError, LookupError):
    """A ruleset, infraction, penalty or fix id that does not exist."""


class StepError(QuizError, ValueError):
    """A floor call's step that does not exist, or taken before the steps it follows."""


class FactError(QuizError, ValueError):
    """Facts that are unknown, of the wrong type, or missing; ``fact`` names the fact."""

    def __init__(self, message: str | Wording, fact: str | None = None):
        self.fact = fact
        super().__init__(message)


class UndecidedCaseError(QuizError, ValueError):
    """Facts under which the document decides nothing: the engine refuses rather than guesses.

    ``lines`` are the document's line numbers of the infraction's line; ``reason`` says why
    in both languages (a ``Text``); ``trace`` the branches followed, the refusing one last.
    """

    def __init__(
        self, message: str | Wording, ruleset: str, infraction: str, lines: tuple[int, ...], reason: object,
        trace: tuple[str, ...] = (),
    ):
        self.trace = trace
        self.ruleset = ruleset
        self.infraction = infraction
        self.lines = lines
        self.reason = reason
        super().__init__(message)


class ConditionError(QuizError, ValueError):
    """A condition that cannot be parsed; ``path`` locates it inside the condition."""

    def __init__(self, message: str | Wording, path: tuple[str | int, ...] = ()):
        self.path = path
        super().__init__(message)


class PlaceholderError(QuizError, ValueError):
    """A text whose braces are not a well-formed ``{name}`` placeholder or ``{{``/``}}``."""


class InvalidContentError(QuizError, ValueError):
    """A value a content model's validator refuses (pydantic reports it as a ``value_error``
    whose ``ctx["error"]`` is this error, wording and all)."""


class YamlProblem(QuizError, ValueError):
    """A file that is not safe, well-formed YAML; ``line`` is 1-based, ``wording`` says why
    (``message`` in English); ``str()`` names the line too."""

    def __init__(self, line: int, wording: Wording):
        self.line = line
        self.message = wording.english
        super().__init__(f"line {line}: {self.message}")
        self.wording = wording


class SchemaVersionError(QuizError, RuntimeError):
    """The database was written by a newer version of the app than this one."""


class NameRuleError(QuizError, ValueError):
    """A name refused for a new trainee; ``rule`` says why: ``length`` (not 1 to 60
    characters), ``invisible`` (a control, format, zero-width or text-direction character) or
    ``mixed_script`` (letters of two alphabets in one word, like Latin and Cyrillic)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class NameTakenError(QuizError, ValueError):
    """A new trainee was given a name that already has an account (also in another case,
    width or spacing)."""


class PinRuleError(QuizError, ValueError):
    """A PIN refused; ``rule`` names why (``too_short``, ``too_long``, or ``weak`` for a new PIN)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class TimeZoneError(QuizError, ValueError):
    """A name that is not an IANA time zone."""


class ExamInProgressError(QuizError):
    """The trainee already has an exam running; it must be handed in (or run out) first."""


class CredentialChangedError(QuizError):
    """The trainee's PIN was changed (in another session) since this session signed in:
    nothing was written for it, and the session is to be signed out."""


class AnswerLostError(QuizError):
    """An answer graded but not stored: the database failed while storing it (raised from that
    failure, ``__cause__``), so nothing of it was kept and it can be sent again."""


class ReportError(QuizError, ValueError):
    """A problem report or resolution refused; ``rule`` names why (``reason`` not one of the
    reasons, ``too_long`` text, ``unknown`` report)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class ReportLimitError(ReportError):
    """A problem report refused by the limits on filing: ``rule`` is ``open`` (the trainee has
    report ``open_id`` open on the card), ``rate`` (too many in the last minutes) or ``daily``."""

    def __init__(self, rule: str, message: str, open_id: int | None) -> None:
        self.open_id = open_id
        super().__init__(rule, message)


class GoalError(QuizError, ValueError):
    """A daily goal outside the allowed range (``quiz.db.goals.GOAL_RANGE``)."""


class ExamDateError(QuizError, ValueError):
    """An exam date refused: a day outside the range an exam can be on, or a game not offered."""


class OutOfScopeError(QuizError, PermissionError):
    """A supervisor asked for a row of a store their account does not see."""


class AccountError(QuizError, ValueError):
    """A supervisor account or store refused; ``rule`` names why (``role``, ``store``,
    ``password_short``, ``password_long``, ``unknown``, ``last_admin``, ``oidc``)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class JoinCodeError(QuizError, ValueError):
    """A join code refused; ``rule`` names why (``unknown``, ``expired``, ``revoked``)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class ChangedMeanwhileError(QuizError):
    """A person acted on a row that changed (or went) since they saw it: nothing was done,
    and the page shows the row as it is now (``quiz.db.seen``)."""


class AssignmentError(QuizError, ValueError):
    """An assignment that cannot be made: ``rule`` names why (``empty``, ``mastery``,
    ``title``, ``no_members``, ``store``)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class PdfFontMissingError(QuizError, FileNotFoundError):
    """No Japanese font to embed in a PDF."""


class PackRemovalError(QuizError, ValueError):
    """No pack of that id to remove (never imported, or removed already)."""


class NoticeLost(QuizError, RuntimeError):
    """A PostgreSQL listener's own probe notice did not come back (``quiz.db.notices``)."""
