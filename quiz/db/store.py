"""Trainees and their attempts, over SQLAlchemy Core, on SQLite or PostgreSQL.

``Store`` opens the database (``quiz.db.engine``), brings its schema forward
(``quiz.db.migrate``), holds the values it keeps in memory (``store.watches``,
``quiz.db.watches``) and reads and writes trainees; the other db modules take a Store.
SQL that differs by database is kept to ``quiz.db.sql.local_date`` and PostgreSQL's
one-statement answer write (``quiz.db.answers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Engine, insert, select
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError

from quiz.db.engine import database_url, make_engine
from quiz.db.frames import FRAME_COLUMNS, attempts_frame
from quiz.db.migrate import Upgrade, upgrade
from quiz.db.scoped import refuse_unseen, sees_store
from quiz.db.sql import inserted_id
from quiz.db.tables import attempts, trainee_name_keys, trainees
from quiz.db.watches import Watches
from quiz.model.attempt import utc_now
from quiz.model.names import NAME_INPUT_MAX, NAME_KEY_MAX, NAME_MAX, name_key, valid_name
from quiz.model.scope import Scope

if TYPE_CHECKING:  # imported where a frame is built: answering a card never needs pandas
    import pandas as pd


@dataclass(frozen=True, slots=True)
class Trainee:
    """A person who answers cards."""

    id: int
    name: str
    created_at: datetime
    store_id: int | None = None  # the store they joined; None: a self-study player


class Store:
    """Trainees and their attempts in one database; every write is committed at once."""

    def __init__(self, url: str | None = None) -> None:
        self.url = make_url(database_url(url))
        self.engine: Engine = make_engine(self.url)
        # The same pool, for reads of one statement that every click makes (the PIN check, the
        # due count, the deal): no transaction around them. On PostgreSQL a transaction's BEGIN,
        # and the ROLLBACK the pool sends when the connection is returned, are two round trips
        # more than the query itself.
        self.reads: Engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        # PostgreSQL runs an update and an insert in one statement (a data-modifying WITH):
        # an answer is stored in two round trips, not five (quiz.db.answers)
        self.one_statement_writes = self.url.get_backend_name() == "postgresql"
        # values kept in memory while the database says they have not changed (quiz.db.watches)
        self.watches = Watches(self.engine)
        try:
            self.upgraded: Upgrade | None = upgrade(self.engine)  # what this start did to the schema
        except BaseException:
            self.engine.dispose()
            raise

    def trainee(self, name: str) -> Trainee:
        """The trainee of that name (see ``find_trainee``), created if new: the name stripped,
        1 to 60 characters, and meeting ``valid_name``'s rules."""
        found = self.find_trainee(name)
        if found is not None:
            return found
        name = valid_name(name)
        try:
            with self.engine.begin() as conn:
                self.insert_trainee(conn, name)
        except IntegrityError:  # created meanwhile by another session (or a look-alike of it was)
            pass
        created = self.find_trainee(name)
        assert created is not None
        return created

    def find_trainee(self, name: str) -> Trainee | None:
        """The trainee of that name (stripped), or else of that canonical name (``name_key``:
        "ALICE" and "Ａlice" find Alice), or None. Input longer than any name finds nobody,
        without a query."""
        if len(name) > NAME_INPUT_MAX or not 1 <= len(stripped := name.strip()) <= NAME_MAX:
            return None
        self.fill_name_keys()
        with self.engine.connect() as conn:
            row = conn.execute(select(trainees).where(trainees.c.name == stripped)).one_or_none()
            if row is None:
                by_key = trainees.join(trainee_name_keys, trainee_name_keys.c.trainee_id == trainees.c.id)
                row = conn.execute(select(trainees).select_from(by_key)
                                   .where(trainee_name_keys.c.name_key == name_key(stripped))).one_or_none()
        return Trainee(**row._mapping) if row is not None else None

    def insert_trainee(self, conn: Connection, name: str) -> int:
        """Add a trainee of a name ``valid_name`` passed, with its canonical key, in the caller's
        transaction; its id. ``IntegrityError`` when the name or its canonical form is taken."""
        self.fill_name_keys()
        created = conn.execute(insert(trainees).values(name=name, created_at=utc_now()))
        trainee_id = inserted_id(created)
        conn.execute(insert(trainee_name_keys).values(trainee_id=trainee_id, name_key=name_key(name)))
        return trainee_id

    def fill_name_keys(self) -> None:
        """Give every trainee made before canonical keys existed its key (once per Store). When
        two old trainees share a key, the first keeps it and the other stays without one: both
        still sign in by their exact names, and ``look_alike_groups`` lists them."""
        if getattr(self, "_name_keys_filled", False):
            return
        missing = (select(trainees.c.id, trainees.c.name)
                   .select_from(trainees.outerjoin(trainee_name_keys, trainee_name_keys.c.trainee_id == trainees.c.id))
                   .where(trainee_name_keys.c.trainee_id.is_(None)).order_by(trainees.c.id))
        with self.engine.connect() as conn:
            rows = conn.execute(missing).all()
        for trainee_id, name in rows:
            key = name_key(name)
            if not key or len(key) > NAME_KEY_MAX:
                continue
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(trainee_name_keys).values(trainee_id=trainee_id, name_key=key))
            except IntegrityError:  # a look-alike of an earlier trainee, or filled meanwhile by another server
                pass
        self._name_keys_filled = True

    def trainees(self, scope: Scope) -> list[Trainee]:
        """The trainees ``scope`` sees (its store's; every one for every store), by name."""
        query = select(trainees).where(sees_store(trainees.c.store_id, scope)).order_by(trainees.c.name)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [Trainee(**row._mapping) for row in rows]

    def seen_trainee(self, scope: Scope, name: str) -> Trainee | None:
        """The trainee of that name (``find_trainee``), or None; ``OutOfScopeError`` when
        there is one but ``scope`` does not see them (a name a page never offered)."""
        found = self.find_trainee(name)
        if found is not None:
            with self.engine.connect() as conn:
                refuse_unseen(conn, scope, found.id)
        return found

    def attempts(self, trainee_id: int | None = None) -> pd.DataFrame:
        """Every attempt (of one trainee if given), oldest first; see ``attempts_frame``."""
        query = select(*(attempts.c[name] for name in FRAME_COLUMNS))
        if trainee_id is not None:
            query = query.where(attempts.c.trainee_id == trainee_id)
        query = query.order_by(attempts.c.answered_at, attempts.c.id)
        with self.engine.connect() as conn:
            rows = [row._mapping for row in conn.execute(query)]
        return attempts_frame(rows)

    def card_results(
        self, trainee_id: int, last: int | None = None, newest: int | None = None
    ) -> dict[str, list[bool]]:
        """Card id -> whether each attempt of the trainee was right, oldest first.

        ``last`` keeps only each card's ``last`` newest results; ``newest`` reads only the
        trainee's ``newest`` most recently recorded attempts (one index range, however long
        the history), so a trainee with 100,000 answers is dealt a card as fast as a new one.
        """
        rows = select(attempts.c.card_id, attempts.c.correct, attempts.c.answered_at, attempts.c.id).where(
            attempts.c.trainee_id == trainee_id
        )
        if newest is not None:
            rows = rows.order_by(attempts.c.id.desc()).limit(newest)
        window = rows.subquery()
        query = select(window.c.card_id, window.c.correct).order_by(window.c.answered_at, window.c.id)
        results: dict[str, list[bool]] = {}
        with self.reads.connect() as conn:
            for card_id, correct in conn.execute(query):
                results.setdefault(card_id, []).append(bool(correct))
        if last is not None:
            results = {card_id: found[-last:] for card_id, found in results.items()}
        return results

    def dispose(self) -> None:
        """Close every pooled connection, and stop the watches."""
        self.watches.close()
        self.engine.dispose()
