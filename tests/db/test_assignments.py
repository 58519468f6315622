"""Assignments in the database, on SQLite and PostgreSQL: made for one store's staff (the
whole store resolved then), seen only by that store's scope, read back per trainee, and each
member's standing from their answers and exams, a completion recorded once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, insert, select

from quiz.db import assignments as stored
from quiz.db.audit import entries
from quiz.db.exams import hand_in, save_exam_answer, start_exam
from quiz.db.store import Store
from quiz.db.tables import assignment_members, stores, supervisor_accounts, trainees
from quiz.model.attempt import AttemptRecord
from quiz.model.errors import AssignmentError, OutOfScopeError
from quiz.model.scope import Scope, Supervisor
from quiz.training.assignments import Plan
from quiz.training.exams import ExamSpec
from tests.recording import record
from tests.waiting import wait_until

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
DUE = datetime(2026, 12, 4, 15, 0, tzinfo=UTC)
CARDS = ("ygo-deck-too-few-39-store", "ygo-deck-too-few-after-siding")
SPEC = ExamSpec(questions=1, minutes=30, pass_percent=100, rulesets=("yugioh-ocg",))


def make_store(store: Store, name: str) -> tuple[int, Scope]:
    """A store with one supervisor account; that supervisor's scope."""
    with store.engine.begin() as conn:
        store_id = conn.execute(insert(stores).values(name=name, created_at=NOW)).inserted_primary_key[0]
        account_id = conn.execute(insert(supervisor_accounts).values(
            store_id=store_id, name=f"{name} owner", name_key=f"{name} owner".lower(), role="supervisor",
            credential_version="1", created_at=NOW)).inserted_primary_key[0]
    return store_id, Supervisor(account_id, f"{name} owner", "supervisor", store_id).scope()


def join(store: Store, name: str, store_id: int) -> int:
    trainee_id = store.trainee(name).id
    with store.engine.begin() as conn:
        conn.execute(trainees.update().where(trainees.c.id == trainee_id).values(store_id=store_id))
    return trainee_id


def answer(trainee_id: int, card_id: str, correct: bool, at: datetime, exam_id: int | None = None):
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset="yugioh-ocg", category=None, card_kind="knowledge",
        mode="exam" if exam_id else "practice", chosen_choice="a", correct_choice="a" if correct else "b",
        correct=correct, seconds=3.0, answered_at=at, exam_id=exam_id,
    )


def practise(store: Store, trainee_id: int, card_id: str, correct: bool, at: datetime) -> None:
    record(store, answer(trainee_id, card_id, correct, at))


@pytest.fixture
def shop(store: Store):
    """Store A with three staff and store B with one."""
    a_id, a = make_store(store, "Shop A")
    b_id, b = make_store(store, "Shop B")
    staff = {name: join(store, name, a_id) for name in ("Aiko", "Ben", "Chika")}
    staff["Dan"] = join(store, "Dan", b_id)
    return a, b, staff


def test_the_whole_store_is_its_trainees_then_and_only_its_scope_sees_it(store, shop, content):
    a, b, staff = shop
    made = stored.create_assignment(store, a, "新人研修", Plan(exam="ygo-20"), DUE, NOW)
    join(store, "Eri", a.store_id)  # joins after: not a member
    assert stored.get_assignment(store, a, made.id) == made
    assert [m.name for m in stored.standings(store, content, made, NOW)] == ["Aiko", "Ben", "Chika"]
    assert stored.store_assignments(store, a) == [made] and stored.store_assignments(store, b) == []
    with pytest.raises(OutOfScopeError):
        stored.get_assignment(store, b, made.id)
    with pytest.raises(OutOfScopeError):
        stored.archive_assignment(store, b, made.id, NOW)
    assert [found.id for found, _ in stored.trainee_assignments(store, staff["Ben"])] == [made.id]
    assert stored.trainee_assignments(store, staff["Dan"]) == []
    [made_entry] = entries(store, a)
    assert (made_entry.action, made_entry.actor, made_entry.target) == ("assignment_made", "Shop A owner", "新人研修")
    assert entries(store, b) == []
    stored.archive_assignment(store, a, made.id, NOW)  # finding L3: archiving was not audited
    assert [(e.action, e.actor, e.target) for e in entries(store, a)][0] == (
        "assignment_archived", "Shop A owner", "新人研修")


