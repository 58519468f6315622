"""The database of trainees and their attempts, over SQLAlchemy Core.

Works on SQLite now (a file under ``data/`` by default) and uses no dialect-specific SQL,
so another database only needs its URL in ``QUIZ_DATABASE_URL``.
"""

from __future__ import annotations

import errno
import os
import threading
import time
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping
from zoneinfo import ZoneInfo

from sqlalchemy import (
    ColumnElement,
    Engine,
    Table,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from quiz.db.liveness import replace_closed_connections
from quiz.db.tables import (
    COLUMNS_ADDED,
    NAME_KEY_MAX,
    NAME_MAX,
    attempts,
    metadata,
    schema_version,
    trainee_name_keys,
    trainees,
)
from quiz.db.watched import WatchedValues
from quiz.model.attempt import ATTEMPT_FIELDS, FIX_FIELDS, utc_now
from quiz.model.errors import NameRuleError, SchemaVersionError

if TYPE_CHECKING:  # imported where a frame is built: answering a card never needs pandas
    import pandas as pd

SCHEMA_VERSION = 3
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
URL_VARIABLE = "QUIZ_DATABASE_URL"
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000", "PRAGMA foreign_keys=ON")
PREPARE_TRIES = 5  # app servers starting together on an empty database race to create it





FRAME_COLUMNS: tuple[str, ...] = ("id", *ATTEMPT_FIELDS)
_TEXT = "str"
FRAME_DTYPES: dict[str, Any] = {
    "id": "int64",
    "trainee_id": "int64",
    "correct": "bool",
    "penalty_steps": "Int64",
    "seconds": "float64",
    "answered_at": "datetime64[us, UTC]",
    "exam_id": "Int64",
    "variant_values": "object",  # a dict (JSON), or None
    "findings": "object",  # a list of FindingRecord.stored() dicts (JSON), or None
    "penalty_follows_findings": "boolean",
    **{name: "object" for name in FIX_FIELDS},
}


@dataclass(frozen=True, slots=True)
class Trainee:
    """A person who answers cards."""

    id: int
    name: str
    created_at: datetime


def database_url(url: str | None = None) -> str:
    """The URL given, else ``$QUIZ_DATABASE_URL``, else the SQLite file ``data/quiz.db``."""
    return url or os.environ.get(URL_VARIABLE) or f"sqlite:///{DATA_DIR / 'quiz.db'}"


def attempts_frame(rows: Iterable[Mapping[Any, Any]]) -> pd.DataFrame:
    """Attempt rows (``id`` and every AttemptRecord field) as a typed DataFrame.

    ``answered_at`` is tz-aware UTC, fixes are tuples, nullable integers are ``Int64``
    and text columns use pandas' string dtype (``variant_values`` stays a dict or None); an
    empty frame has the same columns.
    """
    import pandas as pd

    frame = pd.DataFrame.from_records(list(rows), columns=list(FRAME_COLUMNS))
    dtypes = {name: FRAME_DTYPES.get(name, _TEXT) for name in FRAME_COLUMNS}
    frame["answered_at"] = pd.to_datetime(frame["answered_at"], utc=True)
    return frame.astype(dtypes)


class Store:
    """Trainees and their attempts in one database; every write is committed at once."""

    def __init__(self, url: str | None = None) -> None:
        self.url = make_url(database_url(url))
        if self.url.get_backend_name() == "sqlite":
            _make_folder(self.url.database)
        self.engine: Engine = create_engine(self.url, **_engine_options(self.url.get_backend_name()))
        # The same pool, for reads of one statement that every click makes (the PIN check, the
        # due count, the deal): no transaction around them. On PostgreSQL a transaction's BEGIN,
        # and the ROLLBACK the pool sends when the connection is returned, are two round trips
        # more than the query itself.
        self.reads: Engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        if self.url.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:  # a pooled connection the server closed (a restart) is replaced, not used
            replace_closed_connections(self.engine)
        # PostgreSQL runs an update and an insert in one statement (a data-modifying WITH):
        # an answer is stored in two round trips, not five (quiz.db.answers)
        self.one_statement_writes = self.url.get_backend_name() == "postgresql"
        self._watches: dict[str, WatchedValues[Any]] = {}
        self._watches_lock = threading.Lock()
        try:
            _prepare(self.engine)
        except BaseException:
            self.engine.dispose()
            raise

    def watched(self, channel: str) -> WatchedValues[Any]:
        """This store's watch on ``channel`` (``quiz.db.watched``), started on first use."""
        with self._watches_lock:
            watch = self._watches.get(channel)
            if watch is None:
                watch = self._watches[channel] = WatchedValues(self.engine, channel)
            return watch

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

    def trainees(self) -> list[Trainee]:
        """Every trainee, ordered by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(trainees).order_by(trainees.c.name)).all()
        return [Trainee(**row._mapping) for row in rows]

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
        with self._watches_lock:
            for watch in self._watches.values():
                watch.close()
            self._watches.clear()
        self.engine.dispose()


NAME_INPUT_MAX = 4 * NAME_MAX  # characters looked at: longer input is refused before any other work
# Control, format (zero-width, bidi controls, soft hyphen, BOM), surrogate, private-use and
# unassigned characters, and line/paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Scripts written together in one word in East Asian names (Japanese mixes Han, hiragana,
# katakana and Latin letters); any other two scripts in one word are refused.
_EAST_ASIAN_SCRIPTS = frozenset({"Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"})
_SCRIPT_OF_PREFIX = {"CJK": "Han", "IDEOGRAPHIC": "Han", "KATAKANA-HIRAGANA": "Katakana"}


def upsert(conn: Connection, table: Table, key: Mapping[str, Any], values: Mapping[str, Any]) -> None:
    """Within the caller's transaction: set ``values`` on the row of ``table`` whose columns
    equal ``key``, inserting the row when there is none."""
    where = [table.c[name] == value for name, value in key.items()]
    if not conn.execute(update(table).where(*where).values(**values)).rowcount:
        conn.execute(insert(table).values(**key, **values))


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT just added."""
    key = result.inserted_primary_key
    assert key is not None  # an INSERT of one row always has it
    return int(key[0])


def valid_name(name: str) -> str:
    """The name stripped, for a new trainee; ``NameRuleError`` (a ValueError) unless it is 1 to
    60 characters, none of them hidden (control, format, zero-width, bidi, separators), with
    no word mixing two alphabets (Latin with Cyrillic or Greek; Han, kana and Latin together
    are fine) and a canonical form (``name_key``) that fits its column."""
    def too_long(length: int) -> NameRuleError:
        return NameRuleError("length", f"a trainee name must be 1 to {NAME_MAX} characters, got {length}")

    if len(name) > NAME_INPUT_MAX:
        raise too_long(len(name))
    stripped = name.strip()
    if not 1 <= len(stripped) <= NAME_MAX:
        raise too_long(len(stripped))
    hidden = [char for char in stripped if unicodedata.category(char) in HIDDEN_CATEGORIES]
    if hidden:
        codes = ", ".join(f"U+{ord(char):04X}" for char in dict.fromkeys(hidden))
        raise NameRuleError("invisible", f"a trainee name cannot hold invisible or control characters ({codes})")
    mixed = mixed_scripts(stripped)
    if mixed:
        word, scripts = mixed[0]
        raise NameRuleError("mixed_script", f"the word {word!r} mixes letters of {' and '.join(scripts)}")
    if len(name_key(stripped)) > NAME_KEY_MAX:  # NFKC expands a few characters up to 18-fold
        raise NameRuleError("length", f"a trainee name must be 1 to {NAME_MAX} characters, and shorter once normalised")
    return stripped


def name_key(name: str) -> str:
    """The canonical form of a name, one per account and per name throttle: Unicode NFKC
    (full-width and half-width forms as the usual ones), case-folded, hidden characters dropped
    and runs of white space made one space. "Alice", " ALICE ", "Ａｌｉｃｅ" give "alice"."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(" " if char.isspace() else char for char in text
                   if char.isspace() or unicodedata.category(char) not in HIDDEN_CATEGORIES)
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def mixed_scripts(name: str) -> list[tuple[str, tuple[str, ...]]]:
    """The words of a name (after NFKC) holding letters of two or more alphabets, with them
    (Han, hiragana, katakana, hangul and bopomofo go with any one alphabet: "Tシャツ" is fine)."""
    found = []
    for word in unicodedata.normalize("NFKC", name).split():
        scripts = {script for char in word if (script := _script(char)) is not None} - _EAST_ASIAN_SCRIPTS
        if len(scripts) > 1:
            found.append((word, tuple(sorted(scripts))))
    return found


def _script(char: str) -> str | None:
    """The script of a letter (Latin, Cyrillic, Greek, Han, Hiragana, ...) from its Unicode
    name; None for digits, punctuation, marks and symbols, which go with any script."""
    if not unicodedata.category(char).startswith("L"):
        return None
    prefix = unicodedata.name(char, "").split(" ", 1)[0]
    if prefix in ("", "MODIFIER"):
        return None
    return _SCRIPT_OF_PREFIX.get(prefix, prefix.title())


def _make_folder(database: str | None) -> None:
    """Create the folder of a SQLite file (not for in-memory databases)."""
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def _engine_options(backend: str) -> dict[str, Any]:
    """Per-database options: PostgreSQL sessions work in UTC, so dates group by UTC day. (No
    ``pool_pre_ping``: ``quiz.db.liveness`` finds a closed connection without a round trip.)"""
    if backend == "postgresql":
        return {"connect_args": {"options": "-c timezone=UTC"}}
    return {}


LOCAL_DATE_FUNCTION = "quiz_local_date"


def local_date(store: Store, moment: ColumnElement[Any], time_zone: str) -> ColumnElement[Any]:
    """The calendar date (``YYYY-MM-DD``) of a stored UTC ``moment`` in ``time_zone`` (an IANA
    name), computed by the database: PostgreSQL's ``timezone()``; on SQLite the function
    every connection of the store registers (``_sqlite_local_date``)."""
    if store.engine.dialect.name == "sqlite":
        return getattr(func, LOCAL_DATE_FUNCTION)(moment, time_zone)
    return func.to_char(func.timezone(time_zone, moment), "YYYY-MM-DD")


def _sqlite_local_date(stored: str | None, time_zone: str) -> str | None:
    """``local_date`` for SQLite, which stores a UTC moment as ``YYYY-MM-DD HH:MM:SS[.ffffff]``."""
    if stored is None:
        return None
    moment = datetime.fromisoformat(stored).replace(tzinfo=UTC)
    return moment.astimezone(_zone(time_zone)).date().isoformat()


@lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal, a 5 s busy timeout, foreign keys, and the local-date function, on every
    new SQLite connection."""
    cursor = dbapi_connection.cursor()
    dbapi_connection.create_function(LOCAL_DATE_FUNCTION, 2, _sqlite_local_date, deterministic=True)
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _prepare(engine: Engine) -> None:
    """Refuse a newer schema, create missing tables and record the schema version.

    When another process creates the same tables or version row meanwhile (several app
    servers starting on one empty database), the database refuses the loser's statement;
    it tries again, and then finds them there.
    """
    for tries_left in reversed(range(PREPARE_TRIES)):
        try:
            _prepare_once(engine)
            return
        except DBAPIError:
            if not tries_left:
                raise
            time.sleep(0.1 * (PREPARE_TRIES - tries_left))


def _prepare_once(engine: Engine) -> None:
    with engine.begin() as conn:
        found = _stored_version(conn)
        if found is not None and found > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"the database has schema version {found}, but this app knows only up to "
                f"{SCHEMA_VERSION}; update the app (the database was left untouched)"
            )
        metadata.create_all(conn)
        if found is not None and found < SCHEMA_VERSION:
            _add_columns(conn, found)
        for table in metadata.sorted_tables:  # indexes added to tables that already existed
            for index in table.indexes:
                index.create(conn, checkfirst=True)
        if found is None:
            conn.execute(insert(schema_version).values(id=1, version=SCHEMA_VERSION))
        elif found < SCHEMA_VERSION:
            conn.execute(update(schema_version).where(schema_version.c.id == 1).values(version=SCHEMA_VERSION))


