"""Streamlit's own words in the reader's language.

Streamlit's frontend writes a few texts of its own in English whatever the page's language:
the hint under a text box being typed in ("Press Enter to submit form"), an option list
with nothing to offer ("No results"), the file uploader's button ("Upload") and its limit
line ("2MB per file • YAML, ZIP"). It has no setting for them, so in any language but
English a style sheet hides each of them and writes the reader's words in its place (CSS
generated content: not in the page's text, read out by screen readers).

In every language, the button that opens the sidebar when it is closed (on a phone, where
the page list is) is labelled "Menu" beside its small arrow.

Screen readers read a button's ``aria-label``, which a style sheet cannot change: a small
script of ours (``page_script``, which also brings a new card or page to its top:
``quiz.ui.scroll``), in an iframe of the page's origin (as the exam clock's), renames Streamlit's
own labels ("Expand sidebar", "Show password", "Remove <option>", ...) in the reader's
language wherever they appear, and again whenever Streamlit draws them anew; it makes a
region that scrolls sideways (a wide table on a phone) reachable from the keyboard; it hides the
Material icons' names ("lightbulb", drawn as a glyph) from screen readers, which read them
out in English before the words beside them. On a touch
screen, where no key is pressed, the keyboard hints ("Press Enter", "Ctrl+Enter") are hidden
in every language; a character count stays.

The selectors follow Streamlit 1.67's markup (``version.STREAMLIT_VERSIONS``); the browser test
``tests/e2e/test_streamlit_words.py`` fails if an upgrade changes it. The multiselects'
"Select all" entry is turned off, and their placeholders are ours, in ``multiselect``,
which draws every multiselect of the app.

Every text comes from the string tables and is escaped for a CSS string: no character of
it can end the string, the rule or the ``<style>`` element.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Sequence, TypeVar

import streamlit as st

from quiz.model.words import t
from quiz.ui.next_bar import NEXT_BAR_CSS
from quiz.ui.round_clock import ROUND_CLOCK_CSS
from quiz.ui.scroll import SCROLL_CSS, WATCH_JS
from quiz.ui.streamlit_internals.objects import UploadedFile
from quiz.ui.touch_targets import TOUCH_TARGETS_CSS

ENGLISH = "en"  # Streamlit's own language: nothing to replace
T = TypeVar("T")

# The hint under a text box is the first of its parts when more follow (the character
# count); Streamlit leaves it out where Enter does nothing, and then the count stands alone.
# Every text box of the app in a form has a character limit; none outside a form has one.
_IN_FORM = '[data-testid="stForm"] [data-testid="{widget}"] [data-testid="InputInstructions"]:has(> span + span)'
_OUTSIDE_FORM = '[data-testid="{widget}"]:not([data-testid="stForm"] *) [data-testid="InputInstructions"]'
HINTS = (  # (where, string key)
    (_IN_FORM.format(widget="stTextInput"), "streamlit.enter_to_submit"),
    (_IN_FORM.format(widget="stTextArea"), "streamlit.ctrl_enter_to_submit"),
    (_OUTSIDE_FORM.format(widget="stTextInput"), "streamlit.enter_to_apply"),
    (_OUTSIDE_FORM.format(widget="stNumberInput"), "streamlit.enter_to_apply"),
)
# An option list with no option: a search that matches nothing, or every option chosen.
EMPTY_LIST = '[role="listbox"][data-empty="true"] [role="option"] > span'
SIDEBAR_BUTTON = 'button[data-testid="stExpandSidebarButton"]'
UPLOAD_BUTTON = '[data-testid="stFileUploaderDropzone"] button'
UPLOAD_LIMIT = '[data-testid="stFileUploaderDropzoneInstructions"]'
TOUCH = "@media (hover: none) and (pointer: coarse)"
# An option of a list, wrapped whole instead of cut at the list's edge: on a phone the
# infractions' long names ("… › 禁止・制限カードの枚数超過") ran out of the list.
OPTION_TEXT = '[role="listbox"] [role="option"]'
WRAPPED = ("height: auto; min-height: 2.5rem; padding-block: 0.3rem",  # the option's box, then its text
           "white-space: normal; overflow-wrap: anywhere; text-overflow: clip")
# A multiselect's text box keeps one least width, focused or not. Streamlit's is 8 px, and
# 3rem (room to type) only while focused: after a long choice (a fix's name) the focused box
# took a line of its own and gave it back on losing focus. On a phone a tap on the button
# under it (Check, the list still open after a fix was chosen) took the focus from the box
# first: the button moved up a line under the finger and the tap missed it (the first tap
# only closed the list, a second one was needed). Now the box is as tall either way.
MULTISELECT_INPUT = '[data-testid="stMultiSelect"] input {min-width: 3rem}'
PAGE_SCRIPT_NAME = "quiz-page-script"  # the script's iframe (its title): out of the page's flow and sight
PAGE_SCRIPT_FRAME = (f'[data-testid="stElementContainer"]:has(iframe[title="{PAGE_SCRIPT_NAME}"])'
                     " {position: absolute; width: 1px; height: 1px; overflow: hidden; visibility: hidden}")
SHORTCUT_BADGE = '[data-has-shortcut="true"] > kbd'  # a button's key (``shortcut=``), beside its label
# Streamlit draws the key at 60 % opacity: white on a primary button's blue became light blue
# on blue (2.7:1); drawn opaque, in the button's own text colour, it keeps at least 4.5:1.
SHORTCUT_BADGE_CSS = f"{SHORTCUT_BADGE} {{opacity: 1}}"
# Streamlit's English aria-labels -> our string key; "Remove <option>" by its prefix.
ARIA_LABELS = {"Expand sidebar": "streamlit.label_expand_sidebar",
               "Collapse sidebar": "streamlit.label_collapse_sidebar",
               "Show password": "streamlit.label_show_password", "Hide password": "streamlit.label_hide_password",
               "Clear all": "streamlit.label_clear_all", "Selected values": "streamlit.label_selected_values",
               "Open": "streamlit.label_open", "Close": "streamlit.label_close",
               "Help": "streamlit.label_help", "Decrement": "streamlit.label_decrement",
               "Increment": "streamlit.label_increment", "Choose date": "streamlit.label_choose_date",
               "Clear value": "streamlit.label_clear_value", "Main menu": "streamlit.label_main_menu",
               "App pages": "streamlit.label_app_pages"}
# Streamlit's English aria-labels that name what they are for, by their start -> our string key
# and its placeholder for the rest of the label: a chip's remove button, a button's key, a help
# tooltip's button.
ARIA_PREFIXES = {"Remove ": ("streamlit.label_remove", "item"), "Shortcut ": ("streamlit.label_shortcut", "keys"),
                 "Help for ": ("streamlit.label_help_for", "item")}
REMOVE_PREFIX = "Remove "
# Buttons whose words the style sheet replaces (``replaced``: hidden text, generated content
# shown): named for screen readers by an aria-label in the reader's language -> its string key.
NAMED = {UPLOAD_BUTTON: "streamlit.upload"}
_PAGE_SCRIPT = """<!doctype html><html><body><script>
(function () {
  var names = %(names)s, prefixes = %(prefixes)s, named = %(named)s, doc = window.parent.document;
  var ICON = "[data-testid='stIconMaterial'], span[role='img'][translate='no']";  // an icon's name ("lightbulb")
  function rename(el) {
    var label = el.getAttribute("aria-label"), said = label;
    if (Object.prototype.hasOwnProperty.call(names, label)) { said = names[label]; }
    else { Object.keys(prefixes).forEach(function (start) {  // "Remove <option>", "Shortcut Ctrl + Enter", ...
      if (said === label && label.indexOf(start) === 0) {
        said = prefixes[start].replace("{item}", label.slice(start.length));
      }
    }); }
    if (said !== label) { el.setAttribute("aria-label", said); }  // (the same label again would be watched again)
  }
  function quiet(el) { if (el.getAttribute("aria-hidden") !== "true") { el.setAttribute("aria-hidden", "true"); } }
  // a region that scrolls sideways (a wide table on a phone) is reached from the keyboard too
  var SCROLLER = "[role='tabpanel'] > div, [data-testid='stTable'], [data-testid='stTable'] > div";
  function reachable() { doc.querySelectorAll(SCROLLER).forEach(function (el) {
    if (el.scrollWidth > el.clientWidth + 1 && !el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "0"); }
  }); }
  // a button whose words a style sheet replaced is named in the reader's language
  function name() { Object.keys(named).forEach(function (where) { doc.querySelectorAll(where).forEach(function (el) {
    if (el.getAttribute("aria-label") !== named[where]) { el.setAttribute("aria-label", named[where]); }
  }); }); }
  function all() { doc.querySelectorAll("[aria-label]").forEach(rename); doc.querySelectorAll(ICON).forEach(quiet);
                   reachable(); name(); }
%(watch)s
  all();
  toTop(false);
  new MutationObserver(function (changes) {
    toTop(true);
    reachable();
    name();
    changes.forEach(function (change) {
      if (change.type === "attributes") { rename(change.target); }
      else { change.addedNodes.forEach(function (node) {
        if (node.nodeType === 1) { if (node.hasAttribute("aria-label")) { rename(node); }
                                   node.querySelectorAll("[aria-label]").forEach(rename);
                                   if (node.matches(ICON)) { quiet(node); }
                                   node.querySelectorAll(ICON).forEach(quiet); } }); }
    });
  }).observe(doc.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"]});
})();
</script></body></html>"""


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string: every ASCII character but letters, digits and spaces
    written as a hexadecimal escape (quotes, backslashes, ``<`` and ``>`` included), and
    every line break and control character too; other characters as they are."""
    return '"' + "".join(
        ch if (ch.isascii() and (ch.isalnum() or ch == " ")) or (not ch.isascii() and ch.isprintable())
        else f"\\{ord(ch):x} " for ch in text
    ) + '"'


