"""Isolation: a supervisor of store A sees and touches nothing of store B, in every
query behind the Team and Card review pages and in every CSV made of them; an admin sees
both, and with a pick one; a trainee, report, PIN, lock or pack of B asked for by id as A is
refused.

Both databases (``store`` runs on SQLite and, when given, PostgreSQL). The asks by id stand
for the websocket messages a browser would never send: the pages offer only what these
queries return, so a forged value reaches only these refusals.
"""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select

from quiz.access.accounts import (
    LOCK_AFTER,
    NameThrottles,
    has_pin,
    lift_lockout,
    lockout_of,
    set_pin,
    sign_in,
)
from quiz.access.look_alikes import look_alike_groups
from quiz.access.throttles import LoginThrottle, ThrottlePolicy
from quiz.db.packs import import_pack, list_packs, remove_pack
from quiz.db.problem_reports import card_reports, get_report, reports_frame, resolve_report
from quiz.db.store import Store
from quiz.db.tables import trainee_pins, trainees
from quiz.model.errors import OutOfScopeError
from quiz.model.scope import Scope, Supervisor
from quiz.report import statistics as stats_sql
from quiz.report.csv_export import csv_bytes
from quiz.report.item_statistics import answer_pairs, distractors, item_statistics, open_report_counts
from quiz.report.review_queue import QueueRules, queue_table, regraded_counts, review_queue
from quiz.report.team import card_statistics, team_overview, weakest_categories
from quiz.report.team_findings import team_findings
from quiz.report.team_tables import card_table, overview_table
from tests.fake_clock import FakeClock
from tests.pack_files import scenario
from tests.two_stores import NOW, ONLY_B_CARD, SHARED_CARD, TwoStores, b_leaks, seed_two_stores

RULES = QueueRules(min_answers=1, strong_min_answers=1, min_strong_answers=1)


@pytest.fixture
def two(store: Store) -> TwoStores:
    return seed_two_stores(store)


def test_each_supervisor_lists_only_their_stores_trainees_and_an_admin_every_one(store, two):
    assert store.trainees(two.scope_a) == [two.aiko]
    assert store.trainees(two.scope_b) == [two.ben]
    assert {t.name for t in store.trainees(two.admin.scope())} == {"Aiko", "Ben-of-Umeda", "Solo"}
    assert store.trainees(two.admin.scope(two.b)) == [two.ben]


def test_a_supervisor_picking_another_store_still_gets_their_own():
    supervisor = Supervisor(id=1, name="Sato", role="supervisor", store_id=1)
    assert supervisor.scope(picked=2).store_id == 1
    with pytest.raises(OutOfScopeError):
        Scope(supervisor, 2)
    with pytest.raises(OutOfScopeError):
        Scope(supervisor, None)


def test_the_team_figures_and_their_csvs_hold_only_the_scopes_answers(store, content, two):
    overview = team_overview(store.engine, two.scope_a, NOW)
    assert overview["trainee"].tolist() == ["Aiko"]
    assert overview["answered"].tolist() == [3]
    cards = card_statistics(store.engine, two.scope_a)
    assert cards["card_id"].tolist() == [SHARED_CARD]
    assert cards.iloc[0]["answered"] == 3 and cards.iloc[0]["wrong_penalty"] == "game_loss"
    assert set(weakest_categories(store.engine, two.scope_a, min_answers=1)) == {two.aiko.id}
    findings = team_findings(store, two.scope_a)
    assert findings.by_trainee["trainee_id"].tolist() == [two.aiko.id]
    assert findings.by_card["answered"].tolist() == [3]
    assert findings.facts["answered"].tolist() == [3]
    shown = [overview_table(overview, {}, "UTC", findings), card_table(cards, content, "en", findings)]
    for table in shown:
        assert b_leaks(csv_bytes(table)) == []
    everyone = team_overview(store.engine, two.admin.scope(), NOW)
    assert sorted(everyone["trainee"]) == ["Aiko", "Ben-of-Umeda", "Solo"]
    assert card_statistics(store.engine, two.admin.scope()).set_index("card_id").loc[SHARED_CARD, "answered"] == 9
    picked = team_overview(store.engine, two.admin.scope(two.b), NOW)
    assert picked["trainee"].tolist() == ["Ben-of-Umeda"]


def test_the_statistics_path_filters_by_the_scope_of_the_supervisor(store, two):
    seen_by_a = stats_sql.AnswerScope(seen_by=two.scope_a)
    assert stats_sql.summary(store, seen_by_a).answered == 3
    assert stats_sql.summary(store, stats_sql.AnswerScope(seen_by=two.scope_b)).answered == 6
    assert stats_sql.summary(store, stats_sql.AnswerScope(seen_by=two.admin.scope())).answered == 10
    # a trainee of B asked for under A's scope: nothing, not B's figures
    assert stats_sql.summary(store, stats_sql.AnswerScope(trainee_id=two.ben.id, seen_by=two.scope_a)).answered == 0


