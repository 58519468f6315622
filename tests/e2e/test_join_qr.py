"""A store's join code passed on by QR code, in a browser: the owner makes the code on the
Stores page; the QR code the page shows, fetched as the browser fetched it and decoded
(zxing-cpp), is the link; a phone opening that link finds the sign-up open with the code
filled in, and adding themselves puts them in the store.

``QUIZ_SCREENSHOTS=1`` saves the page with the QR code as docs/screenshots/join-qr-ja.png."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from quiz.access.stores import create_store
from quiz.access.supervisors import create_account
from quiz.db.store import Store
from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.configured_server import running, sign_in_as_supervisor
from tests.e2e.driver import main, settle, sidebar
from tests.e2e.server import AppServer

driver.require_browser()
pytestmark = pytest.mark.e2e
zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp (requirements-dev.txt) decodes the QR code")

from PIL import Image  # noqa: E402
from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

JA = "ja"
OWNER, PASSWORD = "池袋店長", "join-qr-パスワード"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(tmp_path_factory.mktemp("e2e-join-qr"))
    with running(server):
        store = Store(server.database_url)
        try:
            admin = create_account(store, "運用担当", PASSWORD, "admin", None, None)  # accounts exist: the form shows
            shop = create_store(store, "池袋店", admin)
            server.owner = create_account(store, OWNER, PASSWORD, "supervisor", shop.id, None)
        finally:
            store.dispose()
        yield server


def test_the_qr_code_opens_the_sign_up_with_the_code_filled_in(page, new_page, server) -> None:
    driver.open_page(page, server.url, "stores", title=t("stores.title", JA), lang=JA)
    sign_in_as_supervisor(page, JA, OWNER, PASSWORD)
    main(page).get_by_role("button", name=t("stores.make_code", JA)).click()
    qr = main(page).get_by_role("img").first
    expect(qr).to_be_visible()
    settle(page)
    driver.docs_screenshot(page, "join-qr-ja")
    source = qr.get_attribute("src")
    assert source
    fetched = page.request.get(source if source.startswith("http") else server.url.rstrip("/") + source)
    [found] = zxingcpp.read_barcodes(Image.open(io.BytesIO(fetched.body())))
    link = found.text
    assert link.startswith(server.url.rstrip("/") + "/?join=") and link.endswith("&lang=ja"), link
    code = link.split("join=")[1].split("&")[0]
    expect(main(page).get_by_text(code, exact=True).first).to_be_visible()

    phone = new_page(driver.PHONE, "ja-JP", phone=True)
    phone.goto(link)
    code_box = sidebar(phone).get_by_label(t("shell.join_code", JA), exact=True)
    expect(code_box).to_have_value(code)
    settle(phone)
    box = sidebar(phone).get_by_test_id("stExpander").filter(has_text=t("shell.new_trainee", JA))
    expect(code_box).to_be_visible()  # the sign-up open, no tap needed
    box.get_by_label(t("shell.name", JA), exact=True).fill("新人さん")
    box.get_by_label(t("shell.pin", JA), exact=True).fill("shin-2468")
    box.get_by_label(t("shell.pin_again", JA), exact=True).fill("shin-2468")
    settle(phone)
    box.get_by_role("button", name=t("shell.create", JA)).click()
    driver.expect_signed_in(phone, "新人さん", JA)
    store = Store(server.database_url)
    try:
        assert store.find_trainee("新人さん").store_id == server.owner.store_id
    finally:
        store.dispose()
