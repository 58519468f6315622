"""Problem reports: a trainee says a card is wrong or unclear; a supervisor resolves it.

A report stores what the trainee saw and answered (the content fingerprint, a variant card's
drawn values, the chosen parts, and the stored attempt when it is found), so an author can
see the case again. A report never changes a grade: correcting a card is a content change,
and ``quiz.db.regrade`` re-grades the answers under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping

from sqlalchemy import ColumnElement, Connection, Select, case, func, insert, select, update

from quiz.db import audit
from quiz.db.scoped import sees_trainee
from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import REPORT_TEXT_MAX, attempts, problem_reports, trainees
from quiz.model.attempt import AttemptRecord, utc_now
from quiz.model.errors import OutOfScopeError, ReportError, ReportLimitError
from quiz.model.scope import Scope

if TYPE_CHECKING:  # the practice page, which files reports, loads without pandas
    import pandas as pd

REASONS: tuple[str, ...] = ("key_wrong", "unclear", "languages_differ", "other")
R = problem_reports.c
REPORT_COLUMNS = (
    "id", "card_id", "trainee", "reason", "text", "answer", "variant_values", "content_fingerprint", "attempt_id",
    "created_at", "resolved", "resolution", "resolved_at",
)


@dataclass(frozen=True, slots=True)
class ReportLimits:
    """How many reports a trainee may file: ``per_window`` in any ``window``, ``per_day`` in
    any 24 hours (a flood from one trainee would bury the Card review page); and one open
    report per card at most, always."""

    per_window: int = 5
    window: timedelta = timedelta(minutes=10)
    per_day: int = 30
    # every trainee of one store together (and every self-study player together): throwaway
    # accounts each within their own share (40 filed 150 reports in 34 s) are held here
    store_per_window: int = 30
    store_per_day: int = 200


LIMITS = ReportLimits()


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
    store: Store, record: AttemptRecord, reason: str, text: str = "", now: datetime | None = None,
    limits: ReportLimits = LIMITS,
) -> ProblemReport:
    """Store the report of the trainee who gave ``record`` on its card; the report as stored.

    Raises:
        ReportError: ``reason`` is not one of ``REASONS``, or ``text`` is longer than
            ``REPORT_TEXT_MAX`` characters (after stripping).
        ReportLimitError: the trainee has a report open on the card, or has filed
            ``limits``' share lately (kept in the database: no session or server resets it).
    """
    if reason not in REASONS:
        raise ReportError("reason", f"reason {reason!r} is not one of {REASONS}")
    values: dict[str, Any] = dict(
        trainee_id=record.trainee_id, card_id=record.card_id, reason=reason, text=_checked_text(text),
        content_fingerprint=record.content_fingerprint, variant_values=record.variant_values,
        answer=given_answer(record), created_at=now or utc_now(), resolved=False,
    )
    with store.engine.begin() as conn:
        _refuse_over_limits(conn, record.trainee_id, record.card_id, values["created_at"], limits)
        values["attempt_id"] = conn.execute(_stored_attempt(record)).scalar_one_or_none()
        report_id = inserted_id(conn.execute(insert(problem_reports).values(**values)))
    return ProblemReport(id=report_id, **values)


def _refuse_over_limits(conn: Connection, trainee_id: int, card_id: str, now: datetime, limits: ReportLimits) -> None:
    """Raise ``ReportLimitError`` if the trainee has an open report on the card or has filed
    their share of reports lately. The trainee's row is written first (a no-op update): that
    holds the trainee's reports still until the transaction ends (a row lock on PostgreSQL,
    the write lock on SQLite), so two servers filing at once are counted one after the other."""
    conn.execute(update(trainees).where(trainees.c.id == trainee_id).values(id=trainees.c.id))
    open_id = conn.execute(
        select(R.id).where(R.trainee_id == trainee_id, R.card_id == card_id, R.resolved.is_(False)).limit(1)
    ).scalar_one_or_none()
    if open_id is not None:
        raise ReportLimitError("open", f"trainee {trainee_id} has report {open_id} open on {card_id}", open_id)
    since = now - limits.window
    recent, today = conn.execute(
        select(func.count(case((R.created_at > since, R.id))), func.count(R.id))
        .where(R.trainee_id == trainee_id, R.created_at > now - timedelta(days=1))
    ).one()
    if recent >= limits.per_window:
        raise ReportLimitError("rate", f"{recent} reports in {limits.window}", None)
    if today >= limits.per_day:
        raise ReportLimitError("daily", f"{today} reports in a day", None)
    store_id = conn.execute(select(trainees.c.store_id).where(trainees.c.id == trainee_id)).scalar_one_or_none()
    same_store = trainees.c.store_id.is_(None) if store_id is None else trainees.c.store_id == store_id
    store_recent, store_today = conn.execute(
        select(func.count(case((R.created_at > since, R.id))), func.count(R.id))
        .select_from(problem_reports.join(trainees, trainees.c.id == R.trainee_id))
        .where(same_store, R.created_at > now - timedelta(days=1))
    ).one()
    if store_recent >= limits.store_per_window or store_today >= limits.store_per_day:
        raise ReportLimitError("store", f"{store_recent} reports of the store in {limits.window}, "
                                        f"{store_today} in a day", None)


def _stored_attempt(record: AttemptRecord) -> Select[tuple[int]]:
    """The id of the stored attempt ``record`` is: an exam question's answer that counted (its
    first; exam results grade it again, at a new time), else the attempt given at that moment."""
    query = select(attempts.c.id).where(attempts.c.trainee_id == record.trainee_id,
                                        attempts.c.card_id == record.card_id)
    if record.exam_id is not None:
        return query.where(attempts.c.exam_id == record.exam_id).order_by(attempts.c.id).limit(1)
    return query.where(attempts.c.answered_at == record.answered_at).order_by(attempts.c.id.desc()).limit(1)


def resolve_report(
    store: Store, scope: Scope, report_id: int, note: str, now: datetime | None = None,
) -> ProblemReport:
    """Mark a report resolved with the supervisor's ``note`` (``resolve_reports`` of one); the
    report as stored."""
    resolve_reports(store, scope, [report_id], note, now)
    found = get_report(store, report_id)
    assert found is not None
    return found


def resolve_reports(
    store: Store, scope: Scope, report_ids: Iterable[int], note: str, now: datetime | None = None,
) -> int:
    """Mark the reports resolved with one ``note`` of the supervisor (a resolved one gets the new
    note), all or none, each recorded in the audit log in the same transaction; how many.

    Raises:
        ReportError: no such report, or a note longer than ``REPORT_TEXT_MAX`` characters.
        OutOfScopeError: a report's trainee is not in ``scope``.
    """
    note = _checked_text(note)
    wanted = sorted(set(report_ids))
    with store.engine.begin() as conn:
        found = conn.execute(
            select(R.id, trainees.c.store_id).join(trainees, trainees.c.id == R.trainee_id).where(R.id.in_(wanted))
        ).all()
        missing = set(wanted) - {row.id for row in found}
        if missing:
            raise ReportError("unknown", f"no problem report {min(missing)}")
        for row in found:
            if not scope.allows(row.store_id):
                raise OutOfScopeError(f"report {row.id} is not in {scope.supervisor.name}'s scope")
        conn.execute(update(problem_reports).where(R.id.in_(wanted))
                     .values(resolved=True, resolution=note, resolved_at=now or utc_now()))
        for row in found:  # the audit log (quiz.db.audit): one row per report resolved
            audit.record(conn, scope.supervisor, "report_resolved", f"report {row.id}", row.store_id, {"note": note})
    return len(found)


def get_report(store: Store, report_id: int) -> ProblemReport | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(problem_reports).where(R.id == report_id)).mappings().one_or_none()
    return None if row is None else _report(row)


def card_reports(store: Store, scope: Scope, card_id: str) -> list[ProblemReport]:
    """Every report on a card by ``scope``'s trainees, oldest first."""
    query = select(problem_reports).where(R.card_id == card_id, sees_trainee(R.trainee_id, scope)).order_by(R.id)
    with store.engine.connect() as conn:
        rows = conn.execute(query).mappings().all()
    return [_report(row) for row in rows]


