"""Ten cards with findings in a real browser, as a new trainee meets them: in Japanese on a
phone (390×844) and in English on a desktop. Each card asks its findings first; the answer
form from the first finding to Check fits one phone screen; a right answer is marked right; a
wrong finding whose penalty follows from it is told so, and right findings with a wrong
penalty are told the document was misapplied. With ``QUIZ_SCREENSHOTS=1`` the desktop walk
saves docs/screenshots/findings-*.png (the README's pictures)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pandas as pd
import pytest

from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import ScenarioCard
from quiz.model.errors import QuizError
from quiz.rules.engine import judge
from quiz.training.answer_outcomes import asks_players, case_facts, verdict_for
from quiz.training.grading import ScenarioAnswer
from tests.e2e import driver
from tests.e2e.driver import assert_no_exception, main, settle
from tests.shipped_content import shipped_content
from tests.ui.seeding import seed

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

CONTENT = shipped_content()
CARDS = 10
PHONE = driver.PHONE
DESKTOP = {"width": 1280, "height": 900}


@dataclass(frozen=True)
class Words:
    lang: str
    check: str
    next_card: str
    infraction: str
    penalty: str
    fixes: str
    players: str
    yes: str
    no: str
    right: str
    follows: str  # the start of the line of why for a wrong finding
    misapplied: str  # … for right findings and the document misapplied
    evidence: str  # the label of what showed a finding, in the details


JA = Words("ja", "答え合わせ", "次のカード", "違反", "罰則", "処置", "誰に科しますか？", "はい", "いいえ",
           "すべて正解です。", "誤りは事実の認定で、規定の当てはめではありません",
           "事実の認定は正しくできています。誤りは規定の当てはめです", "根拠となった証拠")
EN = Words("en", "Check", "Next card", "Infraction", "Penalty", "Fix", "Who receives it?", "Yes", "No",
           "Right on every part.", "A finding was wrong, not the document",
           "You found the facts right; the document was misapplied", "What showed it")


@dataclass(frozen=True)
class Planned:
    """A card and the answer the trainee gives it, with the message the feedback must lead with."""

    card: ScenarioCard
    answer: ScenarioAnswer
    expect: str  # "right", "follows" or "misapplied"


def right_answer(card: ScenarioCard) -> ScenarioAnswer:
    verdict = verdict_for(CONTENT, card)
    facts = case_facts(CONTENT.rulesets[card.ruleset], card.infraction, card.facts)
    players = verdict.players if asks_players(CONTENT, card) else None
    return ScenarioAnswer(verdict.infraction, verdict.penalty, verdict.fixes, players,
                          tuple((fact, facts[fact]) for fact in card.findings))


def follows_plan(card: ScenarioCard) -> Planned | None:
    """A wrong yes/no finding whose own verdict the trainee then gives (decided, and not accepted)."""
    ruleset = CONTENT.rulesets[card.ruleset]
    verdict = verdict_for(CONTENT, card)
    right = right_answer(card)
    for fact, finding in card.findings.items():
        value = dict(right.findings)[fact]
        if finding.arguable is not None or not isinstance(value, bool):
            continue
        found = dict(right.findings, **{fact: not value})
        try:
            own = judge(ruleset, card.infraction, dict(case_facts(ruleset, card.infraction, card.facts), **found))
        except QuizError:
            continue
        if own.penalty in verdict.accepted:
            continue
        players = own.players if asks_players(CONTENT, card) else None
        return Planned(card, ScenarioAnswer(own.infraction, own.penalty, own.fixes, players,
                                            tuple(found.items())), "follows")
    return None


def misapplied_plan(card: ScenarioCard) -> Planned | None:
    """Right findings, the right infraction and a penalty the document never gives here."""
    if card.arguable:
        return None
    verdict = verdict_for(CONTENT, card)
    right = right_answer(card)
    wrong = next((p.id for p in reversed(CONTENT.rulesets[card.ruleset].ladder) if p.id not in verdict.accepted), None)
    if wrong is None:
        return None
    return Planned(card, ScenarioAnswer(right.infraction, wrong, right.fixes, right.players, right.findings),
                   "misapplied")


def plan(ruleset: str) -> list[Planned]:
    """Ten cards of one game with findings (no drawn values): one answered with a wrong finding
    and its own penalty, one with right findings and a wrong penalty, the rest right."""
    cards = [c for c in CONTENT.scenario_cards
             if c.ruleset == ruleset and c.findings and not c.parameters and not c.retired]
    follows = next(p for p in map(follows_plan, cards) if p is not None)
    misapplied = next(p for p in map(misapplied_plan, cards) if p is not None and p.card is not follows.card)
    rest = [Planned(c, right_answer(c), "right") for c in cards if c not in (follows.card, misapplied.card)]
    return [rest[0], follows, rest[1], misapplied, *rest[2:CARDS - 2]]



def seed_due(database_url: str, trainee_id: int, planned: list[Planned]) -> None:
    """Every planned card due for review, the first most overdue: the Review page deals them in order."""
    store = Store(database_url)
    try:
        for index, item in enumerate(planned):
            seed(store, CONTENT, trainee_id, item.card, False, utc_now() - timedelta(hours=30 - index))
    finally:
        store.dispose()


def answer(page, w: Words, item: Planned, phone: bool, one_tap: bool = False) -> float:
    """Fill the card's form as planned and press Check; the form's height from the findings'
    heading to the bottom of Check, in pixels. With ``one_tap`` (a phone's touch screen) the
    last fix's list is left open, as a person leaves it, and Check is tapped once: that one
    tap must close the list and send the form (a card with no fix to choose: Check tapped)."""
    ruleset = CONTENT.rulesets[item.card.ruleset]
    form = main(page).get_by_test_id("stForm")
    check = form.get_by_role("button", name=driver.label(w.check))
    expect(check).to_be_visible()
    settle(page)
    groups = form.get_by_test_id("stButtonGroup")
    expect(groups.first.or_(form.get_by_test_id("stNumberInput").first)).to_be_visible()
    top = form.bounding_box()["y"]
    bottom = check.bounding_box()["y"] + check.bounding_box()["height"]
    specs = {spec.id: spec for spec in ruleset.facts}
    for fact, value in item.answer.findings:
        question = specs[fact].finding.question.get(w.lang)
        # the finding's control by its question as shown (its accessible name is the Markdown
        # label, escaped: "\(" for a parenthesis)
        control = form.locator(driver.FINDING_CONTROL).filter(has=page.get_by_text(question, exact=True))
        if isinstance(value, bool):
            button = control.get_by_role("radio", name=w.yes if value else w.no, exact=True)
            driver.scroll_into_view(page, button)
            button.click()
            expect(button).to_have_attribute("aria-checked", "true")
        else:
            box = control.get_by_role("spinbutton")
            box.fill(str(value))
    pick(page, form.get_by_role("combobox", name=w.infraction, exact=True),
         "› " + ruleset.infraction(item.answer.infraction).name.get(w.lang), phone)
    if item.answer.players is not None:
        players = form.get_by_role("radiogroup", name=w.players, exact=True)
        players.locator("label").nth(0 if item.answer.players == "offender" else 1).click()
    penalty = form.get_by_role("radiogroup", name=w.penalty, exact=True)
    name = ruleset.penalty(item.answer.penalty).name.get(w.lang)
    penalty.locator("label").filter(has_text=name).first.click()
    expect(penalty.get_by_role("radio", name=name, exact=True)).to_be_checked()
    fixes = item.answer.fixes
    for number, fix in enumerate(fixes, start=1):
        pick(page, form.get_by_role("combobox", name=w.fixes, exact=True), ruleset.fix(fix).name.get(w.lang), phone,
             close=not (one_tap and number == len(fixes)))
    settle(page)
    if one_tap:  # the open list hides the rest of the page from the accessibility tree: Check by its test id
        form.get_by_test_id("stBaseButton-primaryFormSubmit").filter(visible=True).tap()
    else:
        check.click()
    return bottom - top


def pick(page, combobox, name: str, phone: bool, close: bool = True) -> None:
    """Choose ``name`` in a selectbox or multiselect (on a phone the list may need a second tap).

    A multiselect keeps its list open after a pick (not always, on a phone). The choice is
    waited for as its chip in the box (the option's name whole, as the chip's title); then,
    unless ``close`` is false, the box loses focus (Escape on a list already closed would clear
    the value just picked), the list is waited for to close and the page to settle. Unless the
    app keeps the box as tall focused as not (``quiz.ui.streamlit_internals.words.MULTISELECT_INPUT``), a
    box with a long choice gives back a line on losing focus, and a press on the button under it
    misses it: the press takes the focus first, and the button moves up under the pointer."""
    many = driver.is_multiselect(combobox)
    option = page.get_by_role("option").filter(has_text=name).first
    driver.open_list(page, combobox, option, taps=2 if phone else 1)
    driver.settle_list(option)
    option.click()
    if not many:  # a selectbox's list closes by itself on a pick
        expect(page.get_by_role("listbox")).to_have_count(0)
        return
    box = combobox.locator("xpath=ancestor::*[@data-testid='stMultiSelect'][1]")
    expect(box.locator("[data-tag]").get_by_title(name, exact=True)).to_be_visible()
    if close:
        combobox.blur()
        expect(page.get_by_role("listbox")).to_have_count(0)
        page.evaluate(driver.SCROLL_SETTLED)


def walk(page, w: Words, planned: list[Planned], phone: bool, shots: str | None) -> list[float]:
    heights = []
    for number, item in enumerate(planned, start=1):
        heights.append(answer(page, w, item, phone))
        success = main(page).get_by_test_id("stAlertContentSuccess")
        why = driver.why_line(page)  # under the verdict, the rest folded
        if item.expect == "right":
            expect(success).to_have_text(w.right)
        elif item.expect == "follows":
            expect(why).to_contain_text(w.follows)
            shoot(page, w, phone, f"{shots}-follows" if shots else None)
        else:
            expect(why).to_contain_text(w.misapplied)
            shoot(page, w, phone, f"{shots}-misapplied" if shots else None)
        expect(main(page).get_by_role("heading", name=item.card.title.get(w.lang), level=3)).to_be_visible()
        settle(page)
        assert_no_exception(page)
        if number < len(planned):
            next_button = main(page).get_by_role("button", name=driver.label(w.next_card))
            next_button.click()
            expect(main(page).get_by_test_id("stForm").get_by_test_id("stButtonGroup").first.or_(
                main(page).get_by_test_id("stForm").get_by_test_id("stNumberInput").first)).to_be_visible()
            if number == 1 and shots:
                driver.docs_screenshot(page, f"{shots}-form")
    return heights


def shoot(page, w: Words, phone: bool, name: str | None) -> None:
    """A wrong penalty's feedback: on a desktop its details are opened (each finding with what
    showed it, one tap away); then the README's picture ``name``, on a phone as the feedback
    leads (the verdict and its line of why)."""
    if not phone:
        details = driver.open_details(page, w.lang)
        expect(details.get_by_text(w.evidence).first).to_be_visible()
    if name is not None:
        driver.docs_screenshot(page, name)


def rows(database_url: str, trainee_id: int, planned: list[Planned]):
    """The trainee's answers in the walk (the seeded ones, older, come first)."""
    store = Store(database_url)
    try:
        return store.attempts(trainee_id).iloc[len(planned):]
    finally:
        store.dispose()


