"""Content packs kept in the database, shared by every server of a deployment.

An import checks the upload (``quiz.content.packs.check_pack``) and writes the pack, its
checked files and its card ids in one transaction with its audit row. Card ids are claimed in
``content_pack_cards``, whose primary key lets one pack only have an id: two servers importing
the same id at once cannot both commit, and the loser is checked again (its report then names
the pack that took the id). A removal marks ``removed_at`` (the files stay, for the record) and
frees the pack's ids. Both notify the ``PACKS`` channel at commit (``quiz.db.watches``, as the
PIN check does): every server's ``packs_version`` is read again, and ``ServedContent`` loads the
stored packs into its content, so a pack is served everywhere within a second or two of its
import without a restart. On SQLite (one machine, no notices) the version is one cheap query
per page run.

Who may: a supervisor for their own store, an admin for any store or for every store (a pack
of no store); ``by=None`` is the system (the command line).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Sequence

from sqlalchemy import delete as sql_delete
from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR, Content
from quiz.content.packs import DEFAULT_LIMITS, PackReport, check_pack, content_dir, pack_name
from quiz.content.stored import StoredPack, pack_path, with_packs
from quiz.content.uploads import UploadLimits
from quiz.db.audit import record
from quiz.db.sql import inserted_id
from quiz.db.store import Store
from quiz.db.tables import content_pack_cards, content_pack_files, content_packs
from quiz.model.attempt import utc_now
from quiz.model.errors import OutOfScopeError, PackRemovalError
from quiz.model.scope import Supervisor

PACKS = "quiz_packs"  # the channel an import or a removal notifies (quiz.db.watches)
VERSION_KEY = 0  # the one value watched on it: the packs' version
Version = tuple[int, int]  # the newest pack's id, how many were removed: moves with every change


@dataclass(frozen=True, slots=True)
class PackInfo:
    """A stored pack as the Content page lists it."""

    id: int
    name: str
    store_id: int | None
    files: int
    cards: int
    imported_at: datetime


def import_pack(
    store: Store, by: Supervisor | None, upload: str, data: bytes, *, store_id: int | None,
    rulesets_dir: Path = RULESETS_DIR, shipped: Sequence[Path] = (SCENARIOS_DIR,), local: Path | None = None,
    limits: UploadLimits = DEFAULT_LIMITS,
) -> PackReport:
    """Check an upload and, when it has no problem at all, store it as a pack of ``store_id``
    (None: every store's), imported by ``by``. ``report.imported`` is its name once stored.
    Raises ``OutOfScopeError`` when ``by`` may not import for that store."""
    if by is not None and not by.sees(store_id):
        raise OutOfScopeError(f"{by.name} may not import a pack for store {store_id}")
    for _ in range(2):  # a second check only when another server claimed an id meanwhile
        report = check_upload(store, upload, data, rulesets_dir=rulesets_dir, shipped=shipped, local=local,
                              limits=limits)
        if not report.ok:
            return report
        name = pack_name(upload)
        try:
            with store.engine.begin() as conn:
                pack_id = inserted_id(conn.execute(insert(content_packs).values(
                    name=name, store_id=store_id, imported_at=utc_now(), imported_by=by.id if by else None)))
                conn.execute(insert(content_pack_files), [
                    {"pack_id": pack_id, "path": path, "text": text} for path, text in report.staged.items()])
                conn.execute(insert(content_pack_cards), [
                    {"card_id": preview.card.id, "pack_id": pack_id} for preview in report.cards])
                record(conn, by, "pack_imported", name, store_id, {"cards": len(report.cards)})
                store.watches.notify(conn, PACKS, VERSION_KEY)  # every server reads the packs again, at commit
        except IntegrityError:
            continue  # an id claimed by a pack committed meanwhile: checked again, it says which
        store.watches.changed(PACKS, VERSION_KEY)  # this process at once
        report.imported = name
        return report
    raise RuntimeError(f"the pack {upload!r} could not be stored")  # pragma: no cover - two lost races


def check_upload(
    store: Store, upload: str, data: bytes, *, rulesets_dir: Path = RULESETS_DIR,
    shipped: Sequence[Path] = (SCENARIOS_DIR,), local: Path | None = None, limits: UploadLimits = DEFAULT_LIMITS,
) -> PackReport:
    """``check_pack`` against the shipped cards, the local content folder's (``local``, by
    default ``QUIZ_CONTENT_DIR``) and every stored pack's: what the Content page previews."""
    return check_pack(upload, data, content_dir() if local is None else local, rulesets_dir=rulesets_dir,
                      shipped=shipped, taken=claimed_ids(store), limits=limits)


