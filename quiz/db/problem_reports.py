"""Problem reports: a trainee says a card is wrong or unclear; a supervisor resolves it.

A report stores what the trainee saw and answered (the content fingerprint, a variant card's
drawn values, the chosen parts, and the stored attempt when it is found), so an author can
see the case again. A report never changes a grade: correcting a card is a content change,
and ``quiz.db.regrade`` re-grades the answers under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Mapping

from sqlalchemy import ColumnElement, Select, func, insert, select, update

from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import REPORT_TEXT_MAX, attempts, problem_reports, trainees
from quiz.model.attempt import AttemptRecord, utc_now
from quiz.model.errors import ReportError

if TYPE_CHECKING:  # the practice page, which files reports, loads without pandas
    import pandas as pd

REASONS: tuple[str, ...] = ("key_wrong", "unclear", "languages_differ", "other")
R = problem_reports.c
REPORT_COLUMNS = (
    "id", "card_id", "trainee", "reason", "text", "answer", "variant_values", "content_fingerprint", "attempt_id",
    "created_at", "resolved", "resolution", "resolved_at",
)


@dataclass(frozen=True, slots=True)
class ProblemReport:
    """One stored report."""

    id: int
    trainee_id: int
    card_id: str
    reason: str
    text: str
    content_fingerprint: str | None
    variant_values: dict[str, Any] | None
    answer: dict[str, Any]
    attempt_id: int | None
    created_at: datetime
    resolved: bool = False
    resolution: str | None = None
    resolved_at: datetime | None = None


def given_answer(record: AttemptRecord) -> dict[str, Any]:
    """What the trainee chose, as plain JSON data (only the parts the card asks)."""
    if record.card_kind == "scenario":
        return {"infraction": record.chosen_infraction, "penalty": record.chosen_penalty,
                "fixes": list(record.chosen_fixes), "players": record.chosen_players}
    return {"choice": record.chosen_choice}


def _checked_text(text: str) -> str:
    text = text.strip()
    if len(text) > REPORT_TEXT_MAX:
        raise ReportError("too_long", f"a report's text holds at most {REPORT_TEXT_MAX} characters, got {len(text)}")
    return text


def file_report(
    store: Store, record: AttemptRecord, reason: str, text: str = "", now: datetime | None = None
) -> ProblemReport:
    """Store the report of the trainee who gave ``record`` on its card; the report as stored.

    Raises:
        ReportError: ``reason`` is not one of ``REASONS``, or ``text`` is longer than
            ``REPORT_TEXT_MAX`` characters (after stripping).
    """
    if reason not in REASONS:
        raise ReportError("reason", f"reason {reason!r} is not one of {REASONS}")
    values: dict[str, Any] = dict(
        trainee_id=record.trainee_id, card_id=record.card_id, reason=reason, text=_checked_text(text),
        content_fingerprint=record.content_fingerprint, variant_values=record.variant_values,
        answer=given_answer(record), created_at=now or utc_now(), resolved=False,
    )
    with store.engine.begin() as conn:
        values["attempt_id"] = conn.execute(_stored_attempt(record)).scalar_one_or_none()
        report_id = inserted_id(conn.execute(insert(problem_reports).values(**values)))
    return ProblemReport(id=report_id, **values)


def _stored_attempt(record: AttemptRecord) -> Select[tuple[int]]:
    """The id of the stored attempt ``record`` is: an exam question's answer that counted (its
    first; exam results grade it again, at a new time), else the attempt given at that moment."""
    query = select(attempts.c.id).where(attempts.c.trainee_id == record.trainee_id,
                                        attempts.c.card_id == record.card_id)
    if record.exam_id is not None:
        return query.where(attempts.c.exam_id == record.exam_id).order_by(attempts.c.id).limit(1)
    return query.where(attempts.c.answered_at == record.answered_at).order_by(attempts.c.id.desc()).limit(1)


def resolve_report(store: Store, report_id: int, note: str, now: datetime | None = None) -> ProblemReport:
    """Mark a report resolved with the supervisor's ``note`` (a resolved one gets the new note).

    Raises:
        ReportError: no such report, or a note longer than ``REPORT_TEXT_MAX`` characters.
    """
    note = _checked_text(note)
    with store.engine.begin() as conn:
        changed = conn.execute(
            update(problem_reports).where(R.id == report_id)
            .values(resolved=True, resolution=note, resolved_at=now or utc_now())
        ).rowcount
    if not changed:
        raise ReportError("unknown", f"no problem report {report_id}")
    found = get_report(store, report_id)
    assert found is not None
    return found


def get_report(store: Store, report_id: int) -> ProblemReport | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(problem_reports).where(R.id == report_id)).mappings().one_or_none()
    return None if row is None else _report(row)


def card_reports(store: Store, card_id: str) -> list[ProblemReport]:
    """Every report on a card, oldest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(problem_reports).where(R.card_id == card_id).order_by(R.id)).mappings().all()
    return [_report(row) for row in rows]


def reports_frame(store: Store, open_only: bool = False, card_id: str | None = None) -> pd.DataFrame:
    """Reports with the reporting trainee's name (``REPORT_COLUMNS``), newest first."""
    clauses: list[ColumnElement[bool]] = [R.resolved.is_(False)] if open_only else []
    if card_id is not None:
        clauses.append(R.card_id == card_id)
    query = (
        select(R.id, R.card_id, trainees.c.name.label("trainee"), R.reason, R.text, R.answer, R.variant_values,
               R.content_fingerprint, R.attempt_id, R.created_at, R.resolved, R.resolution, R.resolved_at)
        .join(trainees, trainees.c.id == R.trainee_id)
        .where(*clauses)
        .order_by(R.created_at.desc(), R.id.desc())
    )
    with store.engine.connect() as conn:
        rows = [tuple(row) for row in conn.execute(query)]
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(REPORT_COLUMNS))
    for column in ("created_at", "resolved_at"):
        frame[column] = pd.to_datetime(frame[column], utc=True)
    return frame


def _report(row: Mapping[Any, Any]) -> ProblemReport:  # a RowMapping
    return ProblemReport(**{name: row[name] for name in ProblemReport.__dataclass_fields__})


def reports_version(store: Store) -> tuple[int, int, str]:
    """The newest report's id, how many are resolved and the latest resolution's time: it
    changes with every report filed or resolved."""
    with store.engine.connect() as conn:
        newest, resolved, latest = conn.execute(
            select(func.max(R.id), func.count(R.resolved_at), func.max(R.resolved_at))
        ).one()
    return int(newest or 0), int(resolved or 0), str(latest or "")


def answer_text(answer: Mapping[str, Any] | None) -> str:
    """A stored answer as one line: ``penalty: warning; fixes: a, b`` (parts not given left out)."""
    if not answer:
        return ""
    parts = []
    for name, value in answer.items():
        if isinstance(value, list):
            value = ", ".join(map(str, value))
        if value not in (None, ""):
            parts.append(f"{name}: {value}")
    return "; ".join(parts)
