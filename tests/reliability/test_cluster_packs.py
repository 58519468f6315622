"""A pack stored on the two-server cluster is drawn on the other server within seconds, by
its store's trainees only, without a restart (issue 27).

``scripts/cluster.sh`` brings up two app servers behind HAProxy on one PostgreSQL database
(as tests/reliability/test_cluster.py does), here with no shipped cards (``QUIZ_SCENARIOS_DIR``
an empty folder), so a trainee's practice pool is empty until a pack reaches it. Two trainees,
one of store A and one of store B, sign in on server 2 over its websocket and see the empty
pool. A pack of store A is then imported into the cluster's database as server 1 imports one
(``quiz.db.packs.import_pack``, which notifies every server at its commit). Trainee A reruns
the page until it deals the pack's card: within ``LIMIT`` seconds of the commit. Trainee B,
on the same server after that, still has nothing to practise. Both servers still run as
started. It waits on states (each rerun is one script run), never on fixed sleeps; the
figure is printed (``-s``). Skips with the reason where HAProxy or PostgreSQL cannot be had.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from sqlalchemy import insert, update

from quiz.db.packs import import_pack
from quiz.db.store import Store
from quiz.db.tables import stores, trainees
from quiz.model.attempt import utc_now
from quizbench.capacity.accounts import create_trainees
from quizbench.capacity.cluster import Cluster, ClusterUnavailable, cluster_down, cluster_up
from quizbench.capacity.load import LoadSpec, SessionTally, open_socket, run_in_own_loop, sign_in
from quizbench.capacity.protocol import Page, Tab
from tests.databases import POSTGRES_VARIABLE, postgres_database
from tests.pack_files import scenario

pytestmark = pytest.mark.reliability

PIN = "cluster-1357"
CARD_ID = "pack-cluster-late"
SITUATION = "Tanaka sat down fifteen minutes after"  # the pack card's English situation (tests/pack_files.py)
POLL = 0.2  # seconds between reruns: a browser's pace, under the app's rerun limit (quiz.ui.rerun_limit)
LIMIT = 5.0  # seconds from the import's commit to the card drawn on server 2
STEP_TIMEOUT = 120.0  # seconds for one script run on a busy, shared 2-core machine


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="quiz-cluster-packs-"))
    os.chmod(folder, 0o755)  # a throwaway PostgreSQL runs as its own user and must reach its folder
    (folder / "no-shipped-cards").mkdir()
    databases = postgres_database() if os.environ.get(POSTGRES_VARIABLE) else None
    try:
        database_url = next(databases) if databases is not None else None
        with pytest.MonkeyPatch.context() as environment:  # the servers inherit it
            environment.setenv("QUIZ_SCENARIOS_DIR", str(folder / "no-shipped-cards"))
            try:
                running = cluster_up(folder / "cluster", servers=2, port=0, database_url=database_url,
                                     content_dir=str(folder / "no-local-content"))
            except ClusterUnavailable as missing:
                pytest.skip(f"no cluster here: {missing}")
        try:
            yield running
        finally:
            cluster_down(folder / "cluster")
    finally:
        if databases is not None:
            databases.close()  # drops the database
        shutil.rmtree(folder, ignore_errors=True)


def two_stores(database_url: str) -> tuple[int, int]:
    """Stores A and B, with the trainee ``pack-a`` in A and ``pack-b`` in B."""
    create_trainees(database_url, ["pack-a", "pack-b"], PIN)
    store = Store(database_url)
    try:
        with store.engine.begin() as conn:
            ids = [int(conn.execute(insert(stores).values(name=name, created_at=utc_now()).returning(stores.c.id))
                       .scalar_one()) for name in ("Store A", "Store B")]
            for name, store_id in zip(("pack-a", "pack-b"), ids):
                conn.execute(update(trainees).where(trainees.c.name == name).values(store_id=store_id))
    finally:
        store.dispose()
    return ids[0], ids[1]


def describe(page: Page) -> str:
    """What the page shows, for a failure's message."""
    return "; ".join(f"{w.kind}: {str(getattr(w.proto, 'body', '') or w.label)[:80]}" for w in page.widgets)


def deals_the_card(page: Page) -> bool:
    """The practice page shows the pack's card: its answer form, its situation."""
    return page.answer_form(prefix="answer-") is not None and any(
        SITUATION in str(getattr(w.proto, "body", "")).replace("\\", "") for w in page.widgets)


def test_a_pack_imported_through_one_server_is_drawn_on_the_other_within_seconds(cluster: Cluster, tmp_path):
    store_a, _ = two_stores(cluster.database_url)
    server_2 = cluster.app_urls[1]
    pids = list(cluster.app_pids)

    async def run() -> dict[str, float]:
        spec = LoadSpec(url=server_2, trainees=["pack-a", "pack-b"], pin=PIN, duration=60.0,
                        step_timeout=STEP_TIMEOUT)
        async with await open_socket(spec, {}) as socket_a, await open_socket(spec, {}) as socket_b:
            tabs = {}
            for name, socket in (("pack-a", socket_a), ("pack-b", socket_b)):
                tab = Tab(socket, urlencode({"lang": "en"}), STEP_TIMEOUT)
                await tab.run()
                await sign_in(tab, SessionTally(name, "practice"), PIN)
                await tab.run(page="")  # the practice page
                assert not deals_the_card(tab.page) and tab.page.answer_form() is None, "a card before the pack"
                tabs[name] = tab
            server = Store(cluster.database_url)
            try:  # as server 1 imports a pack: its own process, the shared database
                report = import_pack(server, None, "cluster-pack.yaml", scenario(CARD_ID).encode("utf-8"),
                                     store_id=store_a, local=tmp_path / "none")
            finally:
                server.dispose()
            assert report.ok, report.problems
            committed = time.monotonic()
            runs = 0
            while not deals_the_card(tabs["pack-a"].page):
                assert time.monotonic() - committed < LIMIT, (
                    f"server 2 did not deal the pack in {LIMIT} s: {describe(tabs['pack-a'].page)}\n"
                    + cluster.logs()["app2.log"][-3000:])
                await asyncio.sleep(POLL)  # the poll's pace; what is waited on is the page's state
                await tabs["pack-a"].run(page="")
                runs += 1
            seen = time.monotonic() - committed
            await tabs["pack-b"].run(page="")
            assert not deals_the_card(tabs["pack-b"].page) and tabs["pack-b"].page.answer_form() is None
            return {"seen_s": seen, "runs": runs}

    figures = run_in_own_loop(run())
    print(f"\ncluster: the pack imported was dealt on server 2 {figures['seen_s']:.2f} s after its commit "
          f"({figures['runs']} page runs); store B's trainee still has no card")
    assert figures["seen_s"] < LIMIT
    for pid in pids:  # no restart: the servers started by cluster.sh are the ones still running
        os.kill(pid, 0)
    assert "Traceback" not in cluster.logs()["app2.log"], cluster.logs()["app2.log"][-3000:]

