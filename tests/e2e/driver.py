"""Finding Chromium, and driving the Streamlit app in it the way a user does.

Streamlit draws the page asynchronously over a websocket, so every step waits through
Playwright's auto-waiting locators and ``expect``. ``settle`` waits until the app's script
run is over before the next action: acting while a run is still going (for example
following a navigation link while the page is still being drawn) can get an input lost.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from quiz.access.accounts import add_trainee
from quiz.db.store import Store, Trainee

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
SCREENSHOTS = ROOT / "docs" / "screenshots"
SHM_NEEDED = 1 << 30  # bytes free in /dev/shm for Chromium to keep its shared memory there


def shm_too_small(path: str = "/dev/shm") -> bool:
    """Whether Chromium must keep its shared memory in /tmp files instead of /dev/shm: none, or
    too small (a container's default is 64 MB, and Chromium crashes once it is full). Where
    /dev/shm has room, files in /tmp cost the kernel a disk's writing of every frame drawn."""
    try:
        stats = os.statvfs(path)
    except OSError:
        return True
    return stats.f_bavail * stats.f_frsize < SHM_NEEDED


CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", *(["--disable-dev-shm-usage"] if shm_too_small() else []),
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1000}
MAX_SHOT_HEIGHT = 8000  # px; a full-page screenshot taller than this is cut
PLAYERS_QUESTION = "Who receives it?"  # the answer form's question on cards of an act of both players
NEAREST_QUESTION = "Which infraction of the document is nearest to this case?"  # a judgement call's form


def find_chromium() -> tuple[str | None, str]:
    """The browser to drive (``QUIZ_CHROMIUM``, else ``chromium`` on PATH) or why there is none."""
    configured = os.environ.get("QUIZ_CHROMIUM")
    if configured:
        if os.path.isfile(configured) and os.access(configured, os.X_OK):
            return configured, ""
        return None, f"QUIZ_CHROMIUM={configured!r} is not an executable file"
    found = shutil.which("chromium")
    if found:
        return found, ""
    return None, "no Chromium: set QUIZ_CHROMIUM or install Debian's chromium (make browser)"


def require_browser() -> str:
    """Skip the calling test module (at import time) unless Playwright and Chromium are there."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("the playwright package is not installed (requirements-dev.txt)", allow_module_level=True)
    path, reason = find_chromium()
    if path is None:
        pytest.skip(reason, allow_module_level=True)
    return path


def screenshots_wanted() -> bool:
    """Whether to refresh the README's screenshots in docs/screenshots/ (``QUIZ_SCREENSHOTS=1``)."""
    return os.environ.get("QUIZ_SCREENSHOTS") == "1"


def has_cjk_font() -> bool | None:
    """Whether fontconfig knows a Japanese font; None when there is no fc-list to ask."""
    if shutil.which("fc-list") is None:
        return None
    result = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True, check=False)  # noqa: S603,S607
    return bool(result.stdout.strip())


# --- the page --------------------------------------------------------------------------------


def app_url(base: str, path: str = "", **params: str) -> str:
    query = urlencode(params)
    return f"{base}/{path.lstrip('/')}" + (f"?{query}" if query else "")


def main(page):
    return page.get_by_test_id("stMain")


def sidebar(page):
    return page.get_by_test_id("stSidebar")


def open_sidebar(page) -> None:
    """Open the sidebar if it is closed (on a phone it starts closed once signed in)."""
    from playwright.sync_api import expect

    settle(page)
    if sidebar(page).get_attribute("data-collapsed") == "true":
        page.get_by_test_id("stExpandSidebarButton").click()
    expect(sidebar(page)).to_have_attribute("data-collapsed", "false")
    settle(page)


def close_sidebar(page) -> None:
    """Close the sidebar if it is open (on a phone it covers the page, and opens signed out)."""
    from playwright.sync_api import expect

    settle(page)
    if sidebar(page).get_attribute("data-collapsed") == "false":
        sidebar(page).get_by_test_id("stSidebarCollapseButton").locator("button").click()
    expect(sidebar(page)).to_have_attribute("data-collapsed", "true")
    settle(page)