def replaced(where: str, text: str, font_size: str) -> tuple[str, str]:
    """Rules that hide the text of the element ``where`` and show ``text`` in its place at
    ``font-size`` (the element's own), keeping its box, colour and alignment."""
    return (f"{where} {{font-size: 0; visibility: hidden}}",
            f"{where}::after {{content: {css_string(text)}; font-size: {font_size}; visibility: visible}}")


@cache
def widget_words_css(language: str) -> str:
    """The style sheet that labels the sidebar's button and says the text boxes' hints and an
    empty option list's words in ``language`` (Streamlit's own in English), with the page's
    other rules (the scroll marks hidden, the Next card bar sticky); made once per language,
    drawn on every full run."""
    rules = [f"{SIDEBAR_BUTTON} {{gap: 0.25rem; padding: 0.25rem 0.75rem; border: 1px solid currentColor;"
             " border-radius: 0.5rem}",
             f"{SIDEBAR_BUTTON}::after {{content: {css_string(t('streamlit.menu', language))}; font-size: 0.875rem}}"]
    rules += [f"{OPTION_TEXT} {{{WRAPPED[0]}}}", f"{OPTION_TEXT} > [data-item-hl] {{{WRAPPED[1]}}}", SCROLL_CSS,
              NEXT_BAR_CSS, ROUND_CLOCK_CSS, PAGE_SCRIPT_FRAME, MULTISELECT_INPUT, SHORTCUT_BADGE_CSS]
    if language != ENGLISH:
        for where, key in HINTS:
            rules.append(f"{where} > span:first-child {{display: none}}")
            rules.append(f"{where}::before {{content: {css_string(t(key, language))}}}")
        rules += replaced(EMPTY_LIST, t("streamlit.no_results", language), "0.875rem")
    # last, so that on a touch screen it wins over the hints above: no key to press there
    touch = [f"{where} > span:first-child {{display: none}} {where}::before, {where} > span + span::before"
             " {content: none}" for where, _ in HINTS]  # the hint, ours, and the dot that parted them
    touch.append(f"{SHORTCUT_BADGE} {{display: none}}")  # a button's "Ctrl + Enter"
    touch.append(TOUCH_TARGETS_CSS)
    rules.append(f"{TOUCH} {{ {' '.join(touch)} }}")
    return "\n".join(rules)