def _add_columns(conn: Connection, found: int) -> None:
    """Give a database of schema version ``found`` the columns later versions added."""
    inspector = inspect(conn)
    for version in range(found + 1, SCHEMA_VERSION + 1):
        for column in COLUMNS_ADDED.get(version, ()):
            if column.name in {c["name"] for c in inspector.get_columns(column.table.name)}:
                continue
            kind = column.type.compile(dialect=conn.dialect)
            table = conn.dialect.identifier_preparer.quote(column.table.name)
            name = conn.dialect.identifier_preparer.quote(column.name)
            conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))  # names from our own tables


def stored_schema_version(url: str | None = None) -> int | None:
    """The schema version the database at ``url`` (see ``database_url``) records, read without
    preparing it; None when it has none yet (a SQLite file that does not exist is not created)."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:" \
            and not parsed.database.startswith("file:") and not Path(parsed.database).exists():
        return None
    engine = create_engine(parsed, **_engine_options(parsed.get_backend_name()))
    try:
        with engine.connect() as conn:
            return _stored_version(conn)
    finally:
        engine.dispose()


def _stored_version(conn: Connection) -> int | None:
    if not inspect(conn).has_table(schema_version.name):
        return None
    return conn.execute(select(schema_version.c.version)).scalar_one_or_none()


# What a failing database says, by the kind of failure a page explains (``storage_problem``).
_SQLITE_KINDS = {
    "SQLITE_NOTADB": "corrupt", "SQLITE_CORRUPT": "corrupt",
    "SQLITE_READONLY": "read_only", "SQLITE_FULL": "read_only", "SQLITE_IOERR": "read_only",
    "SQLITE_CANTOPEN": "unreachable", "SQLITE_PERM": "read_only", "SQLITE_BUSY": "unreachable",
}
_OS_READ_ONLY = {"ENOSPC", "EROFS", "EACCES", "EPERM", "EDQUOT"}


def storage_problem(error: BaseException) -> str | None:
    """Which failure of the database ``error`` (or an error it was raised from) is, for the
    page that explains it: ``unreachable`` (a server down or a wrong address; a file that
    cannot be opened), ``corrupt`` (a file that is not a database), ``read_only`` (a database
    that cannot be written: a read-only or full disk), ``newer`` (a schema of a newer app),
    or None when it is no failure of the database (a bug, which the page does not hide)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, SchemaVersionError):
            return "newer"
        if isinstance(current, DBAPIError):
            name = getattr(current.orig, "sqlite_errorname", None)
            if isinstance(name, str):
                base = "_".join(name.split("_")[:2])  # SQLITE_IOERR_WRITE is an SQLITE_IOERR
                return _SQLITE_KINDS.get(base, "unreachable")
            return "unreachable"
        if isinstance(current, SQLAlchemyError):  # a pool timeout, a dropped connection
            return "unreachable"
        if isinstance(current, OSError) and errno.errorcode.get(current.errno or -1) in _OS_READ_ONLY:
            return "read_only"
        current = current.__cause__  # only what it was raised from: never a failure it merely followed
    return None
