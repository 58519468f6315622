"""Re-grading stored answers under today's content.

Every attempt keeps what the trainee chose, the drawn values of a variant card and the
fingerprint of the content it was graded under. When the content changes (a ruleset now
reads its document differently, a card's key is corrected), ``plan_regrade`` grades every
stored answer again through ``quiz.training.kinds.answer_card``, the very path a new answer takes,
and counts what would change; ``apply_regrade`` does the same and writes the new grades,
each changed attempt's grade as it was before going to ``attempt_regrades`` first (one row
per re-grade, so the original is the attempt's oldest row there, kept for good). Statistics
read the attempts' grade columns, so the Progress page counts the new grade.

Attempts are read in batches by id, and each batch's changes are written in one transaction,
so a history of millions of answers is re-graded in bounded memory. Only the grade changes:
what was chosen, when, how long it took, the mode and the exam stay as they were. An answer
that cannot be judged again as it was shown is left alone and reported (``SKIP_REASONS``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Iterator, Mapping, Sequence

from sqlalchemy import Row, bindparam, insert, select, update

from quiz.content.loader import Content
from quiz.db.audit import record
from quiz.db.exams import EXAM_ANSWERS, get_exam
from quiz.db.store import Store
from quiz.db.tables import attempt_regrades, attempts, exams, trainees
from quiz.model.attempt import ATTEMPT_FIELDS, AttemptRecord, Mode, utc_now
from quiz.model.cards import RulingCard
from quiz.model.errors import QuizError, StepError, UndecidedCaseError
from quiz.rules.variants import CardShowing, card_facts, fill_text, values_from_stored
from quiz.training.exams import score_exam
from quiz.training.given_answer import GivenAnswer
from quiz.training.kinds import answer_card, as_scenario, given_from_record

BATCH_SIZE = 2000  # attempts read, and at most as many re-graded, per transaction
EXAM_BATCH = 200
SHOWING_CACHE = 10_000
# The grade of an attempt: what re-grading may change (and keeps the old values of).
GRADE_FIELDS: tuple[str, ...] = (
    "category", "standard_infraction", "standard_penalty", "standard_fixes", "correct_choice",
    "infraction_result", "penalty_result", "fixes_result", "players_result", "standard_players",
    "correct", "penalty_steps", "findings", "penalty_follows_findings", "investigation",
)
ANSWER_FIELDS: tuple[str, ...] = (
    "trainee_id", "card_id", "ruleset", "card_kind", "mode", "exam_id", "seconds", "chosen_infraction",
    "chosen_penalty", "chosen_fixes", "chosen_players", "chosen_choice", "variant_values", "content_fingerprint",
    "findings",  # what the trainee found is kept in it beside each finding's grade
    "investigation",  # a floor call's steps taken are kept in it beside their grade
)
SKIP_REASONS: dict[str, str] = {
    "card_missing": "the card is not in today's content",
    "kind_changed": "the card is now of another kind or ruleset",
    "values_missing": "a variant card answered before its drawn values were stored",
    "values_gone": "the card no longer has the values it was shown with",
    "refused": "the engine now refuses the case (left to the judge)",
    "steps_gone": "the floor call no longer has the steps that were taken",
    "not_judged": "the engine cannot judge the card (a content error)",
}


@dataclass
class Tally:
    """Changed answers, and how many of them turned from wrong to right and from right to wrong."""

    changed: int = 0
    newly_right: int = 0
    newly_wrong: int = 0

    def add(self, was_right: bool, now_right: bool) -> None:
        self.changed += 1
        self.newly_right += not was_right and now_right
        self.newly_wrong += was_right and not now_right


@dataclass
class RegradeReport:
    """What a re-grade found (``applied`` False) or did (True).

    Attributes:
        fingerprint: the content the answers were re-graded under.
        read: attempts read; ``total`` counts those that changed (a grade field differs).
        skipped: reason (a ``SKIP_REASONS`` key) -> attempts left alone for it;
            ``skipped_cards`` the card ids of each reason.
        by_card: card id -> its changed attempts; ``by_trainee`` the same by trainee name.
        exams_affected: closed exams with a changed answer; ``exams_rescored`` of those, the
            ones whose score changes, ``exams_pass_changed`` whose pass or fail changes.
    """

    fingerprint: str
    applied: bool = False
    read: int = 0
    total: Tally = field(default_factory=Tally)
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_cards: dict[str, set[str]] = field(default_factory=dict)
    by_card: dict[str, Tally] = field(default_factory=dict)
    by_trainee: dict[str, Tally] = field(default_factory=dict)
    exams_affected: int = 0
    exams_rescored: int = 0
    exams_pass_changed: int = 0

    @property
    def changed(self) -> int:
        return self.total.changed

    @property
    def newly_right(self) -> int:
        return self.total.newly_right

    @property
    def newly_wrong(self) -> int:
        return self.total.newly_wrong

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())


def plan_regrade(store: Store, content: Content, batch_size: int = BATCH_SIZE) -> RegradeReport:
    """Re-grade every stored answer under ``content`` and report what would change; writes nothing."""
    return _run(store, content, write=False, batch_size=batch_size, now=utc_now())


def apply_regrade(
    store: Store, content: Content, plan: RegradeReport | None = None, batch_size: int = BATCH_SIZE,
    now: datetime | None = None,
) -> RegradeReport:
    """Re-grade every stored answer under ``content`` and store the grades that change.

    The answers are graded afresh (a ``plan`` is not replayed: answers given since it was made
    are re-graded too), so the report returned is what was written. A ``plan`` made under
    other content is refused (ValueError). For each changed attempt, in transactions of at
    most ``batch_size`` attempts: a row of ``attempt_regrades`` with the grade before, then the
    attempt's grade fields and ``content_fingerprint``. Closed exams with a changed answer
    are scored again as closing scored them.
    """
    if plan is not None and plan.fingerprint != content.fingerprint():
        raise ValueError(f"the plan was made under content {plan.fingerprint}, not {content.fingerprint()}")
    report = _run(store, content, write=True, batch_size=batch_size, now=now or utc_now())
    if report.changed:  # the server's console: recorded as the system's act
        record(store, None, "answers_regraded", f"{report.changed} answers", None,
               {"fingerprint": report.fingerprint, "exams_rescored": report.exams_rescored})
    return report


def original_grade(store: Store, attempt_id: int) -> dict[str, Any] | None:
    """The attempt's grade as first stored, before any re-grade (None if never re-graded)."""
    query = (
        select(*(attempt_regrades.c[name] for name in GRADE_FIELDS))
        .where(attempt_regrades.c.attempt_id == attempt_id)
        .order_by(attempt_regrades.c.id)
        .limit(1)
    )
    with store.engine.connect() as conn:
        row = conn.execute(query).one_or_none()
    return _grade(row) if row is not None else None