def test_a_trainee_of_another_store_cannot_be_assigned_nor_every_store_at_once(store, shop):
    a, b, staff = shop
    with pytest.raises(OutOfScopeError):
        stored.create_assignment(store, a, "x", Plan(exam="ygo-20"), DUE, NOW, [staff["Aiko"], staff["Dan"]])
    admin = Supervisor(a.supervisor.id, "admin", "admin", None).scope()
    with pytest.raises(AssignmentError) as every:
        stored.create_assignment(store, admin, "x", Plan(exam="ygo-20"), DUE, NOW)
    assert every.value.rule == "store"
    with store.engine.connect() as conn:
        assert conn.execute(select(assignment_members)).all() == []


def test_archived_assignments_leave_the_lists(store, shop):
    a, _, staff = shop
    made = stored.create_assignment(store, a, "x", Plan(exam="ygo-20"), DUE, NOW, [staff["Aiko"]])
    stored.archive_assignment(store, a, made.id, NOW)
    assert stored.store_assignments(store, a) == []
    assert [found.id for found in stored.store_assignments(store, a, archived=True)] == [made.id]
    assert stored.trainee_assignments(store, staff["Aiko"]) == []


def test_standings_from_answers_and_exams_and_a_completion_recorded_once(store, shop, content):
    a, _, staff = shop
    plan = Plan(cards=CARDS, mastery=100, exam="ygo-20")
    made = stored.create_assignment(store, a, "研修", plan, DUE, NOW)
    aiko, ben = staff["Aiko"], staff["Ben"]
    for card_id in CARDS:
        practise(store, aiko, card_id, True, NOW + timedelta(hours=1))
    practise(store, ben, CARDS[0], False, NOW + timedelta(hours=1))
    old = start_exam(store, aiko, "ygo-20", SPEC, ("ygo-a",), (0,), NOW - timedelta(days=1))  # before: no proof
    save_exam_answer(store, answer(aiko, "ygo-a", True, NOW - timedelta(days=1), old.id), NOW - timedelta(days=1))
    hand_in(store, old.id, NOW - timedelta(days=1))
    later = NOW + timedelta(days=1)
    shown = {m.name: m.standing for m in stored.standings(store, content, made, later)}
    assert {name: s.status for name, s in shown.items()} == {"Aiko": "on_track", "Ben": "on_track",
                                                            "Chika": "not_started"}
    assert shown["Aiko"].progress == pytest.approx(0.5) and shown["Ben"].progress == 0.0
    exam = start_exam(store, aiko, "ygo-20", SPEC, ("ygo-a",), (0,), later)
    save_exam_answer(store, answer(aiko, "ygo-a", True, later + timedelta(minutes=1), exam.id),
                     later + timedelta(minutes=1))
    hand_in(store, exam.id, later + timedelta(minutes=2))
    looked = later + timedelta(minutes=5)
    done = {m.name: m.standing for m in stored.standings(store, content, made, looked)}["Aiko"]
    assert (done.status, done.done_at) == ("done", looked)
    practise(store, aiko, CARDS[0], False, looked + timedelta(minutes=1))  # forgets one: still done, when it was
    after_due = {m.name: m.standing for m in stored.standings(store, content, made, DUE)}
    assert after_due["Aiko"].done_at == looked and after_due["Aiko"].status == "done"
    assert after_due["Ben"].status == "late" and after_due["Chika"].status == "late"
    assert [(found.id, when) for found, when in stored.trainee_assignments(store, aiko)] == [(made.id, looked)]


def test_another_servers_trainee_list_is_kept_until_a_change_and_then_read_again(store, shop):
    """Two servers on one database: the second keeps a trainee's assignments in memory (no
    statement while nothing changed) and sees the first's making and archiving of one."""
    a, _, staff = shop
    other = Store(store.url.render_as_string(hide_password=False))
    try:
        watch = other.watches.kept(stored.ASSIGNED)
        wait_until(lambda: watch.live, "the other server's watch keeps values")
        aiko = staff["Aiko"]
        assert stored.trainee_assignments(other, aiko) == []
        sent: list[str] = []
        event.listen(other.engine, "before_cursor_execute", lambda *args: sent.append(args[2]))
        assert stored.trainee_assignments(other, aiko) == [] and sent == []
        made = stored.create_assignment(store, a, "研修", Plan(exam="ygo-20"), DUE, NOW, [aiko])
        wait_until(lambda: [found.id for found, _ in stored.trainee_assignments(other, aiko)] == [made.id],
                   "the other server shows the new assignment")
        stored.record_completion(store, made.id, aiko, NOW)
        wait_until(lambda: [when for _, when in stored.trainee_assignments(other, aiko)] == [NOW],
                   "the other server shows the completion")
        stored.archive_assignment(store, a, made.id, NOW)
        wait_until(lambda: stored.trainee_assignments(other, aiko) == [], "the other server drops it")
    finally:
        other.dispose()


