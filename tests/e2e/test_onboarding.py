"""Tried as a new user would, in Japanese: a store owner (desktop) makes the store's join
code, three staff join with it on their phones (390×844), the owner gives the whole store the
20-question exam due Friday, one of them passes it from "your assignments", and the owner sees
them done and downloads the completion record (a PDF, read back).

``QUIZ_SCREENSHOTS=1`` saves the README's screenshots (``onboarding-*.png``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest

from quiz.access.stores import create_store
from quiz.access.supervisors import create_account
from quiz.db.exams import open_exam
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from quiz.model.cards import NO_LISTED_INFRACTION, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.model.words import t
from quiz.rules.variants import show_card
from quiz.training.grading import ScenarioAnswer
from quiz.training.presets import load_presets
from tests.e2e import driver
from tests.e2e.configured_server import running, sign_in_as_supervisor
from tests.e2e.driver import main, settle, sidebar
from tests.e2e.server import AppServer
from tests.shipped_content import shipped_content
from tests.ui.answering import right_answer

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

CONTENT = shipped_content()
PHONE = driver.PHONE
SHOP, OWNER, PASSWORD = "渋谷店", "山田店長", "onboarding-パスワード"
STAFF = (("佐藤陽菜", "hina-2468"), ("鈴木蓮", "ren-1357"), ("高橋結衣", "yui-8642"))
PRESET, TITLE = "ygo-20", "新人研修：遊戯王 20問の模擬試験"
JA = "ja"


def w(key: str, **values: Any) -> str:
    return t(key, JA, **values)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """A deployment whose operator (an admin) made the store and its owner's account."""
    server = AppServer(tmp_path_factory.mktemp("e2e-onboarding"))
    with running(server):
        store = Store(server.database_url)
        try:
            admin = create_account(store, "運用担当", PASSWORD, "admin", None, None)
            shop = create_store(store, SHOP, admin)
            server.owner = create_account(store, OWNER, PASSWORD, "supervisor", shop.id, None)
        finally:
            store.dispose()
        yield server



def owner_signs_in(page, server) -> None:
    driver.open_page(page, server.url, "assignments", title=w("assign.title"), lang=JA)
    sign_in_as_supervisor(page, JA, OWNER, PASSWORD)


def makes_join_code(page) -> str:
    """The owner, on the Stores page, makes the store's join code and reads it off the page."""
    driver.go_to(page, w("stores.nav"), w("stores.title"))
    main(page).get_by_role("button", name=w("stores.make_code")).click()
    made = main(page).get_by_test_id("stAlertContentSuccess")
    expect(made).to_be_visible()
    found = re.search(r"[A-Z2-9]{8}", made.inner_text())
    assert found is not None, made.inner_text()
    driver.docs_screenshot(page, "onboarding-owner-join-code")
    return found.group(0)


def staff_joins(page, server, name: str, pin: str, code: str) -> None:
    """A new member of staff on their phone adds themselves with the store's join code."""
    driver.open_page(page, server.url, title=w("practice.title"), lang=JA)
    driver.add_trainee_in_sidebar(page, name, pin, lang=JA, games=["yugioh-ocg"], join_code=code)
    store = Store(server.database_url)
    try:
        assert store.find_trainee(name).store_id == server.owner.store_id
    finally:
        store.dispose()


def assigns_the_exam(page) -> None:
    """The owner gives the whole store the exam, due the coming Friday (the form's default)."""
    main(page).get_by_role("tab", name=w("assign.tab_new")).click()
    form = main(page).get_by_test_id("stForm")
    form.get_by_label(w("assign.field_title"), exact=True).fill(TITLE)
    preset = next(p for p in load_presets(CONTENT.rulesets)[0] if p.id == PRESET)
    exam_box = form.get_by_role("combobox", name=w("assign.field_exam"), exact=True)
    option = page.get_by_role("option").filter(has_text=preset.name.get(JA)).first
    driver.open_list(page, exam_box, option, taps=1)
    option.click()
    expect(page.get_by_role("listbox")).to_have_count(0)
    settle(page)
    form.get_by_role("button", name=w("assign.make")).click()
    expect(main(page).get_by_text(w("assign.made", count=len(STAFF)), exact=True)).to_be_visible()
    settle(page)