def settle(page, timeout: float = 30_000) -> None:
    """Wait until the app is connected, no script run is going on, and every element drawn is
    in place.

    Streamlit loads most widgets' code when a page first shows one (``React.lazy``), and draws
    a placeholder of its own height until then (``stSkeleton``, 40 px for a text box of 68).
    On a fresh browser that is slow, the run can have finished while the placeholders are
    still there: the real widgets then push what is below them down, and a press begun
    meanwhile ends elsewhere (a phone's sign-up expander moved 28 px between pointer down and
    up, and did not open).
    """
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            if (!app) return false;
            if (document.querySelector('[data-testid="stSkeleton"]')) return false;
            const run = app.getAttribute('data-test-script-state');
            const link = app.getAttribute('data-test-connection-state');
            if (run === null) {  // a Streamlit without the test attributes: go by the status widget
                return !document.querySelector('[data-testid="stStatusWidget"]');
            }
            return run === 'notRunning' && (link === null || link === 'CONNECTED');
        }""",
        timeout=timeout,
    )


def open_page(page, base: str, path: str = "", title: str | None = None, **params: str) -> None:
    """Load a page of the app and wait until it is drawn (its ``st.title`` when given)."""
    from playwright.sync_api import expect

    page.goto(app_url(base, path, **params))
    if title is not None:
        expect(main(page).get_by_role("heading", name=title, level=1)).to_be_visible()
    settle(page)
    assert_no_exception(page)


def assert_no_exception(page) -> None:
    """No Python traceback is shown anywhere on the page."""
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stException")).to_have_count(0)


def go_to(page, link: str, title: str) -> None:
    """Follow a link of the top navigation and wait for the page's title."""
    from playwright.sync_api import expect

    settle(page)
    page.get_by_role("navigation").get_by_role("link", name=link, exact=True).click()
    expect(main(page).get_by_role("heading", name=title, level=1)).to_be_visible()
    settle(page)
    assert_no_exception(page)


def choose_language(page, name: str) -> None:
    """Click a language in the sidebar's language radio (日本語 or English)."""
    from playwright.sync_api import expect

    settle(page)
    group = sidebar(page).get_by_role("radiogroup", name="言語 / Language")
    group.get_by_text(name, exact=True).click()
    expect(group.get_by_role("radio", name=name, exact=True)).to_be_checked()


def rule_button(page):
    """A floor call's "Rule" button (in English or Japanese): it opens the call's answer form."""
    from quiz.model.words import t

    words = "|".join(re.escape(t("investigation.rule", lang)) for lang in ("en", "ja"))
    return main(page).get_by_role("button", name=re.compile(rf"^({words})$"))


def card_shown(page):
    """What a dealt card shows first: its answer form, or a floor call's Rule button (its
    investigation, the form opened by Rule). Wait on this, not on the form, for a card dealt
    at random: a floor call (about one card in eight) has no form until Rule is pressed."""
    return main(page).get_by_test_id("stForm").or_(rule_button(page)).first


def expect_card(page) -> None:
    """A card is dealt and drawn: its form, or a floor call's investigation (``card_shown``)."""
    from playwright.sync_api import expect

    expect(card_shown(page)).to_be_visible()


def open_ruling(page, keyboard: bool = False) -> None:
    """On a floor call (investigated before it is ruled), press Rule (from the keyboard: focus
    and Enter) and wait for its answer form; any other card's form is on the page already."""
    from playwright.sync_api import expect

    rule = rule_button(page)
    form = main(page).get_by_test_id("stForm")
    expect(form.or_(rule).first).to_be_visible()
    # the run drawing the card is over: an earlier card's form (an exam's question saved, its
    # form kept) is gone, and no run can draw Rule again under the pointer
    settle(page)
    if rule.count():
        if keyboard:
            rule.focus()
            page.keyboard.press("Enter")
        else:
            rule.click()
        expect(form.first).to_be_visible()


