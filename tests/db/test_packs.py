"""Packs kept in the database (quiz.db.packs): imported whole for one store or every store,
drawn only by that store's trainees, removed by marking, and picked up by every server
without a restart. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import insert, select

import quiz.db.packs as db_packs
from quiz.content.stored import store_view
from quiz.db.audit import entries
from quiz.db.packs import (
    PACKS,
    ServedContent,
    import_pack,
    list_packs,
    packs_version,
    remove_pack,
    stored_packs,
)
from quiz.db.store import Store
from quiz.db.tables import content_pack_cards, content_pack_files, content_packs, stores
from quiz.model.attempt import utc_now
from quiz.model.errors import OutOfScopeError, PackRemovalError
from quiz.model.scope import Supervisor
from tests.pack_files import knowledge, scenario, zip_of
from tests.waiting import wait_until

ADMIN = Supervisor(1, "admin", "admin", None)
NOTICE_LIMIT = 5.0  # seconds for another server to hear of an import (it normally takes well under one)


@pytest.fixture
def two(store: Store) -> tuple[Supervisor, Supervisor]:
    """Stores A and B, each with a supervisor account (ids 1..3: the admin first)."""
    from quiz.db.tables import supervisor_accounts

    with store.engine.begin() as conn:
        ids = [int(conn.execute(insert(stores).values(name=name, created_at=utc_now()).returning(stores.c.id))
                   .scalar_one()) for name in ("A", "B")]
        for account, (name, role, store_id) in enumerate(
                [("admin", "admin", None), ("sa", "supervisor", ids[0]), ("sb", "supervisor", ids[1])], start=1):
            conn.execute(insert(supervisor_accounts).values(
                id=account, store_id=store_id, name=name, name_key=name, role=role, credential_version="v",
                created_at=utc_now()))
    return Supervisor(2, "sa", "supervisor", ids[0]), Supervisor(3, "sb", "supervisor", ids[1])


@pytest.fixture
def local(tmp_path: Path) -> Path:
    return tmp_path / "content"  # an empty local content folder


def late(card_id: str = "pack-ygo-late-15") -> bytes:
    return scenario(card_id).encode("utf-8")


def test_a_stores_pack_is_drawn_by_its_trainees_only(store, two, content, local):
    a, b = two
    report = import_pack(store, a, "A's pack.yaml", late(), store_id=a.store_id, local=local)
    assert report.ok and report.imported is not None and report.imported.startswith("a-s-pack-")
    served = ServedContent().get(store, content)
    assert served is not content and "pack-ygo-late-15" in served.cards
    assert served.fingerprint() != content.fingerprint()  # the one cache key moves with the pack
    assert "pack-ygo-late-15" in store_view(served, a.store_id).cards
    for other in (b.store_id, None):  # another store's trainee, a self-study player
        view = store_view(served, other)
        assert "pack-ygo-late-15" not in view.cards and "pack-ygo-late-15" not in view.card_files
        assert view.fingerprint() != served.fingerprint()
        assert set(view.cards) == set(content.cards)
    assert store_view(served, a.store_id) is served  # nothing hidden from A: the same content
    assert [p.name for p in list_packs(store, a.store_id)] == [report.imported]
    assert list_packs(store, b.store_id) == [] and list_packs(store, None) == []
    assert [p.cards for p in list_packs(store, None, every_store=True)] == [1]


def test_a_pack_of_every_store_is_drawn_by_everyone_and_only_an_admin_imports_one(store, two, content, local):
    a, b = two
    with pytest.raises(OutOfScopeError):
        import_pack(store, a, "all.yaml", late(), store_id=None, local=local)
    with pytest.raises(OutOfScopeError):
        import_pack(store, a, "theirs.yaml", late(), store_id=b.store_id, local=local)
    assert stored_packs(store) == []
    data = zip_of({"late.yaml": scenario(), "k.yaml": knowledge()})
    assert import_pack(store, ADMIN, "all.zip", data, store_id=None, local=local).ok
    served = ServedContent().get(store, content)
    for who in (a.store_id, b.store_id, None):
        assert {"pack-ygo-late-15", "pack-pkm-k-piles"} <= set(store_view(served, who).cards)
    [pack] = stored_packs(store)
    assert [path for path, _ in pack.files] == ["pokemon-card-ja/k.yaml", "yugioh-ocg/late.yaml"]
    assert len(list_packs(store, b.store_id)) == 1  # every store's packs are listed to each store


def test_card_ids_are_checked_against_shipped_cards_and_every_stored_pack(store, two, local):
    a, b = two
    shipped = import_pack(store, a, "dup.yaml", late("ygo-tardiness-1min-store"), store_id=a.store_id, local=local)
    assert not shipped.ok and "scenarios/yugioh-ocg/tardiness.yaml" in shipped.problems[0].message
    first = import_pack(store, a, "first.yaml", late(), store_id=a.store_id, local=local)
    again = import_pack(store, b, "again.yaml", late(), store_id=b.store_id, local=local)  # another store too
    assert not again.ok and again.imported is None
    assert "already taken by an imported pack" in again.problems[0].message
    assert first.imported not in again.problems[0].message
    assert [p.store_id for p in list_packs(store, None, every_store=True)] == [a.store_id]


def test_an_id_claimed_by_another_server_between_the_check_and_the_commit_is_refused(store, two, local, monkeypatch):
    """The race two servers run: both check, one commits first; the other's insert of the same
    card id fails on the key and its second check names the pack that took it."""
    a, b = two
    check = db_packs.check_upload
    raced: list[str] = []

    def check_then_lose(*args, **kwargs):
        report = check(*args, **kwargs)
        if not raced:  # the other server commits the same id right after this check
            raced.append("x")
            monkeypatch.setattr(db_packs, "check_upload", check)
            other = import_pack(store, b, "other.yaml", late(), store_id=b.store_id, local=local)
            monkeypatch.setattr(db_packs, "check_upload", check_then_lose)
            assert other.ok
        return report

    monkeypatch.setattr(db_packs, "check_upload", check_then_lose)
    lost = import_pack(store, a, "mine.yaml", late(), store_id=a.store_id, local=local)
    assert not lost.ok and "already taken by an imported pack" in lost.problems[0].message
    with store.engine.connect() as conn:
        assert conn.execute(select(content_packs.c.store_id)).scalars().all() == [b.store_id]  # nothing half-written
        assert conn.execute(select(content_pack_cards.c.card_id)).scalars().all() == ["pack-ygo-late-15"]


def test_removal_marks_the_pack_frees_its_ids_and_is_refused_outside_the_scope(store, two, content, local):
    a, b = two
    name = import_pack(store, a, "first.yaml", late(), store_id=a.store_id, local=local).imported
    [pack] = list_packs(store, a.store_id)
    served = ServedContent()
    assert "pack-ygo-late-15" in served.get(store, content).cards
    with pytest.raises(OutOfScopeError):
        remove_pack(store, b, pack.id)
    assert remove_pack(store, a, pack.id) == name
    assert "pack-ygo-late-15" not in served.get(store, content).cards and served.get(store, content) is content
    with pytest.raises(PackRemovalError):
        remove_pack(store, a, pack.id)  # once only
    with store.engine.connect() as conn:  # kept for the record, its files too
        assert conn.execute(select(content_packs.c.removed_at)).scalar_one() is not None
        assert conn.execute(select(content_pack_files.c.path)).scalars().all() == ["yugioh-ocg/first.yaml"]
    assert import_pack(store, b, "reuse.yaml", late(), store_id=b.store_id, local=local).ok  # the id is free again


def test_imports_and_removals_are_in_the_audit_log(store, two, local):
    a, _ = two
    name = import_pack(store, a, "first.yaml", late(), store_id=a.store_id, local=local).imported
    remove_pack(store, a, list_packs(store, a.store_id)[0].id)
    rows = entries(store, a.scope())
    assert [(r.action, r.actor, r.target, r.store_id) for r in rows] == [
        ("pack_removed", "sa", name, a.store_id), ("pack_imported", "sa", name, a.store_id)]
    assert rows[1].detail == {"cards": 1}


def test_the_version_moves_with_each_import_and_removal(store, two, local):
    a, _ = two
    start = packs_version(store)
    import_pack(store, a, "first.yaml", late(), store_id=a.store_id, local=local)
    imported = packs_version(store)
    remove_pack(store, a, list_packs(store, a.store_id)[0].id)
    assert len({start, imported, packs_version(store)}) == 3


def test_another_server_hears_of_an_import_without_asking(postgres_url, content, local):
    """Two servers on one PostgreSQL database: the second keeps the packs' version in memory
    (no query per run) and hears of the first's import by its notice, within seconds."""
    first, second = Store(postgres_url), Store(postgres_url)
    try:
        watch = second.watches.kept(PACKS)
        wait_until(lambda: watch.live, "the second server listens (its first probe came back)", NOTICE_LIMIT)
        served = ServedContent()
        before = served.get(second, content)
        assert before is content
        assert import_pack(first, None, "late.yaml", late(), store_id=None, local=local).ok
        started = time.monotonic()
        wait_until(lambda: "pack-ygo-late-15" in served.get(second, content).cards,
                   "the second server serves the pack", NOTICE_LIMIT)
        print(f"\nanother server served the pack {time.monotonic() - started:.3f} s after the import")
    finally:
        first.dispose()
        second.dispose()