Status = Literal["open", "resolved", "all"]
PAGE_SIZE = 25  # reports a page of the Card review page shows: its elements stay few whatever the table holds


@dataclass(frozen=True, slots=True)
class ReportFilter:
    """Which reports a list shows: by status, and on one card or every card."""

    status: Status = "all"
    card_id: str | None = None


@dataclass(frozen=True)
class ReportPage:
    """One page of reports (``REPORT_COLUMNS``, newest first), and how many match in all."""

    frame: pd.DataFrame
    total: int
    page: int  # from 0, within the pages there are
    size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))


def _filtered(scope: Scope, wanted: ReportFilter) -> list[ColumnElement[bool]]:
    clauses: list[ColumnElement[bool]] = [sees_trainee(R.trainee_id, scope)]
    if wanted.status != "all":
        clauses.append(R.resolved.is_(wanted.status == "resolved"))
    if wanted.card_id is not None:
        clauses.append(R.card_id == wanted.card_id)
    return clauses


def _listing(clauses: list[ColumnElement[bool]]) -> Select[Any]:
    return (
        select(R.id, R.card_id, trainees.c.name.label("trainee"), R.reason, R.text, R.answer, R.variant_values,
               R.content_fingerprint, R.attempt_id, R.created_at, R.resolved, R.resolution, R.resolved_at)
        .join(trainees, trainees.c.id == R.trainee_id)
        .where(*clauses)
        .order_by(R.created_at.desc(), R.id.desc())
    )


