"""Two app servers on one PostgreSQL database, as behind a load balancer with sticky sessions.

A trainee answers on each server (one browser context per server), every answer is stored
exactly once, and the supervisor's Team page on either server shows both trainees with
their answer counts. Needs ``QUIZ_TEST_DATABASE_URL`` (``make test`` sets it); each run
gets a fresh database on that server, dropped afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import func, select

from quiz.db.store import Store
from quiz.db.tables import attempts, trainees
from tests.databases import postgres_database
from tests.e2e import driver
from tests.e2e.configured_server import SharedDatabaseServer, sign_in_as_supervisor
from tests.e2e.driver import assert_no_exception, main, open_page, settle

driver.require_browser()
pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEES = ("Aiko Tanaka", "Ben Carter")  # Aiko on the first server, Ben on the second
PINS = ("aiko-2468", "ben-1357")
ANSWERS = 3  # cards each trainee answers


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A fresh PostgreSQL database (skips with the reason when no server is given)."""
    yield from postgres_database()


@pytest.fixture(scope="module")
def servers(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[SharedDatabaseServer]]:
    """Two ``streamlit run`` processes on their own ports, sharing the database."""
    pair = [SharedDatabaseServer(tmp_path_factory.mktemp(f"e2e-postgres-{n}"), database) for n in (1, 2)]
    try:
        for server in pair:
            server.start()
        yield pair
    finally:
        for server in pair:
            server.stop()


@pytest.fixture
def contexts(request: pytest.FixtureRequest, servers, browser) -> Iterator[Callable[[], Any]]:
    """A maker of pages, each in a browser context of its own; on failure every page is saved,
    with both servers' logs."""
    with driver.page_maker(request, browser, servers) as make:
        yield make


def answer_and_see_feedback(page) -> None:
    """Answer the card shown (the first choices will do), wait for its feedback, go on to the next."""
    driver.answer_with_first_choices(page)
    feedback = main(page).get_by_test_id("stAlertContentSuccess").or_(main(page).get_by_test_id("stAlertContentError"))
    expect(feedback.first).to_be_visible()
    settle(page)
    assert_no_exception(page)
    next_card = main(page).get_by_role("button", name=driver.label("Next card"))
    next_card.click()
    expect(next_card).to_have_count(0)
    driver.expect_card(page)  # its form, or a floor call's investigation (the form opened by Rule)
    settle(page)


def stored_answers(url: str) -> dict[str, int]:
    """Trainee name -> attempts stored, read straight from the database."""
    store = Store(url)
    try:
        query = (
            select(trainees.c.name, func.count(attempts.c.id))
            .join(attempts, attempts.c.trainee_id == trainees.c.id, isouter=True)
            .group_by(trainees.c.id, trainees.c.name)
        )
        with store.engine.connect() as conn:
            return {name: int(count) for name, count in conn.execute(query)}
    finally:
        store.dispose()


def team_rows(page) -> dict[str, str]:
    """Trainee -> the "Answers" cell of the Team page's trainee table."""
    grid = main(page).get_by_test_id("stDataFrame").first.locator('table[role="grid"]')
    expect(grid).to_be_attached()
    cells = grid.evaluate(
        """(table) => [...table.querySelectorAll('tr')].map(
               tr => [...tr.querySelectorAll('th, td')].map(cell => cell.textContent.trim()))"""
    )
    header, *rows = [row for row in cells if row]
    name, answered = header.index("Trainee"), header.index("Answers")
    return {row[name]: row[answered] for row in rows}


def log_in_as_supervisor(page, server: SharedDatabaseServer) -> None:
    open_page(page, server.url, "team", title="Team", lang="en")
    sign_in_as_supervisor(page)
    expect(main(page).get_by_role("tab", name="Trainees")).to_be_visible()
    expect(main(page).get_by_test_id("stDataFrame").first).to_be_visible()
    assert_no_exception(page)


def test_trainees_on_two_servers_share_one_database(database, servers, contexts) -> None:
    for trainee, pin in zip(TRAINEES, PINS):
        driver.seed_trainee(database, trainee, pin)
    pages = [contexts() for _ in servers]
    for page, server, trainee, pin in zip(pages, servers, TRAINEES, PINS):
        open_page(page, server.url, "", title="Practice", lang="en")
        driver.sign_in(page, trainee, pin)

    feedbacks = dict.fromkeys(TRAINEES, 0)
    for _ in range(ANSWERS):  # taking turns, so both servers write to the database in between
        for page, trainee in zip(pages, TRAINEES):
            answer_and_see_feedback(page)
            feedbacks[trainee] += 1

    for page in pages:  # a reload is a new session and a new run: nothing is stored twice
        page.reload()
        settle(page)
        assert_no_exception(page)
    assert stored_answers(database) == feedbacks == dict.fromkeys(TRAINEES, ANSWERS)

    for server in servers:  # the supervisor sees everyone, whichever server the balancer picks
        supervisor = contexts()
        log_in_as_supervisor(supervisor, server)
        expect(main(supervisor).get_by_test_id("stDataFrame").first).to_contain_text(TRAINEES[1])
        assert team_rows(supervisor) == {name: str(count) for name, count in feedbacks.items()}
