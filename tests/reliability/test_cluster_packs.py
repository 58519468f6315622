"""A pack stored on the two-server cluster is drawn on the other server within seconds, by
its store's trainees only, without a restart.

``scripts/cluster.sh`` brings up two app servers behind HAProxy on one PostgreSQL database
(as tests/reliability/test_cluster.py does), here with no shipped cards (``QUIZ_SCENARIOS_DIR``
an empty folder), so a trainee's practice pool is empty until a pack reaches it. Two trainees,
one of store A and one of store B, sign in on server 2 over its websocket and see the empty
pool. Store A's supervisor then imports a pack through server 1's Content page, in Chromium
(sign-in, upload, Import), which commits it and notifies every server. Trainee A reruns the
page until it deals the pack's card: within ``LIMIT`` seconds of the commit (the pack's
``imported_at``). Trainee B,
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

from quiz.access.supervisors import create_account
from quiz.db.store import Store
from quiz.db.tables import content_packs, stores, trainees
from quiz.model.attempt import utc_now
from quiz.model.words import t
from quizbench.capacity.accounts import create_trainees
from quizbench.capacity.cluster import Cluster, ClusterUnavailable, cluster_down, cluster_up
from quizbench.capacity.load import run_in_own_loop
from quizbench.capacity.load_run_state import LoadSpec, SessionTally
from quizbench.capacity.protocol import Page, Tab
from quizbench.capacity.session import open_socket, sign_in
from tests.databases import POSTGRES_VARIABLE, postgres_database
from tests.pack_files import scenario

pytestmark = [pytest.mark.reliability, pytest.mark.timed]

PIN = "cluster-1357"
OWNER, OWNER_PASSWORD = "Store A owner", "cluster-owner-2468"
CARD_ID = "pack-cluster-late"
SITUATION = "Tanaka sat down fifteen minutes after"  # the pack card's English situation (tests/pack_files.py)
POLL = 0.2  # seconds between reruns: a browser's pace, under the app's rerun limit (quiz.ui.streamlit_internals.rerun_limit)
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


def import_through_server_1(url: str, data: bytes) -> None:
    """Store A's supervisor signs in on server 1's Content page in Chromium and imports the pack
    (a thread of its own: Playwright's sync API outside the websocket sessions' loop)."""
    from playwright.sync_api import expect, sync_playwright

    from tests.e2e import driver
    from tests.e2e.configured_server import sign_in_as_supervisor

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=driver.find_chromium()[0])
        try:
            page = browser.new_context(viewport=driver.VIEWPORT, locale="en-US").new_page()
            driver.open_page(page, url, "content", lang="en")
            sign_in_as_supervisor(page, "en", OWNER, OWNER_PASSWORD)
            chooser = driver.main(page).get_by_test_id("stFileUploader").locator("input[type=file]")
            chooser.set_input_files({"name": "cluster-pack.yaml", "mimeType": "application/x-yaml", "buffer": data})
            driver.settle(page)
            driver.main(page).get_by_role("button", name=t("content.import_button", "en", count=1)).click()
            expect(driver.main(page).get_by_text("Imported 1 card as", exact=False)).to_be_visible()
        finally:
            browser.close()


def committed_at(database_url: str) -> float:
    """When the pack's import was committed, as seconds ago."""
    store = Store(database_url)
    try:
        with store.engine.connect() as conn:
            imported = conn.execute(content_packs.select().with_only_columns(content_packs.c.imported_at)).scalar_one()
    finally:
        store.dispose()
    return (utc_now() - imported).total_seconds()


def describe(page: Page) -> str:
    """What the page shows, for a failure's message."""
    return "; ".join(f"{w.kind}: {str(getattr(w.proto, 'body', '') or w.label)[:80]}" for w in page.widgets)


def deals_the_card(page: Page) -> bool:
    """The practice page shows the pack's card: its answer form, its situation."""
    return page.answer_form(prefix="answer-") is not None and any(
        SITUATION in str(getattr(w.proto, "body", "")).replace("\\", "") for w in page.widgets)


def test_a_pack_imported_through_one_server_is_drawn_on_the_other_within_seconds(cluster: Cluster):
    store_a, _ = two_stores(cluster.database_url)
    accounts = Store(cluster.database_url)
    try:
        create_account(accounts, "Cluster admin", "cluster-admin-2468", "admin", None, None)
        create_account(accounts, OWNER, OWNER_PASSWORD, "supervisor", store_a, None)
    finally:
        accounts.dispose()
    server_1, server_2 = cluster.app_urls[0], cluster.app_urls[1]
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
            await asyncio.to_thread(import_through_server_1, server_1, scenario(CARD_ID).encode("utf-8"))
            committed = time.monotonic() - committed_at(cluster.database_url)
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

