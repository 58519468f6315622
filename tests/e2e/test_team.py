"""The supervisor's sign-in in a real browser: a wrong password shows nothing, the account the team."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from quiz.access.supervisors import account_throttle
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.configured_server import SUPERVISOR_NAME, ConfiguredServer, running, sign_in_as_supervisor
from tests.e2e.driver import assert_no_exception, main, open_page, settle
from tests.recording import record
from tests.waiting import wait_until

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEES = ("Hanako Sato", "Jiro Mori")
CARD = "ygo-tardiness-1min-store"  # standard penalty: warning


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    """A server with a supervisor password, and two trainees who answered a card."""
    server = ConfiguredServer(tmp_path_factory.mktemp("e2e-team"))
    store = Store(server.database_url)
    try:
        for number, name in enumerate(TRAINEES):
            trainee = store.trainee(name)
            record(store, AttemptRecord(
                trainee_id=trainee.id, card_id=CARD, ruleset="yugioh-ocg", category="tardiness",
                card_kind="scenario", chosen_infraction="tardiness", standard_infraction="tardiness",
                chosen_penalty="warning" if number == 0 else "duel_loss", standard_penalty="warning",
                infraction_result="correct", penalty_result="correct" if number == 0 else "wrong",
                fixes_result="correct", correct=number == 0, seconds=9.0,
                answered_at=dt.datetime.now(dt.UTC),
            ))
    finally:
        store.dispose()
    with running(server):
        yield server


def wait_for_throttle_to_lift(server: ConfiguredServer) -> None:
    """Until the account's throttle (kept in the database) lets a guess be checked."""
    store = Store(server.database_url)
    try:
        wait_until(lambda: account_throttle(store, SUPERVISOR_NAME).wait() == 0.0, "the account's throttle lifts")
    finally:
        store.dispose()


def log_in(page, password: str, lang: str = "en") -> None:
    main(page).get_by_label(t("gate.name", lang), exact=True).fill(SUPERVISOR_NAME)
    main(page).get_by_label(t("gate.password", lang), exact=True).fill(password)
    main(page).get_by_role("button", name=t("gate.sign_in", lang), exact=True).click()
    settle(page)


def test_a_wrong_password_shows_nothing(page, server) -> None:
    open_page(page, server.url, "team", title="Team", lang="en")
    log_in(page, "not-the-password")
    expect(main(page).get_by_text("That name and password do not match an account.")).to_be_visible()
    body = page.locator("body").inner_text()
    assert not any(name in body for name in TRAINEES)
    expect(main(page).get_by_test_id("stDataFrame")).to_have_count(0)
    expect(main(page).get_by_test_id("stDownloadButton")).to_have_count(0)
    expect(main(page).get_by_role("tab")).to_have_count(0)
    assert_no_exception(page)


def test_the_right_password_shows_the_team_and_one_trainee(page, server) -> None:
    wait_for_throttle_to_lift(server)  # a wrong guess of another test holds it for a second
    open_page(page, server.url, "team", title="Team", lang="en")
    sign_in_as_supervisor(page)
    expect(main(page).get_by_test_id("stDataFrame").first).to_be_visible()
    expect(main(page).get_by_role("tab", name="Trainees")).to_be_visible()
    expect(main(page).get_by_test_id("stDownloadButton").first).to_be_visible()
    main(page).get_by_role("tab", name="One trainee").click()
    picker = main(page).get_by_role("combobox", name="Whose progress?")
    picker.click()
    options = page.get_by_role("option")
    expect(options).to_have_text(list(TRAINEES))
    options.filter(has_text=TRAINEES[1]).click()
    settle(page)
    expect(main(page).get_by_role("heading", name=f"Progress of {TRAINEES[1]}")).to_be_visible()
    assert_no_exception(page)