@cache
def uploader_css(language: str, types: tuple[str, ...], max_mb: int) -> str:
    """The style sheet that says the file uploader's button and limit line in ``language``
    ("" in English), for an uploader of ``types`` (file extensions) up to ``max_mb``."""
    if language == ENGLISH:
        return ""
    limit = t("streamlit.upload_limit", language, mb=max_mb, types=", ".join(kind.upper() for kind in types))
    return "\n".join((*replaced(f'{UPLOAD_BUTTON} [data-testid="stMarkdownContainer"] p',
                                 t("streamlit.upload", language), "0.875rem"),
                       *replaced(f"{UPLOAD_LIMIT} span", limit, "0.875rem")))


def draw_style(css: str) -> None:
    """A style sheet on the page (nothing drawn for none); a style-only ``st.html`` takes no
    room on the page."""
    if css:
        st.html(f"<style>\n{css}\n</style>")


@cache
def page_script(language: str) -> str:
    """The iframe's page: it renames Streamlit's aria-labels in ``language`` (none in
    English), names the buttons whose words the style sheet replaced (``NAMED``), hides the
    icons' names, and scrolls to the top for what is new (``quiz.ui.scroll``). The words are
    JSON with ``<`` escaped: no text can end the script element."""
    names, named = {}, {}
    if language != ENGLISH:
        names = {english: t(key, language) for english, key in ARIA_LABELS.items()}
        named = {where: t(key, language) for where, key in NAMED.items()}
    def literal(value: object) -> str:
        return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")
    prefixes = {start: t(key, language, **{name: "{item}"}) for start, (key, name) in ARIA_PREFIXES.items()}
    return _PAGE_SCRIPT % {"names": literal(names), "prefixes": literal(prefixes), "named": literal(named),
                           "watch": WATCH_JS}


def multiselect(language: str, label: str, options: Sequence[T], *, placeholder: str | None = None,
                **kwargs: Any) -> list[T]:
    """``st.multiselect`` with its words in ``language``: its placeholder ours (Streamlit's
    own says "Choose options", or "No options to select" with none to offer), and no
    "Select all" entry."""
    if not options:
        placeholder = t("streamlit.no_options", language)
    elif placeholder is None:
        placeholder = t("streamlit.choose_options", language)
    return st.multiselect(label, options, placeholder=placeholder, select_all=False, **kwargs)


def draw_widget_words(language: str) -> None:
    """The widgets' own words in ``language``, for every page (drawn by the shell)."""
    draw_style(widget_words_css(language))
    st.iframe(page_script(language), height=1, tab_index=-1, alt=PAGE_SCRIPT_NAME)


def file_uploader(language: str, label: str, *, types: Sequence[str], max_mb: int, key: str) -> UploadedFile | None:
    """``st.file_uploader`` with its own words in ``language``."""
    draw_style(uploader_css(language, tuple(types), max_mb))
    return st.file_uploader(label, type=list(types), max_upload_size=max_mb, key=key)