def answer_with_first_choices(page, button: str = "Check") -> str:
    """Answer the card in the form with its first choices (right or wrong) and press ``button``.

    Returns "scenario" (its findings answered, infraction, penalty and, when asked, who receives it chosen),
    "knowledge" (a choice picked) or "judgement_call" (the first infraction named nearest).
    """
    from playwright.sync_api import expect

    open_ruling(page)
    form = main(page).get_by_test_id("stForm")
    submit = form.get_by_role("button", name=label(button))
    expect(submit).to_be_visible()
    settle(page)
    # a scenario form has a Penalty group, a knowledge card a "Your answer" group, a judgement
    # call a box of the nearest infraction: wait for one of them, so the form is drawn before
    # deciding which it is (not by the Infraction box: the first selectbox of a page load can
    # appear after the radio groups)
    penalty = form.get_by_role("radiogroup", name="Penalty", exact=True)
    answer = form.get_by_role("radiogroup", name="Your answer", exact=True)
    nearest = form.get_by_role("combobox", name=NEAREST_QUESTION, exact=True)
    expect(penalty.or_(answer).or_(nearest).first).to_be_visible()
    if nearest.count():
        pick_first_option(page, nearest)
        submit.click()
        return "judgement_call"
    answer_findings(form)
    kind = "scenario" if penalty.count() else "knowledge"
    if kind == "scenario":
        infraction = form.get_by_role("combobox", name="Infraction", exact=True)
        expect(infraction).to_have_value(pick_first_option(page, infraction))
        players = form.get_by_role("radiogroup", name=PLAYERS_QUESTION, exact=True)
        if players.count():  # asked on cards whose infraction can name both players
            players.locator("label").first.click()
            expect(players.get_by_role("radio").first).to_be_checked()
    choices = penalty if kind == "scenario" else answer
    choices.locator("label").first.click()
    expect(choices.get_by_role("radio").first).to_be_checked()
    submit.click()
    return kind


# The element of a finding's control: its key is "<form key>-finding-<fact>" (quiz/ui/findings_view.py),
# on the element container from the first draw (the control itself is loaded on first use).
FINDING_CONTROL = '[data-testid="stElementContainer"][class*="st-key-"][class*="-finding-"]'


def answer_findings(form) -> int:
    """Answer every finding the form asks (a scenario card's facts to establish, above its
    Infraction box; the form is refused until each is answered): the first button of a
    yes/no pair, the least whole number a number box takes. A finding already answered (an
    exam question's saved answer) is kept: a second tap on a chosen button would clear it.
    How many findings the form asks."""
    from playwright.sync_api import expect

    controls = form.locator(FINDING_CONTROL)
    for control in controls.all():
        choices = control.get_by_role("radio")  # a segmented control's buttons
        number = control.get_by_role("spinbutton")
        expect(choices.first.or_(number)).to_be_visible()
        if number.count():
            if not number.input_value():
                number.fill(finding_number(number.get_attribute("min")))
                number.blur()  # the number is taken on blur (Enter would submit the form)
        elif control.locator(CHOSEN).count() == 0:
            choices.first.click()
        expect_finding_answered(control)
    return controls.count()


CHOSEN = '[role="radio"][aria-checked="true"]'  # a segmented control's chosen button


def finding_number(least: str | None) -> str:
    """The whole number to type into a finding's number box whose ``min`` attribute is
    ``least``: that least value (a box without a lower bound has a huge negative one), or 0."""
    return str(max(int(float(least)), 0)) if least else "0"


def expect_finding_answered(control) -> None:
    """A finding's control (a ``FINDING_CONTROL`` element) holds an answer the form will send:
    a button of its yes/no pair chosen, or a number taken (no "Press Enter" hint left: a
    number box takes what was typed when it loses focus)."""
    from playwright.sync_api import expect

    number = control.get_by_role("spinbutton")
    if number.count():
        expect(number).not_to_have_value("")
        expect(control.get_by_test_id("InputInstructions")).to_have_count(0)
    else:
        expect(control.locator(CHOSEN)).to_have_count(1)


def open_list(page, combobox, option, taps: int = 2) -> None:
    """Tap ``combobox`` until ``option`` of its list shows, ``taps`` times at most: the box is
    scrolled into view and tapped once the page's layout and scroll position have settled, as a
    person scrolls and then taps (a list closes on any scroll of the page; on a heavily loaded
    machine the page can still move after two still frames, so a second tap may be needed)."""
    from playwright.sync_api import expect

    for _ in range(taps):
        scroll_into_view(page, combobox)
        combobox.click()
        try:
            expect(option).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            continue
    expect(option).to_be_visible()


