"""Onboarding assignments in the database: made for a store's staff, read back per store
(a supervisor's ``Scope``) or per trainee, and each member's completion recorded once.

Members are resolved when the assignment is made: "the whole store" means the trainees in it
then; staff who join later are not added (make another assignment for them). The rules of a
plan and a member's standing are ``quiz.training.assignments``; what a member has done is read
from the paths the app already has (``Store.card_results``, ``exam_history``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from quiz.content.loader import Content
from quiz.db.audit import record
from quiz.db.exams import exam_history
from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import assignment_members, assignments, trainees
from quiz.model.errors import AssignmentError, OutOfScopeError
from quiz.model.scope import Scope
from quiz.training.assignments import TITLE_MAX, Evidence, Plan, Standing, plan_cards, standing

A = assignments.c
M = assignment_members.c
# The channel a change of anyone's assignments notifies on (``quiz.db.watches``): the Practice
# page shows the trainee's on every full run, kept in memory between changes.
ASSIGNED = "quiz_assignments"


@dataclass(frozen=True, slots=True)
class Assignment:
    """One assignment as stored."""

    id: int
    store_id: int
    created_by: int | None
    created_at: datetime
    title: str
    plan: Plan
    due: datetime
    archived_at: datetime | None = None
    whole_store: bool = False  # staff who join the store later join it too (``join_whole_store``)


@dataclass(frozen=True, slots=True)
class MemberStanding:
    """One member of an assignment, by name, and where they stand."""

    trainee_id: int
    name: str
    standing: Standing


def create_assignment(
    store: Store, scope: Scope, title: str, plan: Plan, due: datetime, now: datetime,
    trainee_ids: Collection[int] | None = None,
) -> Assignment:
    """Make an assignment in the scope's store for ``trainee_ids`` (None: the whole store,
    every trainee in it now and those who join it before the due time), recorded in the
    audit log in the same transaction. A trainee outside the store
    is refused (``OutOfScopeError``), as is a scope of every store: an assignment belongs to
    one store."""
    title = title.strip()
    if not title or len(title) > TITLE_MAX:
        raise AssignmentError("title", f"a title of 1-{TITLE_MAX} characters")
    if scope.store_id is None:
        raise AssignmentError("store", "pick a store first: an assignment belongs to one store")
    with store.engine.begin() as conn:
        in_store = set(conn.execute(select(trainees.c.id).where(trainees.c.store_id == scope.store_id)).scalars())
        wanted = in_store if trainee_ids is None else set(trainee_ids)
        if wanted - in_store:
            raise OutOfScopeError(f"trainees {sorted(wanted - in_store)} are not in store {scope.store_id}")
        if not wanted:
            raise AssignmentError("no_members", "nobody to assign: the store has no trainees yet")
        values = {"store_id": scope.store_id, "created_by": scope.supervisor.id, "created_at": now,
                  "title": title, "plan": plan.stored(), "due": due, "whole_store": trainee_ids is None}
        assignment_id = inserted_id(conn.execute(insert(assignments).values(**values)))
        conn.execute(insert(assignment_members), [
            {"assignment_id": assignment_id, "trainee_id": trainee_id} for trainee_id in sorted(wanted)
        ])
        record(conn, scope.supervisor, "assignment_made", title, scope.store_id,
               {"assignment_id": assignment_id, "members": len(wanted), "due": due.isoformat()})
        store.watches.notify(conn, ASSIGNED, None)  # one notice for all its members: assignments are made rarely
    store.watches.changed(ASSIGNED, None)
    return Assignment(assignment_id, scope.store_id, scope.supervisor.id, now, title, plan, due,
                      whole_store=trainee_ids is None)


def join_whole_store(store: Store, conn: Connection, store_id: int, trainee_id: int, now: datetime) -> None:
    """In the caller's transaction (a trainee joining ``store_id``): make them a member of the
    store's whole-store assignments that are neither archived nor due yet (and not theirs
    already). The caller calls ``assignments_joined`` after its commit: forgotten before it,
    a read in between would keep the old members again."""
    theirs = select(M.assignment_id).where(M.trainee_id == trainee_id)
    open_ones = list(conn.execute(
        select(A.id).where(A.store_id == store_id, A.whole_store.is_(True), A.archived_at.is_(None), A.due > now,
                           A.id.not_in(theirs))).scalars())
    if not open_ones:
        return
    conn.execute(insert(assignment_members), [
        {"assignment_id": assignment_id, "trainee_id": trainee_id} for assignment_id in open_ones
    ])
    store.watches.notify(conn, ASSIGNED, None)


def assignments_joined(store: Store) -> None:
    """After the commit of a transaction that called ``join_whole_store``: this server's
    kept assignments are forgotten (other servers forget them at the notice)."""
    store.watches.changed(ASSIGNED, None)


def store_assignments(store: Store, scope: Scope, archived: bool = False) -> list[Assignment]:
    """The assignments ``scope`` sees (archived ones only when asked), soonest due first."""
    query = select(assignments).order_by(A.due, A.id)
    if not scope.every_store:
        query = query.where(A.store_id == scope.store_id)
    if not archived:
        query = query.where(A.archived_at.is_(None))
    with store.engine.connect() as conn:
        return [_assignment(row._mapping) for row in conn.execute(query)]


def get_assignment(store: Store, scope: Scope, assignment_id: int) -> Assignment:
    """The assignment, refused (``OutOfScopeError``) when there is none ``scope`` sees."""
    with store.engine.connect() as conn:
        return _seen(conn, scope, assignment_id)


def archive_assignment(store: Store, scope: Scope, assignment_id: int, now: datetime) -> None:
    """Put the assignment away: kept, with its completions, but no longer listed; recorded in
    the audit log (``assignment_archived``) in the same transaction."""
    with store.engine.begin() as conn:
        found = _seen(conn, scope, assignment_id)
        conn.execute(update(assignments).where(A.id == assignment_id).values(archived_at=now))
        record(conn, scope.supervisor, "assignment_archived", found.title, found.store_id)
        store.watches.notify(conn, ASSIGNED, None)
    store.watches.changed(ASSIGNED, None)


def trainee_assignments(store: Store, trainee_id: int) -> list[tuple[Assignment, datetime | None]]:
    """The trainee's assignments not archived, soonest due first, each with when they
    completed it (None: not yet).

    Kept in the server's memory while the database says none changed (``quiz.db.watches``:
    making or archiving an assignment and recording a completion notify ``ASSIGNED``), so
    the Practice page's every full run costs no query for it."""
    kept: tuple[tuple[Assignment, datetime | None], ...] = store.watches.kept(ASSIGNED).get(
        trainee_id, lambda: _trainee_assignments(store, trainee_id))
    return list(kept)