def regrade(content: Content, row: Mapping[Any, Any], showings: dict | None = None) -> dict[str, Any] | str:
    """The grade fields of a stored answer graded under ``content``, or why it cannot be
    (a ``SKIP_REASONS`` key). ``row`` holds the ``ANSWER_FIELDS`` of the attempt."""
    card = content.cards.get(row["card_id"])
    if card is None:
        return "card_missing"
    if card.kind != row["card_kind"] or card.ruleset != row["ruleset"]:
        return "kind_changed"
    showing = None
    given = given_from_record(card, row)
    stored = row["variant_values"]
    scenario = as_scenario(card)
    if scenario is not None and (stored is not None or scenario.parameters):
        if stored is None:
            return "values_missing"
        showing = _showing(scenario, stored, {} if showings is None else showings)
        if showing is None:
            return "values_gone"
    try:
        outcome = answer_card(content, GivenAnswer(card, given, row["trainee_id"], row["seconds"], Mode(row["mode"]),
                                                   row["exam_id"], showing))
    except UndecidedCaseError:
        return "refused"
    except StepError:
        return "steps_gone"
    except QuizError:
        return "not_judged"
    values = outcome.record.values()
    return {name: values[name] for name in GRADE_FIELDS}


def report_lines(report: RegradeReport, top: int = 20) -> list[str]:
    """The report as text: the totals, the skipped answers by reason, and the ``top`` cards and
    trainees with the most changes (with how many more there are)."""
    verb = "changed" if report.applied else "would change"
    lines = [
        f"{report.read} answers graded again under content {report.fingerprint}: {report.changed} {verb} "
        f"({report.newly_right} now right, {report.newly_wrong} now wrong, "
        f"{report.changed - report.newly_right - report.newly_wrong} only in detail), "
        f"{report.skipped_total} left alone",
    ]
    for reason, count in sorted(report.skipped.items(), key=lambda item: (-item[1], item[0])):
        cards = sorted(report.skipped_cards.get(reason, ()))
        shown = ", ".join(cards[:5]) + (f" and {len(cards) - 5} more" if len(cards) > 5 else "")
        lines.append(f"  left alone: {count}: {SKIP_REASONS[reason]} ({shown})")
    for title, tallies in (("card", report.by_card), ("trainee", report.by_trainee)):
        if not tallies:
            continue
        ranked = sorted(tallies.items(), key=_rank)
        width = max(len(title), *(len(name) for name, _ in ranked[:top]))
        lines.append(f"changes per {title} ({min(top, len(ranked))} of {len(ranked)}):")
        lines.append(f"  {title:<{width}}  changed  now right  now wrong")
        for name, tally in ranked[:top]:
            lines.append(f"  {name:<{width}}  {tally.changed:>7}  {tally.newly_right:>9}  {tally.newly_wrong:>9}")
        rest = ranked[top:]
        if rest:
            lines.append(f"  ... {len(rest)} more {title}s with {sum(t.changed for _, t in rest)} changes")
        lines.append(f"  {'total':<{width}}  {report.changed:>7}  {report.newly_right:>9}  {report.newly_wrong:>9}")
    if report.exams_affected:
        lines.append(
            f"closed exams with a changed answer: {report.exams_affected}; score {verb}: {report.exams_rescored}, "
            f"pass or fail {verb}: {report.exams_pass_changed}"
        )
    lines.append(f"re-graded {report.changed} answers" if report.applied else "dry run: nothing was changed")
    return lines


