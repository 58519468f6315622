"""Streamlit's own words in Japanese (quiz/ui/streamlit_internals/words.py), as a reader sees them:
each English text of Streamlit's frontend hidden and the Japanese said in its place, on the
widgets of every kind the app has; in English, Streamlit's own words as they are. On a phone,
the closed sidebar's button says "Menu" in the page's language and opens the page list.

What the reader sees is the element's drawn text plus its CSS generated content, which
``innerText`` leaves out; ``SHOWN`` reads both.
"""

from __future__ import annotations

import json
import re

import pytest

from quiz.model.words import strings, t
from tests.e2e import driver
from tests.e2e.driver import go_to, main, open_page, settle, sidebar
from tests.e2e.test_trainee_day import PHONE

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE, PIN = "Mio Words", "mio-1357"
# The text an element shows: its own drawn text and every visible ::before and ::after of it
# and of its descendants, in document order (not the names of Material icons, drawn as icons).
SHOWN = """(root) => {
    const said = [];
    const pseudo = (el, which) => {
        const style = getComputedStyle(el, which);
        if (style.content && style.content !== 'none' && style.content !== 'normal'
                && style.visibility !== 'hidden' && style.display !== 'none' && parseFloat(style.fontSize) > 0) {
            said.push(JSON.parse(style.content));
        }
    };
    const walk = (el) => {
        const style = getComputedStyle(el);
        if (style.display === 'none' || el.dataset.testid === 'stIconMaterial') return;  // an icon's name
        pseudo(el, '::before');
        for (const child of el.childNodes) {
            if (child.nodeType === Node.TEXT_NODE) {
                if (style.visibility !== 'hidden' && parseFloat(style.fontSize) > 0 && child.textContent.trim()) {
                    said.push(child.textContent.trim());
                }
            } else if (child.nodeType === Node.ELEMENT_NODE) {
                walk(child);
            }
        }
        pseudo(el, '::after');
    };
    walk(root);
    return said.join(' ');
}"""
ICONS = "[data-testid='stIconMaterial'], span[role='img'][translate='no']"  # Material icons, in markdown too
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
NAMES = {"Enter", "Ctrl", "Mac", "YAML", "YML", "ZIP"}  # keys' and file formats' names, written so in Japanese


def shown(locator) -> str:
    return locator.evaluate(SHOWN)


def assert_japanese(text: str, expected: str) -> None:
    """``text`` says ``expected`` and no English word but a key's or a file format's name."""
    assert expected in text, text
    assert set(LATIN_WORD.findall(text)) <= NAMES, text


def type_into(box, text: str) -> None:
    box.click()
    box.press_sequentially(text)


def hint(widget):
    """The hint under a text box or a number box being typed in."""
    instructions = widget.get_by_test_id("InputInstructions")
    expect(instructions).to_be_visible()
    return instructions


def test_streamlit_s_own_words_are_japanese_on_a_japanese_page(page, server) -> None:
    driver.seed_trainee(server.database_url, TRAINEE, PIN)
    open_page(page, server.url, "", lang="ja")
    expect(page).to_have_title(t("app.name", "ja"))  # the browser tab too

    # a text box in a form: the sign-in's name, with its character count kept
    name = driver.sign_in_form(page, "ja").get_by_test_id("stTextInput").first
    type_into(name.get_by_role("textbox"), "Mi")
    said = shown(hint(name))
    assert_japanese(said, t("streamlit.enter_to_submit", "ja"))
    assert said.endswith("2/60"), said

    # an option list with nothing left to offer (every game is chosen), and one with options:
    # no "Select all" entry
    games = sidebar(page).get_by_test_id("stMultiSelect").first
    games.get_by_role("combobox").click()
    listbox = page.get_by_role("listbox")
    expect(listbox).to_have_attribute("data-empty", "true")
    assert_japanese(shown(listbox), t("streamlit.no_results", "ja"))
    page.keyboard.press("Escape")
    categories = sidebar(page).get_by_test_id("stMultiSelect").nth(1)
    categories.get_by_role("combobox").click()
    options = page.get_by_role("listbox").get_by_role("option")
    expect(options.first).to_be_visible()
    assert "Select all" not in options.all_inner_texts() and "Select all" not in shown(page.get_by_role("listbox"))
    page.keyboard.press("Escape")

    driver.sign_in(page, TRAINEE, PIN, "ja")

    # a text area in a form, drawn by the practice card's own (fragment) run: the report form
    main(page).get_by_role("button", name=t("answer.dont_know", "ja")).click()
    report = main(page).get_by_test_id("stExpander").filter(has_text=t("report.title", "ja"))
    # the feedback's icons are glyphs: their English names ("lightbulb") are not read out, and
    # a button's key is read in Japanese ("ショートカット N", not "Shortcut N")
    expect(report).to_be_visible()
    icons = main(page).locator(ICONS)
    expect(icons.first).to_have_attribute("aria-hidden", "true")
    assert icons.count() > 1 and all(icon.get_attribute("aria-hidden") == "true" for icon in icons.all())
    heard = main(page).aria_snapshot()
    assert not re.search(r"\b(lightbulb|help|flag|Shortcut)\b", heard), heard
    assert t("streamlit.label_shortcut", "ja", keys="N") in heard
    report.locator("summary").click()
    text_area = report.get_by_test_id("stTextArea")
    type_into(text_area.get_by_role("textbox"), "x")
    assert_japanese(shown(hint(text_area)), t("streamlit.ctrl_enter_to_submit", "ja"))
    settle(page)

    # text boxes outside a form: the Reference's search, the daily goal
    go_to(page, t("nav.reference", "ja"), t("reference.title", "ja"))
    search = main(page).get_by_test_id("stTextInput").first
    type_into(search.get_by_role("textbox"), "遅")
    assert_japanese(shown(hint(search)), t("streamlit.enter_to_apply", "ja"))
    search.get_by_role("textbox").press("Enter")
    settle(page)
    go_to(page, t("nav.progress", "ja"), t("progress.title", "ja"))
    goal = main(page).get_by_test_id("stNumberInput").first
    box = goal.get_by_role("spinbutton")
    kept = box.input_value()
    type_into(box, "1")
    assert_japanese(shown(hint(goal)), t("streamlit.enter_to_apply", "ja"))
    box.fill(kept)  # the goal as it was
    box.press("Enter")
    settle(page)

    # the file uploader's button and limit line
    go_to(page, t("nav.content", "ja"), t("content.title", "ja"))
    uploader = main(page).get_by_test_id("stFileUploader")
    expect(uploader).to_be_visible()
    assert_japanese(shown(uploader.locator("button")), t("streamlit.upload", "ja"))
    assert_japanese(shown(uploader.get_by_test_id("stFileUploaderDropzoneInstructions")),
                    t("streamlit.upload_limit", "ja", mb=2, types="YAML, YML, ZIP"))
    assert "Upload" not in uploader.inner_text() and "per file" not in uploader.inner_text()

    driver.choose_language(page, "English")  # the tab's title follows the sidebar's choice
    expect(page).to_have_title(t("app.name", "en"))


