"""Test databases: a SQLite file, or a fresh database on the PostgreSQL server under test."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import uuid
from contextlib import closing
from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

POSTGRES_VARIABLE = "QUIZ_TEST_DATABASE_URL"
SKIP_REASON = (
    f"{POSTGRES_VARIABLE} is not set (`make test` starts a throwaway PostgreSQL server and sets it)"
)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'quiz.db'}"


_migrated: list[Path] = []  # this test process's database at the head revision, made once


def migrated(url: str) -> str:
    """``url``, and when it names a SQLite file not made yet, that file made as a copy of a
    database this process migrated to the head revision once: each test still has a database
    of its own, without running every migration again (most of a fresh store's start). Tests
    of the migrations themselves take ``db_url`` as it is."""
    path = make_url(url).database
    if make_url(url).get_backend_name() != "sqlite" or not path or Path(path).exists():
        return url
    if not _migrated:
        from quiz.db.store import Store

        folder = Path(tempfile.mkdtemp(prefix="quiz-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = folder / "quiz.db"
        Store(f"sqlite:///{template}").dispose()
        _migrated.append(template)
    copy_database(_migrated[0], url)
    return url


def copy_database(source: Path, url: str) -> None:
    """The SQLite file ``source`` copied to the file ``url`` names: a consistent copy, its
    write-ahead log and all, for a test to change as it likes."""
    with closing(sqlite3.connect(source)) as original, closing(sqlite3.connect(make_url(url).database)) as copy:
        original.backup(copy)


def postgres_database(migrated: bool = False) -> Iterator[str]:
    """A new database on the server of QUIZ_TEST_DATABASE_URL, dropped afterwards: empty, or
    with ``migrated`` a copy of one this process migrated to the head revision once (PostgreSQL
    copies a template's files in about a third of the migrations' time)."""
    server = os.environ.get(POSTGRES_VARIABLE)
    if not server:
        pytest.skip(SKIP_REASON)
    name = f"quiz_test_{uuid.uuid4().hex[:12]}"
    template = f' TEMPLATE "{_postgres_template(server)}"' if migrated else ""
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{template}'))  # generated names, not input
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


_postgres_templates: dict[str, str] = {}  # server URL: this process's database there at the head revision


def _postgres_template(server: str) -> str:
    """The name of this process's database on ``server`` at the head revision, migrated at its
    first use and dropped when the process ends. Nothing stays connected to it: PostgreSQL
    copies only a template nobody is connected to."""
    if server not in _postgres_templates:
        from quiz.db.store import Store

        name = f"quiz_template_{uuid.uuid4().hex[:12]}"
        admin = create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        Store(make_url(server).set(database=name).render_as_string(hide_password=False)).dispose()
        _postgres_templates[server] = name
        atexit.register(_drop_database, admin, name)
    return _postgres_templates[server]


def _drop_database(admin: Engine, name: str) -> None:
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    except SQLAlchemyError:  # the throwaway server may be gone first
        pass
    admin.dispose()


class OwnPostgres:
    """A PostgreSQL server of one test's own (Debian's binaries, as scripts/with-postgres.sh
    uses), in a folder of its own under /tmp (which the ``postgres`` user can reach when the
    tests run as root): to restart at will without touching the shared one."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name)) \
            if Path("/usr/lib/postgresql").is_dir() else []
        if not found:
            pytest.skip("no PostgreSQL binaries here (Debian's postgresql package)")
        self.bin = found[-1]
        self.folder = Path(tempfile.mkdtemp(prefix="quiz-own-pg-"))
        self.data = self.folder / "data"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"postgresql+psycopg://quiz@127.0.0.1:{self.port}/postgres"

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), *args],  # noqa: S603
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> OwnPostgres:
        if self.as_user:
            shutil.chown(self.folder, "postgres")
        subprocess.run([*self.as_user, str(self.bin / "initdb"), "-D", str(self.data), "-U", "quiz",  # noqa: S603
                        "--auth=trust", "-E", "UTF8"], check=True, capture_output=True, timeout=120)
        self._pg_ctl("-l", str(self.folder / "server.log"), "-w", "-t", "60", "-o",
                     f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
        return self

    def restart(self) -> None:
        """A fast restart (every session ended, the server down for a moment), as an operator's."""
        self._pg_ctl("-l", str(self.folder / "server.log"), "-m", "fast", "-w", "-t", "60", "restart")

    def close(self) -> None:
        """Stop the server (if started) and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            self._pg_ctl("-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