def check_stored(database_url: str, trainee_id: int, planned: list[Planned]) -> None:
    """Every answer stored as given: its findings, and which of the two mistakes a wrong penalty was."""
    stored = rows(database_url, trainee_id, planned)
    assert list(stored["card_id"]) == [item.card.id for item in planned]
    for (_, row), item in zip(stored.iterrows(), planned):
        assert [(f["fact"], f["chosen"]) for f in row["findings"]] == list(item.answer.findings)
        follows = row["penalty_follows_findings"]
        assert (None if pd.isna(follows) else bool(follows)) == {
            "right": None, "follows": True, "misapplied": False}[item.expect]


def test_ten_finding_cards_in_japanese_on_a_phone(new_page, server) -> None:
    planned = plan("pokemon-card-ja")
    trainee = driver.seed_trainee(server.database_url, "認定ジャッジ", "nintei-2468")
    seed_due(server.database_url, trainee.id, planned)
    page = new_page(PHONE, "ja-JP", "Asia/Tokyo", phone=True)
    driver.open_page(page, server.url, "review", lang="ja")
    driver.sign_in(page, "認定ジャッジ", "nintei-2468", lang="ja")
    heights = walk(page, JA, planned, phone=True, shots="findings-ja-phone")
    # from the findings to Check, the form fits one phone screen on every card
    assert max(heights) <= PHONE["height"], heights
    check_stored(server.database_url, trainee.id, planned)


def test_ten_finding_cards_in_english_on_a_desktop(new_page, server) -> None:
    planned = plan("yugioh-ocg")
    trainee = driver.seed_trainee(server.database_url, "Floor Judge", "floor-2468")
    seed_due(server.database_url, trainee.id, planned)
    page = new_page(DESKTOP, "en-US", "UTC")
    driver.open_page(page, server.url, "review", lang="en")
    driver.sign_in(page, "Floor Judge", "floor-2468", lang="en")
    walk(page, EN, planned, phone=False, shots="findings")
    check_stored(server.database_url, trainee.id, planned)
