"""A floor call in a real browser: investigated step by step (each reply shown with who gave
it, a follow-up opening once its step is taken, the round clock in view), then ruled with the
scenario form (on the phone Check is tapped once, the fix's list still open: that one tap
sends the form), and the debrief read: in Japanese on a phone (390×844, from Review) and in
English on a desktop (Practice, floor calls only). With ``QUIZ_SCREENSHOTS=1`` it saves
docs/screenshots/floor-call-investigation.png, floor-call-debrief.png (desktop, English) and
floor-call-ja-phone.png (the phone, Japanese)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import FloorCallCard, Step
from quiz.model.words import t
from quiz.training.investigation import better_wording, deciding_steps, open_steps
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, main, settle
from tests.shipped_content import shipped_content
from tests.ui.seeding import seed

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

from tests.e2e.test_findings import EN, JA, PHONE, Planned, Words, answer, right_answer  # noqa: E402

CONTENT = shipped_content()
SHIPPED_CALL = "ygo-fc-two-cards-at-the-draw"
DESKTOP = {"width": 1280, "height": 900}


def floor_calls() -> list[FloorCallCard]:
    return [c for c in CONTENT.cards.values() if isinstance(c, FloorCallCard) and not c.retired]


def plan_steps(card: FloorCallCard) -> list[Step]:
    """The steps the trainee takes, in an order the card allows: the players apart first where
    the card asks it, one ordinary question, the first step that decides each finding (with the
    steps it follows), and one leading question (for the debrief's better wording)."""
    wanted: set[str] = set()

    def need(step: Step | None) -> None:
        if step is not None and step.id not in wanted:
            wanted.add(step.id)
            for before in step.after:
                need(card.step(before))

    need(next((s for s in card.steps if s.separate), None))
    need(next((s for s in card.steps if s.ask is not None and not s.shows and not s.after), None))
    for fact in card.findings:
        need(deciding_steps(card, fact)[0])
    need(next((s for s in card.steps if s.leading), None))
    taken: list[Step] = []
    while len(taken) < len(wanted):
        open_now = [s for s in open_steps(card, [s.id for s in taken]) if s.id in wanted]
        taken.append(next((s for s in open_now if s.separate), open_now[0]))
    return taken


def step_button(page, step: Step, lang: str):
    """The step's button, by its words inside the step's own element (``st-key-…-step-<id>``):
    one question is often put to two people in the same words ("Tell me how the match ended."),
    each under their name."""
    own = main(page).locator(f"xpath=.//div[contains(concat(' ', normalize-space(@class), ' '), '-step-{step.id} ')]")
    return own.get_by_role("button", name=step.text.get(lang), exact=True)


def take(page, card: FloorCallCard, step: Step, lang: str, keyboard: bool = False) -> None:
    """Press the step's button (or focus it and press Enter); its reply then shows in the
    conversation, and the button goes."""
    button = step_button(page, step, lang)
    driver.scroll_into_view(page, button)
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    expect(main(page).get_by_test_id("stChatMessage").filter(has_text=step.reply.get(lang)).first).to_be_visible()
    expect(button).to_have_count(0)
    for follow_up in (s for s in card.steps if step.id in s.after and set(s.after) <= {step.id}):
        expect(step_button(page, follow_up, lang)).to_be_visible()
    settle(page)


def clock(page):
    return main(page).locator(".st-key-round-clock")


def investigate_and_rule(page, w: Words, card: FloorCallCard, phone: bool, shot_midway: str | None) -> None:
    lang = w.lang
    expect(clock(page)).to_contain_text("0:00")
    steps = plan_steps(card)
    half = len(steps) // 2
    for number, step in enumerate(steps, start=1):
        take(page, card, step, lang, keyboard=not phone and number == 1)
        if number == half and shot_midway:
            driver.docs_screenshot(page, shot_midway)
    used = sum(step.cost for step in steps)
    expect(clock(page)).to_contain_text(f"{used // 60}:{used % 60:02d}")
    driver.open_ruling(page, keyboard=not phone)  # Rule: tapped on the phone, Enter on the desktop
    # on the phone, Check is tapped once with the fix's list still open: that tap sends the form
    answer(page, w, Planned(card, right_answer(card), "right"), phone, one_tap=phone)  # type: ignore[arg-type]
    expect(main(page).get_by_test_id("stAlertContentSuccess")).to_have_text(w.right)
    debrief = main(page).get_by_test_id("stVerticalBlock").filter(
        has=page.get_by_role("heading", name=t("debrief.heading", lang))).last
    expect(debrief).to_be_visible()
    expect(debrief).to_contain_text(t("debrief.findings", lang))
    leading = next((step for step in steps if step.leading), None)
    better = better_wording(card, leading) if leading is not None else None
    if better is not None:
        expect(debrief).to_contain_text(t("debrief.better", lang, text=better.get(lang)))
    assert_no_exception(page)


def stored_steps(database_url: str, trainee_id: int) -> list[str]:
    store = Store(database_url)
    try:
        return list(store.attempts(trainee_id).iloc[-1]["investigation"]["steps"])
    finally:
        store.dispose()


def test_a_floor_call_in_japanese_on_a_phone(new_page, server) -> None:
    card = CONTENT.cards[SHIPPED_CALL]
    assert isinstance(card, FloorCallCard)
    trainee = driver.seed_trainee(server.database_url, "フロアジャッジ", "floor-ja-1357")
    store = Store(server.database_url)
    try:
        seed(store, CONTENT, trainee.id, card, False, utc_now() - timedelta(hours=30))  # due: Review deals it
    finally:
        store.dispose()
    page = new_page(PHONE, "ja-JP", "Asia/Tokyo", phone=True)
    driver.open_page(page, server.url, "review", lang="ja")
    driver.sign_in(page, "フロアジャッジ", "floor-ja-1357", lang="ja")
    expect(main(page).get_by_role("heading", name=t("card.untitled_floor_call", "ja"))).to_be_visible()
    investigate_and_rule(page, JA, card, phone=True, shot_midway="floor-call-ja-phone")
    assert stored_steps(server.database_url, trainee.id) == [s.id for s in plan_steps(card)]
    width = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollWidth")
    assert width <= PHONE["width"], width  # nothing wider than the phone


def test_a_floor_call_in_english_on_a_desktop_from_floor_calls_only(new_page, server) -> None:
    trainee = driver.seed_trainee(server.database_url, "Floor Caller", "floor-en-2468")
    page = new_page(DESKTOP, "en-US", "UTC")
    driver.open_page(page, server.url, "", title="Practice", lang="en")
    driver.sign_in(page, "Floor Caller", "floor-en-2468", lang="en")
    main(page).get_by_role("radio", name=t("practice.pool.floor_calls", "en"), exact=True).click()
    expect(clock(page)).to_be_visible()
    settle(page)
    text = main(page).inner_text()
    dealt = [c for c in floor_calls() if c.call.en in text]  # the call dealt, by its whole text (calls
    assert len(dealt) == 1, [c.id for c in dealt]  # share a first sentence: "Gym Battle, round 2")
    card = dealt[0]
    investigate_and_rule(page, EN, card, phone=False, shot_midway="floor-call-investigation")
    driver.docs_screenshot(page, "floor-call-debrief")
    assert stored_steps(server.database_url, trainee.id) == [s.id for s in plan_steps(card)]