# Resolves once the open option list's scroll position and the place of ``option`` (an
# element) have stayed the same for two animation frames, the page's too: the list is laid
# out where it will stay (it scrolls inside itself to an option out of its view, and its rows
# are drawn again as it does).
LIST_SETTLED = """(option) => new Promise(done => {
    const area = document.querySelector('[data-testid="stMain"]');
    let last = null, still = 0;
    const look = () => {
        const list = option.closest('[role="listbox"]'), box = option.getBoundingClientRect();
        const now = [list ? list.scrollTop : -1, box.top, box.left, area ? area.scrollTop : 0].join(':');
        still = now === last ? still + 1 : 0;
        last = now;
        if (still >= 2) done(); else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
})"""


def settle_list(option) -> None:
    """Bring ``option`` of an open list into view, point at it, and wait until it shows the
    pointer over it and the list and the page stay still: a press on an option that moves
    between its pointer's down and up chooses nothing, and the list draws itself again when
    the pointer first comes over an option (React Aria's ``data-hovered``; each option's
    collection is made anew), which must not fall between the press's down and up."""
    from playwright.sync_api import expect

    option.scroll_into_view_if_needed()
    option.evaluate(LIST_SETTLED)
    option.hover()
    expect(option).to_have_attribute("data-hovered", "true")
    option.evaluate(LIST_SETTLED)


def pick_first_option(page, combobox) -> str:
    """Open a selectbox, pick its first option; the option's text."""
    return pick_option(page, combobox)


# Resolves once the main area's scroll position and height have stayed the same for two
# animation frames: the page's layout has settled, and the scroll events of its last change
# have fired.
SCROLL_SETTLED = """() => new Promise(done => {
    const area = document.querySelector('[data-testid="stMain"]');
    let last = null, still = 0;
    const look = () => {
        const now = area ? `${area.scrollTop}:${area.scrollHeight}` : '';
        still = now === last ? still + 1 : 0;
        last = now;
        if (still >= 2) done(); else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
})"""


def scroll_into_view(page, locator) -> None:
    """Scroll ``locator`` into view and wait until the page's layout and scroll position have
    settled: a list opened before then closes on the scroll event that follows (a run's
    elements still being laid out move the page by themselves, a page grown shorter scrolls)."""
    locator.scroll_into_view_if_needed()
    page.evaluate(SCROLL_SETTLED)


def pick_option(page, combobox, name: str | None = None) -> str:
    """Open a selectbox or multiselect, pick the option ``name`` (else the first) and close the
    list; the option's text."""
    from playwright.sync_api import expect

    many = is_multiselect(combobox)
    options = page.get_by_role("option")
    option = options.first if name is None else options.filter(has_text=name).first
    # a touch screen's tap on the box is cancelled when the page moves under it (the box takes
    # the focus, its list does not open): a person taps again, as open_list does on a phone
    open_list(page, combobox, option, taps=2 if is_touch(page) else 1)
    text = option.inner_text().strip()
    settle_list(option)
    option.click()
    listbox = page.get_by_role("listbox")
    if many:  # a multiselect keeps its list open for more choices: Escape closes it
        expect(listbox).to_be_visible()
        page.keyboard.press("Escape")
    # never Escape on a selectbox: its list closes by itself on a pick, and Escape on a closed
    # list clears the value just picked (what a test racing the list's closing used to do)
    expect(listbox).to_have_count(0)
    return text


def is_touch(page) -> bool:
    """Whether the page is a touch screen's (a context made with ``has_touch``, as a phone's)."""
    return bool(page.evaluate("() => navigator.maxTouchPoints > 0"))


def is_multiselect(combobox) -> bool:
    """Whether a combobox is a multiselect's (else a selectbox's)."""
    return bool(combobox.evaluate("el => el.closest('[data-testid=\"stMultiSelect\"]') !== null"))


def metric(page, label: str):
    """The value element of the ``st.metric`` labelled ``label`` in the main area."""
    box = main(page).get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    )
    return box.get_by_test_id("stMetricValue")


@dataclass(frozen=True)
class TraineeWords:
    """The labels of the sidebar's trainee panel in one language."""

    name: str
    pin: str
    pin_again: str
    sign_in: str
    sign_out: str
    new_trainee: str
    add: str
    ask_to_sign_in: str  # the start of the info a page shows nobody signed in


WORDS = {
    "en": TraineeWords("Name", "PIN", "Same PIN again", "Sign in", "Sign out", "New trainee", "Add me",
                       "Sign in, or add yourself, in the sidebar to start."),
    "ja": TraineeWords("名前", "PIN", "PIN（確認）", "サインイン", "サインアウト", "新しい受講者", "登録する",
                       "始めるにはサイドバーでサインインするか、自分を登録してください。"),
}


