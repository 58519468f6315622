"""Accessibility with axe-core (bundled by axe-playwright-python): every page, in Japanese and
English, on a phone and a desktop: the trainee's pages signed out and signed in as a trainee,
the supervisor's pages before and after the supervisor's sign-in (every tab of each), with no
serious or critical violation: a new violation fails the test.

Touch targets of 44x44 px on the phone (axe's own target-size rule asks 24 px) are
``test_touch_targets.py``'s."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from quiz.access.accounts import add_trainee
from quiz.access.stores import create_store, make_join_code
from quiz.access.supervisors import create_account
from quiz.db.assignments import create_assignment
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import ScenarioCard
from quiz.model.scope import Scope
from quiz.model.words import t
from quiz.training.answer_outcomes import verdict_for
from quiz.training.assignments import Plan
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from quiz.ui.page_table import PAGE_TABLE
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, running, sign_in_as_supervisor
from tests.e2e.driver import PHONE, close_sidebar, main, open_page, open_sidebar, settle, sidebar, sign_in
from tests.recording import record
from tests.shipped_content import shipped_content

driver.require_browser()
pytestmark = pytest.mark.e2e

from axe_playwright_python.sync_playwright import Axe  # noqa: E402 - only once the browser is known to be there
from playwright.sync_api import expect  # noqa: E402

CONTENT = shipped_content()
PAGES = ("", "review", "exam", "progress", "reference")  # Practice (the root) and the trainee's other pages
SUPERVISOR_PAGES = ("team", "assignments", "content", "items", "stores")  # behind the supervisor's sign-in
SEVERE = ("serious", "critical")
STORE, MEMBER, MEMBER_PIN = "Axe store", "Axe member", "axe-13579"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    """A server with a supervisor account, a store with a join code, an assignment and a member
    who answered scenario cards of both games (some penalties off the key): the supervisor's
    pages show tables and charts, not only their empty states."""
    server = ConfiguredServer(tmp_path_factory.mktemp("e2e-axe"))
    store = Store(server.database_url)
    try:
        admin = create_account(store, "Axe admin", "axe-admin-password", "admin", None, None)
        shop = create_store(store, STORE, admin)
        code = make_join_code(store, admin, shop.id)
        member = add_trainee(store, MEMBER, MEMBER_PIN, code.code)
        create_assignment(store, Scope(admin, shop.id), "Axe basics", Plan(categories=("yugioh-ocg/tardiness",)),
                          utc_now() + dt.timedelta(days=7), utc_now())
        rng = random.Random(44)
        for ruleset in CONTENT.rulesets.values():
            ladder = [p.id for p in ruleset.ladder]
            scenarios = [c for c in CONTENT.cards.values() if isinstance(c, ScenarioCard) and c.ruleset == ruleset.id]
            for days_ago, card in enumerate(rng.sample(scenarios, 6)):
                verdict = verdict_for(CONTENT, card)
                given = ScenarioAnswer(verdict.infraction, rng.choice(ladder), verdict.fixes, verdict.players)
                outcome = answer_card(CONTENT, GivenAnswer(card, given, member.id, 30.0))
                record(store, replace(outcome.record, answered_at=utc_now() - dt.timedelta(days=days_ago)))
    finally:
        store.dispose()
    with running(server):
        yield server


def severe_violations(page) -> list[str]:
    """Each serious or critical violation of the page open, in words."""
    found = []
    for violation in Axe().run(page).response["violations"]:
        if violation["impact"] not in SEVERE:
            continue
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            found.append(f"{violation['id']} ({violation['impact']}) at {target}: {node.get('failureSummary', '')}")
    return found


def device_page(new_page, lang: str, phone: bool):
    """A page on a phone (390x844, touch) or a desktop, its browser in ``lang``."""
    locale = "ja-JP" if lang == "ja" else "en-US"
    return new_page(PHONE, locale, phone=True) if phone else new_page(driver.VIEWPORT, locale)


def test_every_page_is_in_one_list() -> None:
    """A new page falls into neither list only by a test failing here."""
    assert set(PAGES) | set(SUPERVISOR_PAGES) == {entry.url_path or "" for entry in PAGE_TABLE}


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_serious_violation_signed_out_or_as_a_trainee(new_page, server, lang: str, phone: bool) -> None:
    page = device_page(new_page, lang, phone)
    name, pin = f"Axe {lang} {'phone' if phone else 'desktop'}", "axe-24680"
    driver.seed_trainee(server.database_url, name, pin)
    problems: dict[str, list[str]] = {}
    for signed_in in (False, True):
        for path in PAGES:
            open_page(page, server.url, path, lang=lang)
            if signed_in and path == "":
                sign_in(page, name, pin, lang)
            settle(page)
            found = severe_violations(page)
            if found:
                problems[f"{'trainee' if signed_in else 'signed out'} /{path}"] = found
    assert not problems, problems


def follow_link(page, base: str, path: str, lang: str, phone: bool) -> None:
    """Go to the page at ``path`` by its link, as a person does (a new load would be a new
    session, signed out): the top navigation on a desktop, the sidebar's list on a phone."""
    entry = next(e for e in PAGE_TABLE if e.url_path == path)
    settle(page)
    if phone:
        open_sidebar(page)
        links = sidebar(page).get_by_test_id("stSidebarNavLink")
    else:
        links = page.get_by_role("navigation").get_by_role("link")
    links.filter(has_text=t(entry.title, lang)).first.click()
    expect(page).to_have_url(re.compile(rf"^{re.escape(driver.app_url(base, path))}(\?|$)"))
    if phone:
        close_sidebar(page)
    settle(page)
    driver.assert_no_exception(page)


def each_tab_checked(page) -> list[str]:
    """The violations of the page open, with each of its tabs shown in turn."""
    found = severe_violations(page)
    tabs = main(page).get_by_role("tab")
    for number in range(1, tabs.count()):  # the first is shown already
        tab = tabs.nth(number)
        driver.scroll_into_view(page, tab)
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        settle(page)
        found += [f"tab {tab.inner_text()!r}: {problem}" for problem in severe_violations(page)]
    return found


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_serious_violation_on_the_supervisor_pages(new_page, server, lang: str, phone: bool) -> None:
    """The first supervisor page before the sign-in (its form), then every supervisor page
    signed in, each of its tabs shown; pages followed by their links in one session."""
    page = device_page(new_page, lang, phone)
    first, *others = SUPERVISOR_PAGES
    open_page(page, server.url, first, lang=lang)
    problems: dict[str, list[str]] = {}
    found = severe_violations(page)
    if found:
        problems[f"signed out /{first}"] = found
    if phone:
        close_sidebar(page)
    sign_in_as_supervisor(page, lang)
    for path in SUPERVISOR_PAGES:
        if path != first:
            follow_link(page, server.url, path, lang, phone)
        found = each_tab_checked(page)
        if found:
            problems[f"supervisor /{path}"] = found
    assert not problems, problems