def _rank(item: tuple[str, Tally]) -> tuple:
    """Most changes first; of equal ones, those that turn right or wrong; then by name."""
    name, tally = item
    return (-tally.changed, -(tally.newly_right + tally.newly_wrong), name)


# --- the run ------------------------------------------------------------------------------


def _run(store: Store, content: Content, write: bool, batch_size: int, now: datetime) -> RegradeReport:
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    fingerprint = content.fingerprint()
    report = RegradeReport(fingerprint=fingerprint, applied=write)
    by_trainee: dict[int, Tally] = {}
    showings: dict = {}
    # exam id -> attempt id -> whether it is now right (kept only where the database does not
    # have it yet: in a dry run)
    exam_changes: dict[int, dict[int, bool]] = {}
    for rows in _batches(store, batch_size):
        changes: list[tuple[Row, dict[str, Any]]] = []
        for row in rows:
            report.read += 1
            graded = regrade(content, row._mapping, showings)
            if isinstance(graded, str):
                report.skipped[graded] += 1
                report.skipped_cards.setdefault(graded, set()).add(row.card_id)
                continue
            before = _grade(row)
            if graded == before:
                continue
            changes.append((row, graded))
            was, now_right = before["correct"], graded["correct"]
            report.total.add(was, now_right)
            report.by_card.setdefault(row.card_id, Tally()).add(was, now_right)
            by_trainee.setdefault(row.trainee_id, Tally()).add(was, now_right)
            if row.exam_id is not None:
                overrides = exam_changes.setdefault(row.exam_id, {})
                if not write:
                    overrides[row.id] = now_right
        if write and changes:
            _write(store, changes, fingerprint, now)
    report.by_trainee = _by_name(store, by_trainee)
    _score_exams(store, exam_changes, write, report)
    return report


def _batches(store: Store, batch_size: int) -> Iterator[Sequence[Row[Any]]]:
    """Every attempt, ``batch_size`` at a time in id order (each batch a fresh query from the
    last id read, so memory stays bounded and no cursor is held open between batches)."""
    columns = [attempts.c.id, *(attempts.c[name] for name in dict.fromkeys(ANSWER_FIELDS + GRADE_FIELDS))]
    last = 0
    while True:
        query = select(*columns).where(attempts.c.id > last).order_by(attempts.c.id).limit(batch_size)
        with store.engine.connect() as conn:
            rows = conn.execute(query).all()
        if not rows:
            return
        yield rows
        last = rows[-1].id


def _grade(row: Row) -> dict[str, Any]:
    grade = {name: getattr(row, name) for name in GRADE_FIELDS}
    grade["standard_fixes"] = tuple(grade["standard_fixes"] or ())
    grade["correct"] = bool(grade["correct"])
    return grade


def _showing(card: RulingCard, stored: Mapping[str, Any], cache: dict) -> CardShowing | None:
    """The showing the stored values give (as ``show_card`` builds one), or None when the card
    no longer has them. The seed is unknown and irrelevant: the values are what was shown."""
    key = (card.id, json.dumps(stored, sort_keys=True))
    if key not in cache:
        if len(cache) >= SHOWING_CACHE:
            cache.clear()
        values = values_from_stored(card, stored)
        cache[key] = None if values is None else CardShowing(
            card_id=card.id,
            seed=0,
            values=values,
            title=fill_text(card.title, values),
            situation=fill_text(card.situation, values),
            facts=card_facts(card, values),
        )
    return cache[key]


