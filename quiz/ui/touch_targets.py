"""Touch targets of at least 44x44 px on a touch screen (WCAG 2.5.5): Streamlit draws radio
rows 22 px tall, help icons 16 px, a chip's remove button 15x7 px, buttons 40 px and text
boxes 36 px. These rules make every control a trainee taps that large where the pointer is a
finger, and leave a desktop's layout as it is.

The rules are part of the page's style sheet, drawn with every full run
(``quiz.ui.streamlit_internals.words.widget_words_css``, inside its touch-screen media query); the browser
test ``tests/e2e/test_touch_targets.py`` measures the controls on a phone. CSS only: nothing of
the content or of a user's text is in it."""

LEAST = "44px"  # each side of a touch target
APP = '[data-testid="stApp"]'

_RULES = (
    # every button (a chip's remove button, a help icon, a number box's steps, a list's arrow
    # included), a tab and an expander's header
    f"{APP} button, {APP} [role='tab'], {APP} summary {{min-width: {LEAST}; min-height: {LEAST}}}",
    # a radio's or a check box's row: the whole row is what a finger taps
    f"{APP} [data-testid='stRadio'] label, {APP} [data-testid='stCheckbox'] label"
    f" {{min-height: {LEAST}; align-items: center}}",
    # text, number and date boxes, and the box of a list (its typing area is smaller inside it)
    f"{APP} input[type='text'], {APP} input[type='password'], {APP} input[type='number'], {APP} textarea,"
    f" {APP} [data-rac][role='group'] {{min-height: {LEAST}}}",
    # a table's or chart's toolbar (search, download, full screen) sits above its element, where
    # with buttons of that size it covered what is above (a tab list's tabs): room kept for it
    f"{APP} :has(> [data-testid='stElementToolbar']) {{margin-top: {LEAST}}}",
)
TOUCH_TARGETS_CSS = " ".join(_RULES)