def answer_right(page, card, seed: int, phone: bool) -> None:
    """Fill the exam question's form with the answer graded right and save it (a floor call's
    form opened by tapping Rule: the ruling without investigating, graded on the ruling)."""
    driver.open_ruling(page)
    form = main(page).get_by_test_id("stForm")
    save = form.get_by_role("button", name=driver.label(w("exam.save")))
    expect(save).to_be_visible()
    settle(page)
    showing = show_card(card, seed) if isinstance(card, ScenarioCard) else None
    given = right_answer(CONTENT, card, showing)
    ruleset = CONTENT.rulesets[card.ruleset]
    if isinstance(card, KnowledgeCard):
        text = next(c.text.get(JA) for c in card.choices if c.id == given)
        choices = form.get_by_role("radiogroup", name=w("answer.choose"), exact=True)
        choices.locator("label").filter(has_text=text).first.click()
    elif isinstance(card, JudgementCallCard):
        names = {**ruleset.infraction_labels(JA), NO_LISTED_INFRACTION: w("answer.no_listed_infraction")}
        pick(page, form.get_by_role("combobox", name=w("answer.nearest"), exact=True), names[given], phone)
    else:
        assert isinstance(given, ScenarioAnswer)
        fill_scenario(page, form, card, given, phone)
    settle(page)
    saved = main(page).get_by_text(re.compile("^" + re.escape(w("exam.saved_answer", answer="").split("：")[0])))
    for tap in range(2):  # a tap right after a list closed on a phone can go to the list's box instead
        save.click()
        try:
            expect(saved).to_be_visible(timeout=10_000 if tap == 0 else 30_000)
            break
        except AssertionError:
            if tap:
                raise
    settle(page)


def fill_scenario(page, form, card: ScenarioCard, given: ScenarioAnswer, phone: bool) -> None:
    ruleset = CONTENT.rulesets[card.ruleset]
    specs = {spec.id: spec for spec in ruleset.facts}
    for fact, value in given.findings:
        question = specs[fact].finding.question.get(JA)
        if isinstance(value, bool):
            group = form.get_by_role("radiogroup", name=question, exact=True)
            button = group.get_by_role("radio", name=w("findings.yes") if value else w("findings.no"), exact=True)
            driver.scroll_into_view(page, button)
            button.click()
            expect(button).to_have_attribute("aria-checked", "true")
        else:
            box = form.get_by_role("spinbutton", name=question, exact=True)
            box.fill(str(value))
            box.blur()
    pick(page, form.get_by_role("combobox", name=w("answer.infraction"), exact=True),
         ruleset.infraction_labels(JA)[given.infraction], phone)
    if given.players is not None:
        players = form.get_by_role("radiogroup", name=w("answer.players"), exact=True)
        players.locator("label").nth(0 if given.players == "offender" else 1).click()
    penalty = form.get_by_role("radiogroup", name=w("answer.penalty"), exact=True)
    name = ruleset.penalty(given.penalty).name.get(JA)
    penalty.locator("label").filter(has_text=name).first.click()
    expect(penalty.get_by_role("radio", name=name, exact=True)).to_be_checked()
    for fix in given.fixes:
        pick(page, form.get_by_role("combobox", name=w("answer.fixes"), exact=True), ruleset.fix(fix).name.get(JA),
             phone)


def pick(page, combobox, name: str, phone: bool) -> None:
    """Choose ``name`` in a selectbox or multiselect (on a phone the list may need a second tap)."""
    many = driver.is_multiselect(combobox)
    option = page.get_by_role("option").filter(has_text=name).first
    driver.open_list(page, combobox, option, taps=2 if phone else 1)
    option.click()
    if many:
        page.keyboard.press("Escape")
    expect(page.get_by_role("listbox")).to_have_count(0)
    combobox.blur()