PHONE = {"width": 390, "height": 844}  # the phone's viewport of the browser tests


def phone_signed_in(new_page, server, trainee: str, pin: str, lang: str, path: str = ""):
    """A phone's page (``PHONE``, touch) in ``lang`` on ``path``, signed in as ``trainee``,
    a trainee written into the database with ``pin`` first."""
    seed_trainee(server.database_url, trainee, pin)
    page = new_page(PHONE, "ja-JP" if lang == "ja" else "en-US", phone=True)
    open_page(page, server.url, path, lang=lang)
    sign_in(page, trainee, pin, lang)
    return page


def seed_trainee(database_url: str, name: str, pin: str) -> Trainee:
    """A trainee with that PIN, written straight into the app's database."""
    store = Store(database_url)
    try:
        return add_trainee(store, name, pin)
    finally:
        store.dispose()


def sign_in_form(page, lang: str = "en"):
    """The sidebar's sign-in form (not the "New trainee" one, whose fields have the same labels)."""
    return sidebar(page).get_by_test_id("stForm").filter(
        has=page.get_by_role("button", name=WORDS[lang].sign_in, exact=True)
    )


def submit_sign_in(page, name: str, pin: str, lang: str = "en", type_name: bool = True) -> None:
    """Type the name (unless ``type_name`` is false: the prefilled one is kept) and the PIN
    into the sidebar's form, and press Sign in."""
    words = WORDS[lang]
    settle(page)
    form = sign_in_form(page, lang)
    if type_name:
        form.get_by_label(words.name, exact=True).fill(name)
    form.get_by_label(words.pin, exact=True).fill(pin)
    form.get_by_role("button", name=words.sign_in, exact=True).click()


def sign_in(page, name: str, pin: str, lang: str = "en", type_name: bool = True) -> None:
    """Sign in as ``name`` from the sidebar's form and wait until the sidebar shows it."""
    submit_sign_in(page, name, pin, lang, type_name)
    expect_signed_in(page, name, lang)


def add_trainee_in_sidebar(page, name: str, pin: str, lang: str = "en", games: Sequence[str] | None = None,
                           join_code: str | None = None) -> None:
    """Open the sidebar's "New trainee" expander, fill its form (with a store's ``join_code``
    when given) and press Add me; the new trainee is then signed in, and answers the welcome
    with ``games`` (see ``answer_welcome``)."""
    from playwright.sync_api import expect

    from quiz.model.words import t

    words = WORDS[lang]
    settle(page)
    panel = sidebar(page).get_by_test_id("stExpander").filter(has_text=words.new_trainee)
    panel.locator("summary").click()
    name_box = panel.get_by_label(words.name, exact=True)
    expect(name_box).to_be_visible()
    name_box.fill(name)
    panel.get_by_label(words.pin, exact=True).fill(pin)
    panel.get_by_label(words.pin_again, exact=True).fill(pin)
    if join_code is not None:
        panel.get_by_label(t("shell.join_code", lang), exact=True).fill(join_code)
    settle(page)  # no run going on that could draw the form again under the pointer
    panel.get_by_role("button", name=words.add, exact=True).click()
    expect_signed_in(page, name, lang)
    answer_welcome(page, games, lang)


def answer_welcome(page, games: Sequence[str] | None = None, lang: str = "en") -> None:
    """Answer a new trainee's welcome on the Practice page (``quiz.ui.first_visit``): the games
    by ruleset id (None: every game) and the suggested daily goal; the first card follows."""
    from playwright.sync_api import expect

    from quiz.content.loader import load_content
    from quiz.model.words import t

    start = t("first_visit.start", lang)
    form = main(page).get_by_test_id("stForm").filter(has=page.get_by_role("button", name=start, exact=True))
    expect(form).to_be_visible()
    rulesets = load_content().rulesets
    for ruleset in games if games is not None else list(rulesets):
        form.get_by_role("button", name=rulesets[ruleset].document.short_name.get(lang), exact=True).click()
    settle(page)
    form.get_by_role("button", name=start, exact=True).click()
    expect(form).to_have_count(0)