def test_card_review_figures_and_csvs_hold_only_the_scopes_answers_and_reports(store, content, two):
    pairs = answer_pairs(store, two.scope_a)
    assert set(pairs["trainee_id"]) == {two.aiko.id}
    stats = item_statistics(store, two.scope_a, pairs=pairs)
    assert stats["card_id"].tolist() == [SHARED_CARD]
    assert stats.iloc[0]["answers"] == 3 and stats.iloc[0]["open_reports"] == 1
    assert open_report_counts(store, two.scope_a) == {SHARED_CARD: 1}
    assert open_report_counts(store, two.scope_b) == {ONLY_B_CARD: 1}
    chosen = distractors(store, two.scope_a)
    assert "duel_loss" not in set(chosen["chosen"])
    assert regraded_counts(store, two.scope_a) == {}
    queue = review_queue(store, content, two.scope_a, rules=RULES)
    assert queue["card_id"].tolist() == [SHARED_CARD]
    reports = reports_frame(store, two.scope_a)
    assert reports["trainee"].tolist() == ["Aiko"]
    for table in (queue_table(queue, {}), stats, chosen, reports):
        assert b_leaks(csv_bytes(table)) == []
    assert card_reports(store, two.scope_a, ONLY_B_CARD) == []
    assert [r.id for r in card_reports(store, two.scope_b, ONLY_B_CARD)] == [two.report_b]
    admin = two.admin.scope()
    assert set(item_statistics(store, admin)["card_id"]) == {SHARED_CARD, ONLY_B_CARD}
    assert sorted(reports_frame(store, admin)["id"]) == sorted([two.report_a, two.report_b])
    assert reports_frame(store, two.admin.scope(two.a))["id"].tolist() == [two.report_a]


def test_resolving_another_stores_report_is_refused_and_changes_nothing(store, two):
    with pytest.raises(OutOfScopeError):
        resolve_report(store, two.scope_a, two.report_b, "not mine")
    kept = get_report(store, two.report_b)
    assert kept is not None and not kept.resolved and kept.resolution is None
    assert resolve_report(store, two.scope_b, two.report_b, "fixed").resolved
    assert resolve_report(store, two.admin.scope(), two.report_a, "fixed too").resolved


def test_a_trainee_of_another_store_asked_for_by_name_is_refused(store, two):
    assert store.seen_trainee(two.scope_a, "aiko") == two.aiko
    assert store.seen_trainee(two.scope_a, "nobody") is None
    for name in ("Ben-of-Umeda", "Solo"):  # another store's, and a self-study player
        with pytest.raises(OutOfScopeError):
            store.seen_trainee(two.scope_a, name)
    assert store.seen_trainee(two.admin.scope(), "Solo") == two.solo


def test_a_new_pin_or_a_lifted_lock_for_another_stores_trainee_is_refused(store, two):
    set_pin(store, two.ben.id, "8642", None)  # the server's console: every store
    with store.engine.connect() as conn:
        before = conn.execute(select(trainee_pins.c.pin_hash).where(trainee_pins.c.trainee_id == two.ben.id)).scalar()
    clock = FakeClock()
    legacy = NameThrottles(ThrottlePolicy(base=1.0, factor=2.0, ceiling=60.0, lock_after=LOCK_AFTER), clock)
    for _ in range(LOCK_AFTER):  # wrong PINs under the old rule, which locked: its locks are still lifted
        clock.advance(sign_in(store, two.ben.name, "0000", legacy, LoginThrottle(clock)).retry_after)
    assert lockout_of(store, two.ben.id) is not None
    with pytest.raises(OutOfScopeError):
        set_pin(store, two.ben.id, "1357", two.supervisor_a)
    with pytest.raises(OutOfScopeError):
        lift_lockout(store, two.ben.id, two.supervisor_a)
    with pytest.raises(OutOfScopeError):
        set_pin(store, 987654, "1357", two.supervisor_a)  # no one's id: refused alike
    with store.engine.connect() as conn:
        after = conn.execute(select(trainee_pins.c.pin_hash).where(trainee_pins.c.trainee_id == two.ben.id)).scalar()
    assert after == before
    assert lockout_of(store, two.ben.id) is not None
    assert lift_lockout(store, two.ben.id, two.supervisor_b)
    set_pin(store, two.aiko.id, "1357", two.supervisor_a)
    set_pin(store, two.solo.id, "1357", two.admin)
    assert has_pin(store, two.aiko.id) and has_pin(store, two.solo.id)


def test_look_alike_names_are_listed_only_within_the_scope(store, two):
    with store.engine.begin() as conn:  # a look-alike as older rules let one be made
        conn.execute(insert(trainees).values(name="BEN-OF-UMEDA", created_at=NOW, store_id=two.b))
    assert look_alike_groups(store, two.scope_a) == []
    assert [len(group) for group in look_alike_groups(store, two.scope_b)] == [2]


def test_a_supervisor_removes_only_their_stores_packs(store, two, tmp_path):
    local = tmp_path / "content"  # an empty local content folder
    ids = {}
    for who, store_id, card_id in ((two.supervisor_b, two.b, "pack-ygo-b"), (two.admin, None, "pack-ygo-all"),
                                   (two.supervisor_a, two.a, "pack-ygo-a")):
        imported = import_pack(store, who, f"{card_id}.yaml", scenario(card_id).encode("utf-8"), store_id=store_id,
                               local=local).imported
        ids[store_id] = next(pack.id for pack in list_packs(store, None, every_store=True) if pack.name == imported)
    for store_id in (two.b, None):  # another store's pack, and every store's (an admin's to remove)
        with pytest.raises(OutOfScopeError):
            remove_pack(store, two.supervisor_a, ids[store_id])
    assert {pack.id for pack in list_packs(store, None, every_store=True)} == set(ids.values())  # none removed
    remove_pack(store, two.supervisor_a, ids[two.a])
    remove_pack(store, two.admin, ids[two.b])
    assert [pack.id for pack in list_packs(store, None, every_store=True)] == [ids[None]]