def signed_in_on_phone(page, name: str, pin: str) -> None:
    """Signed in (again, unless the phone kept the sign-in), the sidebar closed over the page."""
    sign_out = sidebar(page).get_by_role("button", name=w("shell.sign_out"))
    form = driver.sign_in_form(page, JA)
    expect(sign_out.or_(form)).to_be_visible()
    if not sign_out.is_visible():
        driver.sign_in(page, name, pin, lang=JA)
    settle(page)
    bar = sidebar(page)
    if bar.get_attribute("data-collapsed") == "false":
        bar.get_by_role("button", name=w("streamlit.label_collapse_sidebar"), exact=True).click()
    expect(bar).to_have_attribute("data-collapsed", "true")


def passes_the_exam(page, server, name: str) -> None:
    """From "your assignments" on Practice: Take the exam, every question answered right, hand in."""
    mine = main(page).get_by_role("heading", name=w("assign.mine"))
    expect(mine).to_be_visible()
    expect(main(page).get_by_text(TITLE)).to_be_visible()
    driver.docs_screenshot(page, "onboarding-staff-assignment")
    main(page).get_by_role("button", name=w("assign.start_exam")).click()
    expect(main(page).get_by_role("heading", name=w("exam.title"), level=1)).to_be_visible()
    # its first question shown: the exam is begun and stored (the page's title comes first)
    first = re.escape(w("exam.question", n=1, total="TOTAL")).replace("TOTAL", r"\d+")
    expect(main(page).get_by_text(re.compile(f"^{first}$"))).to_be_visible()
    store = Store(server.database_url)
    try:
        exam = open_exam(store, store.find_trainee(name).id, utc_now())
    finally:
        store.dispose()
    assert exam is not None and exam.preset == PRESET
    for index, (card_id, seed) in enumerate(zip(exam.card_ids, exam.seeds)):
        expect(main(page).get_by_text(w("exam.question", n=index + 1, total=exam.total), exact=True)).to_be_visible()
        answer_right(page, CONTENT.cards[card_id], seed, phone=True)
        if index < exam.total - 1:
            main(page).get_by_role("button", name=w("exam.next")).click()
            settle(page)
    main(page).get_by_role("button", name=w("exam.hand_in")).click()
    expect(main(page).get_by_text(re.compile("^合格："))).to_be_visible()
    settle(page)


def test_an_owner_onboards_three_staff_and_downloads_who_passed(new_page, server) -> None:
    owner = new_page(locale="ja-JP", timezone="Asia/Tokyo")
    owner_signs_in(owner, server)
    code = makes_join_code(owner)
    phones = []
    for name, pin in STAFF:
        phone = new_page(viewport=PHONE, locale="ja-JP", timezone="Asia/Tokyo", phone=True)
        staff_joins(phone, server, name, pin, code)
        phones.append(phone)

    driver.go_to(owner, w("assign.nav"), w("assign.title"))  # a run of the page: the staff who joined
    assigns_the_exam(owner)
    main(owner).get_by_role("tab", name=w("assign.tab_list")).click()
    expect(main(owner).get_by_text(w("assign.summary", done=0, total=3, late=0), exact=True)).to_be_visible()

    first, (name, pin) = phones[0], STAFF[0]
    driver.open_page(first, server.url, title=w("practice.title"), lang=JA)  # the next morning
    signed_in_on_phone(first, name, pin)
    passes_the_exam(first, server, name)

    driver.go_to(owner, w("nav.team"), w("team.title"))
    driver.go_to(owner, w("assign.nav"), w("assign.title"))
    expect(main(owner).get_by_text(w("assign.summary", done=1, total=3, late=0), exact=True)).to_be_visible()
    driver.docs_screenshot(owner, "onboarding-owner-done")
    with owner.expect_download() as download:
        main(owner).get_by_role("button", name=w("assign.download_pdf")).click()
    pdf = download.value
    assert pdf.suggested_filename.endswith(".pdf")
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(pdf.path().read_bytes()))
    text = "".join("".join(page.extract_text().replace("\x00", "").split()) for page in reader.pages)
    assert "".join(TITLE.split()) in text and all(staff in text for staff, _ in STAFF)
    done, not_started = w("assign.status.done"), w("assign.status.not_started")
    assert f"{STAFF[0][0]}{done}100%" in text  # then the time it was done
    assert all(f"{staff}{not_started}0%" in text for staff, _ in STAFF[1:])
