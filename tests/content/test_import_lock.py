"""Two servers sharing a content folder import the same card id at the same moment: the
import holds a lock in the folder across check and commit, so exactly one pack gets it."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from quiz.content.packs import existing_card_ids, import_pack
from tests.pack_files import scenario

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods() and "spawn" not in multiprocessing.get_all_start_methods(),
    reason="needs separate processes",
)

CARD_ID = "pack-ygo-race-1"


def _import(folder: str, upload: str, barrier, results) -> None:
    """One server: wait for the other, then import (each process has its own thread lock)."""
    import time

    from quiz.content import packs

    checked = packs._taken_ids

    def slow_check(*args, **kwargs):  # a slow disk: the other server checks meanwhile
        found = checked(*args, **kwargs)
        time.sleep(0.5)  # intended: widens the race window in the child, not a wait on state
        return found

    packs._taken_ids = slow_check
    text = scenario(CARD_ID).encode("utf-8")
    barrier.wait()
    report = import_pack(upload, text, Path(folder))
    results.put((upload, report.imported_to is not None, [p.message for p in report.problems]))


def test_two_processes_never_import_one_card_id_twice(tmp_path):
    folder = tmp_path / "content"
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    workers = [context.Process(target=_import, args=(str(folder), f"{name}.yaml", barrier, results))
               for name in ("server-a", "server-b")]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    imported = [upload for upload, ok, _ in outcomes if ok]
    refused = [problems for _, ok, problems in outcomes if not ok]
    assert len(imported) == 1, outcomes
    assert len(refused) == 1 and any(CARD_ID in message and "already used" in message for message in refused[0])
    holders = [path for path in folder.rglob("*.yaml") if CARD_ID in path.read_text(encoding="utf-8")]
    assert len(holders) == 1, holders
    assert CARD_ID in existing_card_ids([folder])
