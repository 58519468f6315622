"""Judging as the documents do, in a real browser: a card of an act of both players asks who
receives the penalty and says so plainly, and a judgement call is marked only on its
nearest line, showing why the rest is left to the head judge, in English and Japanese."""

from __future__ import annotations

from datetime import timedelta

import pytest

from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.training.answer_outcomes import verdict_for
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, choose_language, main, open_page, settle
from tests.shipped_content import shipped_content
from tests.ui.seeding import seed

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE, PIN = "Judging", "judging-2468"
CONTENT = shipped_content()


def press(page, form, label: str) -> None:
    """Press the form's button once the page is idle (no run that could draw the form again
    under the pointer), and wait for the mark."""
    alert = main(page).get_by_test_id("stAlertContentSuccess").or_(main(page).get_by_test_id("stAlertContentError"))
    settle(page)
    form.get_by_role("button", name=driver.label(label)).click()
    expect(alert.first).to_be_visible()
    settle(page)
    assert_no_exception(page)


def test_both_players_and_a_judgement_call(page, server) -> None:
    both = next((c for c in CONTENT.scenario_cards  # an exam-style card: its form asks no findings
                 if not c.parameters and not c.findings and verdict_for(CONTENT, c).players == "both"), None)
    call = next((c for c in CONTENT.judgement_calls if isinstance(c.nearest, str)), None)  # one nearest line
    if both is None or call is None:
        pytest.skip("the shipped content has no card of both players or no judgement call")
    verdict = verdict_for(CONTENT, both)
    ruleset = CONTENT.rulesets[both.ruleset]
    trainee = driver.seed_trainee(server.database_url, TRAINEE, PIN)
    store = Store(server.database_url)
    try:  # both cards due, the card of both players first
        seed(store, CONTENT, trainee.id, both, False, utc_now() - timedelta(hours=3))
        seed(store, CONTENT, trainee.id, call, False, utc_now() - timedelta(hours=2))
    finally:
        store.dispose()

    open_page(page, server.url, "review", title="Review", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    expect(main(page).get_by_role("heading", name="How do you rule?", level=3)).to_be_visible()  # title hidden
    form = main(page).get_by_test_id("stForm")
    driver.pick_option(page, form.get_by_role("combobox", name="Infraction", exact=True),
                       "› " + ruleset.infraction(verdict.infraction).name.en)
    penalty = form.get_by_role("radiogroup", name="Penalty", exact=True)
    penalty.locator("label").filter(has_text=ruleset.penalty(verdict.penalty).name.en).first.click()
    players = form.get_by_role("radiogroup", name=driver.PLAYERS_QUESTION, exact=True)
    players.locator("label").filter(has_text="Both players").click()
    expect(players.get_by_role("radio", name="Both players", exact=True)).to_be_checked()
    press(page, form, "Check")
    expect(main(page).get_by_test_id("stAlertContentSuccess")).to_have_text("Right on every part.")
    expect(driver.why_line(page)).to_contain_text("Both players receive it.")
    driver.open_details(page)
    expect(main(page).get_by_text("Both players receive this penalty.", exact=True)).to_be_visible()
    expect(main(page).get_by_role("heading", name=both.title.en, level=3)).to_be_visible()  # answered: shown
    driver.docs_screenshot(page, "both-players")

    main(page).get_by_role("button", name=driver.label("Next card")).click()
    expect(main(page).get_by_role("heading", name="Which line comes nearest?", level=3)).to_be_visible()
    settle(page)
    left = "The document does not decide this case: it is left to the head judge."
    expect(main(page).get_by_text(left)).to_have_count(0)  # not given away before answering
    form = main(page).get_by_test_id("stForm")
    driver.pick_option(page, form.get_by_role("combobox", name=driver.NEAREST_QUESTION, exact=True),
                       "› " + CONTENT.rulesets[call.ruleset].infraction(call.nearest).name.en)
    press(page, form, "Check")
    expect(main(page).get_by_test_id("stAlertContentSuccess")).to_have_text(
        "Right — that is the nearest line of the document.")
    expect(driver.why_line(page)).to_contain_text("The rest is left to the head judge.")
    driver.open_details(page)
    expect(main(page).get_by_text(left)).to_be_visible()
    principle = next(p for p in CONTENT.rulesets[call.ruleset].principles if p.id == call.principle)
    expect(main(page).get_by_text(principle.text.en, exact=False).first).to_be_visible()
    driver.docs_screenshot(page, "judgement-call")

    choose_language(page, "日本語")  # the feedback stays, in Japanese
    expect(main(page).get_by_test_id("stAlertContentSuccess")).to_have_text("正解です。文書で最も近いのはその違反です。")
    expect(driver.why_line(page)).to_contain_text("大会審判の判断に委ねられます")
    settle(page)
    assert_no_exception(page)