def expect_signed_in(page, name: str, lang: str = "en") -> None:
    """The sidebar shows ``name`` in bold with a Sign out button, and no sign-in form.

    Signing in ends with ``st.rerun``: the page is idle for a moment between the two runs,
    so the Sign out button is waited for before ``settle``.
    """
    from playwright.sync_api import expect

    words = WORDS[lang]
    side = sidebar(page)
    expect(side.get_by_role("button", name=words.sign_out, exact=True)).to_be_visible()
    settle(page)
    expect(side.get_by_role("button", name=words.sign_out, exact=True)).to_be_visible()
    expect(side.locator("strong")).to_have_text(name, use_inner_text=True)
    expect(side.get_by_role("button", name=words.sign_in, exact=True)).to_have_count(0)


def sign_out(page, lang: str = "en") -> None:
    """Press the sidebar's Sign out and wait for the sign-in form."""
    from playwright.sync_api import expect

    words = WORDS[lang]
    settle(page)
    sidebar(page).get_by_role("button", name=words.sign_out, exact=True).click()
    expect(sign_in_form(page, lang).get_by_role("button", name=words.sign_in, exact=True)).to_be_visible()
    settle(page)


def expect_signed_out(page, lang: str = "en", prefilled: str = "") -> None:
    """Nobody is signed in: the sidebar's form (its name field prefilled with ``prefilled``) and
    the main area's request to sign in."""
    from playwright.sync_api import expect

    words = WORDS[lang]
    settle(page)
    form = sign_in_form(page, lang)
    expect(form.get_by_role("button", name=words.sign_in, exact=True)).to_be_visible()
    expect(form.get_by_label(words.name, exact=True)).to_have_value(prefilled)
    expect(sidebar(page).get_by_role("button", name=words.sign_out, exact=True)).to_have_count(0)
    expect(main(page).get_by_text(words.ask_to_sign_in)).to_be_visible()


def label(text: str) -> re.Pattern[str]:
    """A button's accessible name: ``text``, with the keyboard shortcut Streamlit shows beside
    it if there is one ("Check" is named "Check Shortcut Ctrl + Enter")."""
    return re.compile(rf"^{re.escape(text)}(\s+Shortcut\b.*)?$")


def url_param(name: str, value: str) -> re.Pattern[str]:
    """A URL whose query string holds ``name=value`` (value URL-encoded)."""
    encoded = re.escape(urlencode({name: value}))
    return re.compile(rf"[?&]{encoded}(&|#|$)")


def open_details(page, lang: str = "en", within=None):
    """Open the feedback's folded details (the expander under the verdict and its line of
    why, closed until tapped, its content drawn by the run that tapping starts) in ``within``
    (default: the main area; in the exam's results, a question's expander) and wait until its
    content shows (a quoted line of the document: every kind's details have one); the open
    details."""
    from playwright.sync_api import expect

    from quiz.model.words import t

    summary = (within or main(page)).locator("summary").filter(has_text=t("feedback.details", lang)).first
    details = summary.locator("xpath=..")  # the <details> the summary opens
    settle(page)
    scroll_into_view(page, summary)
    summary.click()
    expect(details.get_by_test_id("stExpanderDetails").first.locator("blockquote").first).to_be_visible()
    page.evaluate(SCROLL_SETTLED)  # opening is animated: the page's height grows for a moment
    return details


WHY_LINE = '[data-testid="stMarkdownContainer"]:has([aria-label="lightbulb icon"])'


def why_line(page, within=None):
    """The feedback's line of why (the Markdown under the verdict that starts with its bulb)."""
    return (within or main(page)).locator(WHY_LINE)


# --- screenshots -----------------------------------------------------------------------------