def remove_pack(store: Store, by: Supervisor | None, pack_id: int) -> str:
    """Mark the pack ``pack_id`` removed (its cards leave every server's content at once) and
    free its card ids; its name. ``PackRemovalError`` when there is no such pack left,
    ``OutOfScopeError`` when ``by`` does not see its store (an admin only, for a pack of every store)."""
    with store.engine.begin() as conn:
        found = conn.execute(select(content_packs.c.name, content_packs.c.store_id).where(
            content_packs.c.id == pack_id, content_packs.c.removed_at.is_(None))).one_or_none()
        if found is None:
            raise PackRemovalError(f"no pack {pack_id}")
        if by is not None and not by.sees(found.store_id):
            raise OutOfScopeError(f"{by.name} may not remove the pack {found.name!r}")
        marked = conn.execute(update(content_packs).where(
            content_packs.c.id == pack_id, content_packs.c.removed_at.is_(None)).values(removed_at=utc_now()))
        if marked.rowcount != 1:  # another server removed it meanwhile
            raise PackRemovalError(f"no pack {pack_id}")
        conn.execute(sql_delete(content_pack_cards).where(content_pack_cards.c.pack_id == pack_id))
        record(conn, by, "pack_removed", found.name, found.store_id)
        store.watches.notify(conn, PACKS, VERSION_KEY)
    store.watches.changed(PACKS, VERSION_KEY)
    return str(found.name)


def list_packs(store: Store, store_id: int | None, every_store: bool = False) -> list[PackInfo]:
    """The packs not removed, newest first: those the trainees of ``store_id`` draw (its own and
    every store's; None: every store's only), or every pack when ``every_store``."""
    files = (select(content_pack_files.c.pack_id, func.count().label("files"))
             .group_by(content_pack_files.c.pack_id).subquery())
    cards = (select(content_pack_cards.c.pack_id, func.count().label("cards"))
             .group_by(content_pack_cards.c.pack_id).subquery())
    query = (
        select(content_packs.c.id, content_packs.c.name, content_packs.c.store_id, content_packs.c.imported_at,
               func.coalesce(files.c.files, 0), func.coalesce(cards.c.cards, 0))
        .select_from(content_packs.outerjoin(files, files.c.pack_id == content_packs.c.id)
                     .outerjoin(cards, cards.c.pack_id == content_packs.c.id))
        .where(content_packs.c.removed_at.is_(None))
        .order_by(content_packs.c.id.desc())
    )
    if not every_store:
        query = query.where(or_(content_packs.c.store_id.is_(None), content_packs.c.store_id == store_id))
    with store.engine.connect() as conn:
        return [PackInfo(row[0], row[1], row[2], int(row[4]), int(row[5]), row[3]) for row in conn.execute(query)]


def claimed_ids(store: Store) -> dict[str, str]:
    """Card id -> the stored pack file that holds it, for every pack not removed."""
    query = (select(content_pack_cards.c.card_id, content_packs.c.name)
             .join(content_packs, content_packs.c.id == content_pack_cards.c.pack_id))
    with store.engine.connect() as conn:
        return {card_id: pack_path(name, "") for card_id, name in conn.execute(query)}


def stored_packs(store: Store) -> list[StoredPack]:
    """Every pack not removed, oldest first, with its files."""
    query = (select(content_packs.c.id, content_packs.c.name, content_packs.c.store_id,
                    content_pack_files.c.path, content_pack_files.c.text)
             .join(content_pack_files, content_pack_files.c.pack_id == content_packs.c.id)
             .where(content_packs.c.removed_at.is_(None))
             .order_by(content_packs.c.id, content_pack_files.c.path))
    packs: dict[int, tuple[str, int | None, list[tuple[str, str]]]] = {}
    with store.engine.connect() as conn:
        for pack_id, name, owner, path, text in conn.execute(query):
            packs.setdefault(pack_id, (name, owner, []))[2].append((path, text))
    return [StoredPack(pack_id, name, owner, tuple(files)) for pack_id, (name, owner, files) in packs.items()]


def packs_version(store: Store) -> Version:
    """The packs' version: kept in memory until the database says it may have moved (a
    notice on PostgreSQL, a commit on SQLite; ``quiz.db.watches``), at most
    ``quiz.db.kept_values.MAX_AGE`` seconds."""
    version: Version = store.watches.kept(PACKS).get(VERSION_KEY, lambda: _read_version(store))
    return version


def _read_version(store: Store) -> Version:
    query = select(func.coalesce(func.max(content_packs.c.id), 0), func.count(content_packs.c.removed_at))
    with store.engine.connect() as conn:
        newest, removed = conn.execute(query).one()
    return int(newest), int(removed)


class ServedContent:
    """The content a server serves: the folders' content with every stored pack, loaded again
    when the packs' version moves (``packs_version``), never otherwise."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: tuple[Store, Content, Version, Content] | None = None

    def get(self, store: Store, base: Content) -> Content:
        """``base`` with the stored packs of ``store``'s database as they are now."""
        version = packs_version(store)
        found = self._found(store, base, version)
        if found is not None:
            return found
        with self._lock:  # one load for every session that finds it out of date
            found = self._found(store, base, version)
            if found is None:
                found = with_packs(base, stored_packs(store))
                self._kept = (store, base, version, found)
            return found

    def _found(self, store: Store, base: Content, version: Version) -> Content | None:
        kept = self._kept
        if kept is not None and kept[0] is store and kept[1] is base and kept[2] == version:
            return kept[3]
        return None