_ORIGINAL: dict[str, Any] = {name: bindparam(f"old_{name}") for name in GRADE_FIELDS}
_INSERT_ORIGINAL = insert(attempt_regrades).values(
    attempt_id=bindparam("old_attempt_id"), regraded_at=bindparam("old_regraded_at"),
    from_fingerprint=bindparam("old_from_fingerprint"), to_fingerprint=bindparam("old_to_fingerprint"), **_ORIGINAL,
)
_UPDATE_GRADE = (
    update(attempts)
    .where(attempts.c.id == bindparam("new_id"))
    .values(content_fingerprint=bindparam("new_content_fingerprint"),
            **{name: bindparam(f"new_{name}") for name in GRADE_FIELDS})
)


def _write(store: Store, changes: Sequence[tuple[Row, dict[str, Any]]], fingerprint: str, now: datetime) -> None:
    """One transaction: the grades before into ``attempt_regrades``, the new ones into ``attempts``."""
    originals = [
        {"old_attempt_id": row.id, "old_regraded_at": now, "old_from_fingerprint": row.content_fingerprint,
         "old_to_fingerprint": fingerprint, **{f"old_{name}": value for name, value in _grade(row).items()}}
        for row, _ in changes
    ]
    grades = [
        {"new_id": row.id, "new_content_fingerprint": fingerprint,
         **{f"new_{name}": value for name, value in graded.items()}}
        for row, graded in changes
    ]
    with store.engine.begin() as conn:
        conn.execute(_INSERT_ORIGINAL, originals)
        conn.execute(_UPDATE_GRADE, grades)
        store.watches.notify(conn, EXAM_ANSWERS, None)  # an open exam's kept answers carry their grades
    store.watches.changed(EXAM_ANSWERS, None)


def _by_name(store: Store, tallies: Mapping[int, Tally]) -> dict[str, Tally]:
    names: dict[int, str] = {}
    ids = list(tallies)
    for start in range(0, len(ids), 1000):
        chunk = ids[start:start + 1000]
        with store.engine.connect() as conn:
            names.update(conn.execute(select(trainees.c.id, trainees.c.name).where(trainees.c.id.in_(chunk))).all())
    return {names.get(trainee_id, f"#{trainee_id}"): tally for trainee_id, tally in tallies.items()}


def _score_exams(store: Store, changes: Mapping[int, Mapping[int, bool]], write: bool, report: RegradeReport) -> None:
    """Score again the closed exams with a changed answer, as closing scored them
    (``quiz.training.exams.score_exam``); written only when ``write``, else with the new grades in mind."""
    exam_ids = sorted(changes)
    for start in range(0, len(exam_ids), EXAM_BATCH):
        rescored: list[dict[str, Any]] = []
        for exam_id in exam_ids[start:start + EXAM_BATCH]:
            exam = get_exam(store, exam_id)
            if exam is None or exam.finished_at is None:  # an open exam is scored when it closes
                continue
            report.exams_affected += 1
            score = score_exam(exam, _exam_records(store, exam_id, changes[exam_id]))
            if score.correct == exam.score and score.passed == exam.passed:
                continue
            report.exams_rescored += score.correct != exam.score
            report.exams_pass_changed += score.passed != exam.passed
            rescored.append({"exam": exam_id, "score": score.correct, "passed": score.passed})
        if write and rescored:
            with store.engine.begin() as conn:
                for values in rescored:
                    conn.execute(
                        update(exams).where(exams.c.id == values["exam"], exams.c.finished_at.is_not(None))
                        .values(score=values["score"], passed=values["passed"])
                    )


def _exam_records(store: Store, exam_id: int, correct: Mapping[int, bool]) -> Iterable[AttemptRecord]:
    """The exam's answers as stored, with ``correct`` replacing the stored correctness by id."""
    query = select(attempts.c.id, *(attempts.c[name] for name in ATTEMPT_FIELDS)).where(attempts.c.exam_id == exam_id)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    found = []
    for row in rows:
        values = {name: getattr(row, name) for name in ATTEMPT_FIELDS}
        if row.id in correct:
            values["correct"] = correct[row.id]
        found.append(AttemptRecord.from_row(values))
    return found