def full_page_screenshot(page, path: Path) -> Path:
    """The whole page, not just the viewport.

    Streamlit scrolls its main area inside a fixed-height box, so Playwright's
    ``full_page`` only sees the viewport; the viewport is made as tall as the content for
    the shot and put back afterwards.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or VIEWPORT
    height = page.evaluate(
        """() => Math.max(window.innerHeight, ...['stMain', 'stSidebarContent', 'stSidebarUserContent']
              .map(id => document.querySelector(`[data-testid="${id}"]`))
              .filter(Boolean).map(e => e.scrollHeight))"""
    )
    tall = min(int(height) + 40, MAX_SHOT_HEIGHT)
    if tall > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": tall})
    try:
        page.evaluate(SCROLL_SETTLED)  # charts and tables laid out again at the new size
        page.screenshot(path=str(path), full_page=True, animations="disabled")
    finally:
        if tall > size["height"]:
            page.set_viewport_size(size)
    return path


def docs_screenshot(page, name: str) -> None:
    """Refresh docs/screenshots/<name>.png when QUIZ_SCREENSHOTS=1."""
    if screenshots_wanted():
        settle(page)
        full_page_screenshot(page, SCREENSHOTS / f"{name}.png")
        settle(page)


def distinct_glyphs(locator) -> dict[str, object]:
    """Draw each character of an element's text in the element's fonts on a canvas.

    Missing glyphs ("tofu") are all drawn as the same box, so they look like each other and
    like a private-use character no font has; real glyphs differ.
    """
    return locator.evaluate(
        """(el) => {
            const family = getComputedStyle(el).fontFamily;
            const draw = (ch) => {
                const canvas = document.createElement('canvas');
                canvas.width = 64; canvas.height = 64;
                const ctx = canvas.getContext('2d');
                ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, 64, 64);
                ctx.fillStyle = '#000'; ctx.font = `48px ${family}`;
                ctx.fillText(ch, 4, 52);
                return canvas.toDataURL();
            };
            const chars = [...new Set([...el.textContent.trim()].filter(c => c.trim()))];
            const tofu = draw('\\u{10FFFD}');
            const images = chars.map(draw);
            return {chars: chars.join(''), distinct: new Set(images).size,
                    tofu: chars.filter((c, i) => images[i] === tofu).join('')};
        }"""
    )


# a phone's browser: Streamlit closes the sidebar after a page is picked in it on a phone only
PHONE_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
               "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")


def as_phone_browser(page) -> None:
    """Make ``page`` report a phone's browser (``PHONE_AGENT``, over CDP)."""
    page.context.new_cdp_session(page).send("Emulation.setUserAgentOverride", {"userAgent": PHONE_AGENT})


FAILURE_LINES = 40  # of the pages' console and each server's log, printed with a failed test


@contextmanager
def page_maker(request: pytest.FixtureRequest, browser, servers: Sequence[Any]) -> Iterator[Callable[..., Any]]:
    """A maker of pages, each in a browser context of its own (viewport, locale, time zone, a
    touch phone or not); on failure every page is saved in test-artifacts/e2e/, with the log of
    each of ``servers``."""
    opened: list = []
    console: list[str] = []  # every page's console and websocket events, in order, for a failure's report

    def make(viewport: dict[str, int] = VIEWPORT, locale: str = "en-US", timezone: str = "UTC", phone: bool = False):
        context = browser.new_context(viewport=viewport, locale=locale, timezone_id=timezone,
                                      is_mobile=phone, has_touch=phone)
        context.set_default_timeout(30_000)
        context.set_default_navigation_timeout(60_000)
        opened.append(context)
        page = context.new_page()
        number = len(opened)
        page.on("console", lambda message: console.append(
            f"{time.monotonic():.3f} page{number} {message.type}: {message.text[:300]}"))
        page.on("websocket", lambda socket: socket.on("close", lambda _: console.append(
            f"{time.monotonic():.3f} page{number} websocket closed: {socket.url}")))
        return page

    try:
        yield make
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            stem = re.sub(r"[^\w.-]+", "_", request.node.name)
            pages = [page for context in opened for page in context.pages]
            for number, page in enumerate(pages, start=1):
                try:
                    full_page_screenshot(page, ARTIFACTS / f"{stem}-{number}.png")
                except Exception as error:  # noqa: BLE001 - keep the test's own failure visible
                    print(f"e2e: no screenshot of {page.url}: {error}")
            (ARTIFACTS / f"{stem}-console.log").write_text("\n".join(console) + "\n", encoding="utf-8")
            for number, server in enumerate(servers, start=1):
                if server.log_path.exists():
                    (ARTIFACTS / f"{stem}-server{number}.streamlit.log").write_bytes(server.log_path.read_bytes())
            # in the test's report too: a CI run keeps its output, not its artifacts
            print("e2e: the pages' last console lines:", *console[-FAILURE_LINES:], sep="\n")
            for number, server in enumerate(servers, start=1):
                print(f"e2e: the last lines of server {number}'s log:", server.log_tail(FAILURE_LINES), sep="\n")
        for context in opened:
            context.close()
