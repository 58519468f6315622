"""Card packs in a real browser: anyone checks one; a refused zip writes nothing; a supervisor
imports a valid one into the database, playable at once, and removes it again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from quiz.db.packs import PackInfo, import_pack, list_packs
from quiz.db.store import Store
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, running, sign_in_as_supervisor
from tests.e2e.driver import assert_no_exception, main, open_page, settle
from tests.pack_files import knowledge, scenario, zip_of
from tests.shipped_content import shipped_content

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

SHIPPED_CARDS = len(shipped_content().cards)
AUTHOR, AUTHOR_PIN = "Nao Author", "nao-2468"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    with running(ConfiguredServer(tmp_path_factory.mktemp("e2e-content"))) as server:
        driver.seed_trainee(server.database_url, AUTHOR, AUTHOR_PIN)  # a signed-in trainee checks packs
        yield server


def log_in(page) -> None:
    """Importing and removing are for supervisors: sign in with an account first."""
    sign_in_as_supervisor(page)


def as_author(page) -> None:
    """Checking a pack needs a signed-in trainee (an author), never an anonymous visitor."""
    driver.sign_in(page, AUTHOR, AUTHOR_PIN)


def stored_packs(server: ConfiguredServer) -> list[PackInfo]:
    """The packs in the server's database."""
    store = Store(server.database_url)
    try:
        return list_packs(store, None, every_store=True)
    finally:
        store.dispose()


def store_pack(server: ConfiguredServer, upload: str, card_id: str) -> str:
    """A pack of every store imported into the server's database (as the command line would); its name."""
    store = Store(server.database_url)
    try:
        report = import_pack(store, None, upload, scenario(card_id).encode("utf-8"), store_id=None,
                             local=server.content_dir)
    finally:
        store.dispose()
    assert report.imported is not None, report.problems
    return report.imported


def upload(page, name: str, data: bytes) -> None:
    chooser = main(page).get_by_test_id("stFileUploader").locator("input[type=file]")
    chooser.set_input_files({"name": name, "mimeType": "application/zip", "buffer": data})
    settle(page)


def test_a_zip_slip_pack_is_refused_and_writes_nothing(page, server) -> None:
    open_page(page, server.url, "content", title="Content", lang="en")
    expect(main(page).get_by_test_id("stFileUploader")).to_have_count(0)  # nothing to upload with, signed out
    as_author(page)
    upload(page, "evil.zip", zip_of({"../../evil.yaml": scenario("pack-evil"), "ok.yaml": knowledge()}))
    expect(main(page).get_by_text("This pack cannot be imported: 1 problem.")).to_be_visible()
    expect(main(page).get_by_role("button", name="Import", exact=False)).to_have_count(0)
    assert not server.content_dir.exists() or not list(server.content_dir.rglob("*.yaml"))
    assert not list(server.workdir.parent.rglob("evil.yaml"))
    assert_no_exception(page)


def test_a_valid_pack_is_imported_and_playable(page, server) -> None:
    open_page(page, server.url, "content", title="Content", lang="en")
    expect(main(page).get_by_text(f"All content loaded: {SHIPPED_CARDS} cards")).to_be_visible()
    as_author(page)
    upload(page, "store-pack.zip", zip_of({"late.yaml": scenario(), "piles.yaml": knowledge()}))
    expect(main(page).get_by_text("Every card is valid: 2 cards ready to import.")).to_be_visible()
    expect(main(page).get_by_text("The pack is valid. Importing it needs")).to_be_visible()  # checked by an author
    expect(main(page).get_by_role("button", name="Import 2 cards")).to_have_count(0)
    log_in(page)
    main(page).get_by_role("button", name="Import 2 cards").click()
    settle(page)
    expect(main(page).get_by_text("Imported 2 cards as store-pack-")).to_be_visible()
    expect(main(page).get_by_text(f"All content loaded: {SHIPPED_CARDS + 2} cards")).to_be_visible()
    assert [pack.cards for pack in stored_packs(server) if pack.name.startswith("store-pack-")] == [2]
    assert not server.content_dir.exists() or not list(server.content_dir.rglob("*.yaml"))  # never written
    driver.docs_screenshot(page, "content")
    # Playable at once, in another session too: a new page sees the new count.
    open_page(page, server.url, "content", title="Content", lang="en")
    expect(main(page).get_by_text(f"All content loaded: {SHIPPED_CARDS + 2} cards")).to_be_visible()
    assert_no_exception(page)


def test_a_supervisor_removes_a_pack_after_confirming(page, server) -> None:
    old = store_pack(server, "old-pack.yaml", "pack-old-late")
    open_page(page, server.url, "content", title="Content", lang="en")
    expect(main(page).get_by_role("button", name=f"Remove: {old}")).to_have_count(0)  # supervisors only
    log_in(page)
    main(page).get_by_role("button", name=f"Remove: {old}").click()
    expect(main(page).get_by_text(f"Remove the pack {old} (1 file)?")).to_be_visible()
    main(page).get_by_role("button", name="Yes, remove it").click()
    settle(page)
    expect(main(page).get_by_text(f"Removed the pack {old}.")).to_be_visible()
    left = stored_packs(server)  # what other tests imported
    assert old not in [pack.name for pack in left]
    expect(main(page).get_by_text(f"All content loaded: {SHIPPED_CARDS + sum(pack.cards for pack in left)} cards")).to_be_visible()
    assert_no_exception(page)


def test_a_corrected_file_under_the_same_name_is_checked_afresh(page, server) -> None:
    """Re-checking a corrected file under the same name was said to show the old
    result. Each upload is checked as sent, whatever its name."""
    open_page(page, server.url, "content", title="Content", lang="en")
    as_author(page)
    broken = scenario("pack-same-name").replace("infraction:", "infractoin:", 1)
    upload(page, "same-name.yaml", broken.encode("utf-8"))
    expect(main(page).get_by_text("This pack cannot be imported: ", exact=False)).to_be_visible()
    upload(page, "same-name.yaml", scenario("pack-same-name").encode("utf-8"))
    expect(main(page).get_by_text("This pack cannot be imported: ", exact=False)).to_have_count(0)
    from quiz.model.words import t

    expect(main(page).get_by_text(t("content.pack_ok", "en", count=1))).to_be_visible()
    assert_no_exception(page)
