"""Supervisors sign in with OpenID Connect (``st.login``) in a real browser, against a real
provider on 127.0.0.1 (oidc-provider-mock, whose authorize page lets the person pick any
subject): a subject linked to store A's supervisor opens the Team page on store A's trainee
only, and signing out ends the provider sign-in too; a subject linked to no account is told
what to give an admin. The app reads its ``[auth]`` secrets from a file in the test's own
folder (``--secrets.files``), never from the repository."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from quiz.access.oidc_links import link_oidc
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.words import t
from quiz.ui.markdown import WORD_JOINER
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, offered_trainees, running
from tests.e2e.driver import assert_no_exception, main, settle
from tests.e2e.server import free_port
from tests.two_stores import seed_two_stores

driver.require_browser()
pytestmark = pytest.mark.e2e

import werkzeug.serving  # noqa: E402 - a dependency of the provider, as Playwright below
from oidc_provider_mock import app as provider_app  # noqa: E402
from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

EN = "en"
LINKED_SUB = "sato@shibuya.example"  # linked to "Sato", store A's supervisor
UNLINKED_SUB = "stranger@example.org"


def w(key: str, **values: Any) -> str:
    return t(key, EN, **values)


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    """An OpenID Connect provider on 127.0.0.1 (any client id is accepted); its issuer URL."""
    server = werkzeug.serving.make_server("127.0.0.1", 0, provider_app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


class OidcServer(ConfiguredServer):
    """``ConfiguredServer`` whose secrets file (in its own folder) configures ``st.login``."""

    def __init__(self, workdir: Any, issuer: str) -> None:
        super().__init__(workdir)
        self.port = free_port()
        self.secrets_path = workdir / "secrets.toml"
        self.secrets_path.write_text(
            "[auth]\n"
            f'redirect_uri = "{self.url}/oauth2callback"\n'
            f'cookie_secret = "{secrets.token_hex(16)}"\n'
            'client_id = "quiz-e2e"\n'
            'client_secret = "quiz-e2e-secret"\n'
            f'server_metadata_url = "{issuer}/.well-known/openid-configuration"\n',
            encoding="utf-8")

    def command(self) -> list[str]:
        return [*super().command(), "--secrets.files", str(self.secrets_path)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, provider: str) -> Iterator[OidcServer]:
    """Two stores (``tests.two_stores``), "Sato" of store A linked to ``LINKED_SUB``."""
    server = OidcServer(tmp_path_factory.mktemp("e2e-oidc"), provider)
    with running(server):
        store = Store(server.database_url)
        try:
            seed_two_stores(store, at=utc_now())
            link_oidc(store, "Sato", provider, LINKED_SUB, None)
        finally:
            store.dispose()
        yield server



def signs_in_at_provider(page, server: OidcServer, provider: str, sub: str) -> None:
    """From the Team page, through the provider's authorize page as ``sub``, back to the app."""
    driver.open_page(page, server.url, "team", title=w("team.title"), lang=EN)
    main(page).get_by_role("button", name=w("gate.oidc_sign_in")).click()
    page.wait_for_url(f"{provider}/oauth2/authorize**")
    page.locator("input[name=sub]").fill(sub)
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(f"{server.url}/**")
    settle(page)
    driver.open_page(page, server.url, "team", title=w("team.title"), lang=EN)


def test_a_linked_subject_signs_in_as_its_supervisor_and_signs_out_at_the_provider(
        new_page, server, provider) -> None:
    page = new_page()
    signs_in_at_provider(page, server, provider, LINKED_SUB)
    area = main(page)
    expect(area.get_by_role("button", name=w("gate.sign_out"), exact=True)).to_be_visible()
    expect(area.get_by_text("Signed in as Sato")).to_be_visible()
    assert offered_trainees(page) == ["Aiko"]  # store A's trainee; none of store B, nor Solo
    assert_no_exception(page)
    settle(page)
    area.get_by_role("button", name=w("gate.sign_out"), exact=True).click()
    page.wait_for_url(f"{provider}/oauth2/end_session**")  # the provider's own sign-out
    page.get_by_role("button", name="End session").click()
    page.wait_for_url(f"{server.url}/**")
    settle(page)
    driver.open_page(page, server.url, "team", title=w("team.title"), lang=EN)
    expect(main(page).get_by_role("button", name=w("gate.oidc_sign_in"))).to_be_visible()
    expect(main(page).get_by_role("button", name=w("gate.sign_out"), exact=True)).to_have_count(0)


def test_an_unlinked_subject_is_told_what_to_give_an_admin(new_page, server, provider) -> None:
    page = new_page()
    signs_in_at_provider(page, server, provider, UNLINKED_SUB)
    area = main(page)
    told = area.get_by_test_id("stAlert")
    expect(told).to_be_visible()
    assert f"as {UNLINKED_SUB} (issuer {provider})" in told.inner_text().replace(WORD_JOINER, "")
    expect(area.get_by_test_id("stCode")).to_have_text(  # exactly what an admin runs, no invisible marks
        f"python -m quiz accounts link --name NAME --issuer {provider} --subject {UNLINKED_SUB}")
    expect(area.get_by_role("button", name=w("gate.sign_out"), exact=True)).to_have_count(0)
    expect(area.get_by_label(w("gate.name"), exact=True)).to_be_visible()  # the password form stays
    expect(area.get_by_role("tab", name=w("team.tab_trainee"))).to_have_count(0)
    assert_no_exception(page)
