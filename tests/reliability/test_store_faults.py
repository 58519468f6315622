"""Concurrent writers and a writer killed mid-stream never lose an acknowledged answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from quiz.db.tables import attempts

pytestmark = [pytest.mark.reliability, pytest.mark.timed]
ROOT = Path(__file__).resolve().parents[2]
PROCESSES, ANSWERS = 8, 250


def _writer(url: str, trainee: str, count: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.writer", url, trainee, str(count)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _integrity_ok(url: str) -> bool:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name != "sqlite":
                return True
            return conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    finally:
        engine.dispose()


def _count(url: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(attempts)).scalar_one()
    engine.dispose()
    return total


def test_eight_processes_answering_at_once(db_url: str):
    from quiz.db.store import Store

    Store(db_url).dispose()  # the schema exists before the race starts
    writers = [_writer(db_url, f"trainee-{n}", ANSWERS) for n in range(PROCESSES)]
    outputs = [w.communicate(timeout=300) for w in writers]
    for writer, (out, err) in zip(writers, outputs):
        assert writer.returncode == 0, err
        assert out.count("ack ") == ANSWERS
    assert _count(db_url) == PROCESSES * ANSWERS
    assert _integrity_ok(db_url)


def test_a_writer_killed_mid_stream_loses_nothing_it_acknowledged(db_url: str):
    from quiz.db.store import Store

    Store(db_url).dispose()
    writer = _writer(db_url, "killed", 100_000)
    acknowledged: list[int] = []
    assert writer.stdout is not None
    for line in writer.stdout:
        acknowledged.append(int(line.split()[1]))
        if len(acknowledged) == 300:
            writer.send_signal(signal.SIGKILL)
            break
    writer.wait(30)
    assert writer.returncode == -signal.SIGKILL
    assert _integrity_ok(db_url)
    engine = create_engine(db_url)
    with engine.connect() as conn:
        stored = set(conn.execute(select(attempts.c.id)).scalars())
    engine.dispose()
    assert set(acknowledged) <= stored
    assert len(stored) >= 300