def test_staff_who_join_later_join_a_whole_store_assignment_not_a_chosen_staff_one(store):
    """A whole-store assignment takes in staff who join the store (by a join code, or moved
    there) while it is open; one for chosen staff, an archived one and one past due do not."""
    from quiz.access.stores import make_join_code, move_trainee, redeem, trainee_seen
    from quiz.access.supervisors import create_account
    from quiz.model.attempt import utc_now

    store_id, scope = make_store(store, "Shop")
    first = join(store, "First", store_id)
    later = utc_now() + timedelta(days=3)
    whole = stored.create_assignment(store, scope, "Everyone", Plan(exam="ygo-20"), later, NOW)
    chosen = stored.create_assignment(store, scope, "Only First", Plan(exam="ygo-20"), later, NOW, [first])
    archived = stored.create_assignment(store, scope, "Put away", Plan(exam="ygo-20"), later, NOW)
    stored.archive_assignment(store, scope, archived.id, NOW)
    stored.create_assignment(store, scope, "Past due", Plan(exam="ygo-20"), utc_now() - timedelta(hours=1), NOW)
    code = make_join_code(store, scope.supervisor, store_id)
    newcomer = store.trainee("Newcomer").id
    redeem(store, newcomer, code.code)
    assert [a.title for a, _ in stored.trainee_assignments(store, newcomer)] == ["Everyone"]
    assert whole.whole_store and not chosen.whole_store
    moved = store.trainee("Moved")
    admin = create_account(store, "Admin", "admin password", "admin", None, None)
    move_trainee(store, admin, trainee_seen(moved), store_id)
    assert [a.title for a, _ in stored.trainee_assignments(store, moved.id)] == ["Everyone"]
    redeem(store, newcomer, code.code)  # joining again adds nothing twice
    assert [a.title for a, _ in stored.trainee_assignments(store, newcomer)] == ["Everyone"]


def test_a_joiners_assignments_are_forgotten_only_once_the_join_is_committed(store, monkeypatch):
    """This server forgets its kept assignments after the joining transaction commits: a read
    between a forget inside the transaction and its commit kept the old members again, and
    the server's own notice does not make it forget a second time."""
    from quiz.access.accounts import add_trainee
    from quiz.access.stores import make_join_code, move_trainee, redeem, trainee_seen
    from quiz.access.supervisors import create_account
    from quiz.model.attempt import utc_now

    store_id, scope = make_store(store, "Shop")
    join(store, "First", store_id)
    stored.create_assignment(store, scope, "Everyone", Plan(exam="ygo-20"), utc_now() + timedelta(days=3), NOW)
    code = make_join_code(store, scope.supervisor, store_id)
    seen_at_forget: list[list[int]] = []
    changed = store.watches.changed

    def forget(channel, key, change=None):
        if channel == stored.ASSIGNED:  # what any other connection reads at that moment
            with store.engine.connect() as conn:
                seen_at_forget.append(sorted(conn.execute(select(assignment_members.c.trainee_id)).scalars()))
        changed(channel, key, change)

    monkeypatch.setattr(store.watches, "changed", forget)
    redeem(store, store.trainee("Newcomer").id, code.code)
    added = add_trainee(store, "Signed up", "4817", join_code=code.code)
    moved = store.trainee("Moved")
    move_trainee(store, create_account(store, "Admin", "admin password", "admin", None, None),
                 trainee_seen(moved), store_id)
    members = [len(seen) for seen in seen_at_forget]
    assert members == [2, 3, 4], seen_at_forget  # each forget saw its own joiner's membership
    assert added.id in seen_at_forget[1] and moved.id in seen_at_forget[2]