def _frame(rows: list[tuple[Any, ...]]) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(REPORT_COLUMNS))
    for column in ("created_at", "resolved_at"):
        frame[column] = pd.to_datetime(frame[column], utc=True)
    return frame


def reports_frame(store: Store, scope: Scope, open_only: bool = False, card_id: str | None = None) -> pd.DataFrame:
    """Every report by ``scope``'s trainees with the reporting trainee's name (``REPORT_COLUMNS``),
    newest first (a page shows ``report_page``: this reads every row)."""
    return matching_reports(store, scope, ReportFilter("open" if open_only else "all", card_id))


def matching_reports(store: Store, scope: Scope, wanted: ReportFilter) -> pd.DataFrame:
    """Every report by ``scope``'s trainees that ``wanted`` matches, as ``reports_frame``
    (a CSV made when its button is pressed)."""
    with store.engine.connect() as conn:
        rows = [tuple(row) for row in conn.execute(_listing(_filtered(scope, wanted)))]
    return _frame(rows)


def report_page(store: Store, scope: Scope, wanted: ReportFilter, page: int = 0, size: int = PAGE_SIZE) -> ReportPage:
    """Page ``page`` (from 0; past the last, the last) of the reports by ``scope``'s trainees
    that ``wanted`` matches: counted in SQL, and only the page's rows read."""
    clauses = _filtered(scope, wanted)
    with store.engine.connect() as conn:
        total = int(conn.execute(select(func.count()).select_from(problem_reports).where(*clauses)).scalar_one())
        page = min(max(page, 0), max(0, -(-total // size) - 1))
        rows = [tuple(row) for row in conn.execute(_listing(clauses).limit(size).offset(page * size))]
    return ReportPage(_frame(rows), total, page, size)


def reported_cards(store: Store, scope: Scope) -> list[str]:
    """The cards with a report by ``scope``'s trainees, the newest reported first (one row per card)."""
    query = (select(R.card_id).where(*_filtered(scope, ReportFilter())).group_by(R.card_id)
             .order_by(func.max(R.id).desc()))
    with store.engine.connect() as conn:
        return list(conn.execute(query).scalars())


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