def _trainee_assignments(store: Store, trainee_id: int) -> tuple[tuple[Assignment, datetime | None], ...]:
    query = (
        select(assignments, M.completed_at)
        .join(assignment_members, M.assignment_id == A.id)
        .where(M.trainee_id == trainee_id, A.archived_at.is_(None))
        .order_by(A.due, A.id)
    )
    with store.reads.connect() as conn:
        return tuple((_assignment(row._mapping), row.completed_at) for row in conn.execute(query))


def evidence(store: Store, assignment: Assignment, cards: Collection[str], trainee_id: int) -> Evidence:
    """What the trainee has done toward the plan: each plan card's latest answer
    (``Store.card_results``), and the preset's exams started since the assignment was made."""
    results = store.card_results(trainee_id, last=1) if cards else {}
    answered = frozenset(card_id for card_id in cards if card_id in results)
    mastered = frozenset(card_id for card_id in answered if results[card_id][-1])
    exam = assignment.plan.exam
    if exam is None:
        return Evidence(answered, mastered)
    history = exam_history(store, trainee_id)
    taken = history[(history["preset"] == exam) & (history["started_at"] >= assignment.created_at)]
    passed = taken[taken["passed"].fillna(False).astype(bool)]
    passed_at = passed["finished_at"].min().to_pydatetime() if not passed.empty else None
    return Evidence(answered, mastered, exam_started=not taken.empty, exam_passed_at=passed_at)


def standings(store: Store, content: Content, assignment: Assignment, now: datetime) -> list[MemberStanding]:
    """Every member's standing at ``now``, by name; a member first found done has their
    completion recorded (only ever once)."""
    query = (
        select(M.trainee_id, trainees.c.name, M.completed_at)
        .join(trainees, trainees.c.id == M.trainee_id)
        .where(M.assignment_id == assignment.id)
        .order_by(trainees.c.name)
    )
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    cards = plan_cards(content, assignment.plan)
    return [
        MemberStanding(row.trainee_id, row.name,
                       member_standing(store, assignment, cards, row.trainee_id, row.completed_at, now))
        for row in rows
    ]


def member_standing(store: Store, assignment: Assignment, cards: Collection[str], trainee_id: int,
                    completed_at: datetime | None, now: datetime) -> Standing:
    """One member's standing (``quiz.training.assignments.standing``), its completion
    recorded the first time it is found done."""
    if completed_at is not None:
        return standing(assignment.plan, cards, Evidence(), assignment.due, now, completed_at)
    found = standing(assignment.plan, cards, evidence(store, assignment, cards, trainee_id), assignment.due, now)
    if found.done_at is not None:
        found = Standing("done", 1.0, record_completion(store, assignment.id, trainee_id, found.done_at))
    return found


def record_completion(store: Store, assignment_id: int, trainee_id: int, at: datetime) -> datetime:
    """Record that the member completed the assignment at ``at``, unless it was recorded
    already (by another page or server): the recorded time, the first one, either way."""
    with store.engine.begin() as conn:
        conn.execute(update(assignment_members).where(
            M.assignment_id == assignment_id, M.trainee_id == trainee_id, M.completed_at.is_(None),
        ).values(completed_at=at))
        store.watches.notify(conn, ASSIGNED, trainee_id)
        recorded: datetime = conn.execute(select(M.completed_at).where(
            M.assignment_id == assignment_id, M.trainee_id == trainee_id)).scalar_one()
    store.watches.changed(ASSIGNED, trainee_id)
    return recorded


def _seen(conn: Connection, scope: Scope, assignment_id: int) -> Assignment:
    row = conn.execute(select(assignments).where(A.id == assignment_id)).one_or_none()
    if row is None or not scope.allows(row.store_id):
        raise OutOfScopeError(f"assignment {assignment_id} is not in {scope.supervisor.name}'s scope")
    return _assignment(row._mapping)


def _assignment(row: Mapping[Any, Any]) -> Assignment:  # a RowMapping
    return Assignment(row["id"], row["store_id"], row["created_by"], row["created_at"], row["title"],
                      Plan.from_stored(row["plan"]), row["due"], row["archived_at"], bool(row["whole_store"]))