def test_an_english_page_keeps_streamlit_s_own_words(page, server) -> None:
    open_page(page, server.url, "", lang="en")
    expect(page).to_have_title(t("app.name", "en"))
    name = driver.sign_in_form(page, "en").get_by_test_id("stTextInput").first
    type_into(name.get_by_role("textbox"), "Mi")
    assert shown(hint(name)) == "Press Enter to submit form • 2/60"
    pin = driver.sign_in_form(page, "en").get_by_test_id("stTextInput").nth(1)
    expect(pin.get_by_role("button", name="Show password")).to_be_attached()  # Streamlit's own, kept



@pytest.mark.parametrize("lang", ["ja", "en"])
def test_on_a_phone_the_menu_button_is_labelled_and_opens_the_page_list(new_page, server, lang: str) -> None:
    trainee = f"Menu {lang}"
    driver.seed_trainee(server.database_url, trainee, PIN)
    page = new_page(PHONE, "ja-JP" if lang == "ja" else "en-US", phone=True)
    driver.as_phone_browser(page)
    open_page(page, server.url, "", lang=lang)
    # no key to press on a touch screen: the keyboard hint is left out, the character count kept
    name = driver.sign_in_form(page, lang).get_by_test_id("stTextInput").first
    type_into(name.get_by_role("textbox"), "Mi")
    assert shown(hint(name)) == "2/60"
    # a screen reader hears Streamlit's own buttons in the page's language
    pin = driver.sign_in_form(page, lang).get_by_test_id("stTextInput").nth(1)
    expect(pin.get_by_role("button", name=t("streamlit.label_show_password", lang), exact=True)).to_be_attached()
    games = sidebar(page).get_by_test_id("stMultiSelect").first  # its chips' remove buttons
    before, after = strings(lang)["streamlit.label_remove"].split("{item}")
    removers = games.locator("".join(f"[aria-label{op}={json.dumps(part, ensure_ascii=False)}]" for op, part in (("^", before), ("$", after))
                                     if part))
    expect(removers.first).to_be_attached()
    if lang == "ja":
        for english in ("Remove ", "Selected values", "Clear all", "Open"):
            expect(games.locator(f'[aria-label^="{english}"]')).to_have_count(0)
    name.get_by_role("textbox").fill("")
    driver.sign_in(page, trainee, PIN, lang)  # the sidebar, open for signing in, closes over the page
    menu = page.get_by_test_id("stExpandSidebarButton")
    expect(menu).to_be_visible()
    assert shown(menu) == t("streamlit.menu", lang)
    expect(menu).to_have_attribute("aria-label", t("streamlit.label_expand_sidebar", lang))
    box = menu.bounding_box()
    assert box is not None and box["width"] >= 80 and box["height"] >= 30, box  # a button to tap, not a small icon
    menu.tap()
    link = sidebar(page).get_by_role("link", name=t("nav.progress", lang), exact=True)
    expect(link).to_be_in_viewport()
    link.tap()
    expect(main(page).get_by_role("heading", name=t("progress.title", lang), level=1)).to_be_visible()
    expect(menu).to_be_visible()  # the sidebar closed again over the page
