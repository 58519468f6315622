"""Touch targets on a phone (390x844, touch): every control a trainee uses is at least 44x44
px (WCAG 2.5.5; axe's own target-size rule asks 24 px): on Practice a floor call (its pool's
buttons, the investigation's steps, Rule) and its ruling form (the findings' buttons, the
infraction's box, a fix's chip and its remove button, the penalty's radio rows, help icons,
Check), the feedback (Next card); the sidebar's controls; Mock exam before and during an exam;
Progress. Measured by each control's bounding box (a radio's row by its label, the part a
finger taps)."""

from __future__ import annotations

import pytest

from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.driver import PHONE, close_sidebar, main, open_page, open_sidebar, settle, sidebar

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

LEAST = 44  # px, each side of a touch target
NAME, PIN = "Touch Targets", "touch-24680"
# The boxes of the controls shown in ``root`` (visible, not disabled) that are smaller than
# LEAST on a side, each with what it is. A control is a button, a link outside running text, a
# tab, a summary, a text, number or list box, a segmented control's or a radio's choice (the
# radio's label: its input is hidden), a chip's remove button, a help icon.
SMALL_TARGETS = """([root, least]) => {
    const CONTROLS = 'button, [role="button"], a[href], summary, [role="tab"], [role="radio"], [role="checkbox"],'
        + ' [role="switch"], [role="combobox"], input, textarea';
    const small = [], seen = new Set();
    for (const control of root.querySelectorAll(CONTROLS)) {
        if (control.closest('[inert], [aria-hidden="true"]') || control.disabled) continue;
        if (control.matches('a[href]') && control.closest('p, li')) continue;  // a link in running text
        const input = control.matches('input[type="radio"], input[type="checkbox"]');
        let target = input || control.matches('[role="radio"]:not(button)') ? control.closest('label') || control : control;
        if (control.matches('input[role="combobox"]')) {  // a list's typing area: the list's box is tapped
            target = control.closest('[role="group"]') || control;
        }
        if (seen.has(target) || !target.checkVisibility({visibilityProperty: true, opacityProperty: !input})) continue;
        seen.add(target);
        const box = target.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.width < least - 0.5 || box.height < least - 0.5) {
            const name = (target.getAttribute('aria-label') || target.innerText || target.getAttribute('data-testid')
                          || target.tagName).trim().replace(/\\s+/g, ' ').slice(0, 40);
            small.push(`${target.tagName.toLowerCase()} "${name}": ${Math.round(box.width)}x${Math.round(box.height)}`);
        }
    }
    return small;
}"""


# Resolves once the touch screen's rules are on the page (the shell draws them with every full
# run: a page measured before they arrive has Streamlit's own sizes) and the boxes of the
# controls in ``root`` have stayed the same for two animation frames (a sidebar opening or a
# list reflowing is measured when it has come to rest, not on its way).
LAID_OUT = """([root, least]) => new Promise(done => {
    const ruled = () => [...document.querySelectorAll('style')].some(s => s.textContent.includes(`min-height: ${least}px`));
    const boxes = () => [...root.querySelectorAll('button, label, summary, input, [role="tab"]')]
        .map(el => { const b = el.getBoundingClientRect(); return `${b.x},${b.y},${b.width},${b.height}`; }).join(';');
    let last = null, still = 0;
    const look = () => {
        const now = ruled() ? boxes() : null;
        still = now !== null && now === last ? still + 1 : 0;
        last = now;
        if (still >= 2) done(true); else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
})"""


def small_targets(page, where: str, root_test_id: str = "stMain") -> list[str]:
    settle(page)
    root = page.get_by_test_id(root_test_id)
    root.evaluate(f"(el) => ({LAID_OUT})([el, {LEAST}])")
    return [f"{where}: {found}" for found in root.evaluate(f"(el) => ({SMALL_TARGETS})([el, {LEAST}])")]


def a_fix_chosen(page) -> None:
    """A fix chosen in the ruling form's fix list (when it has one): its chip and remove button show."""
    fixes = main(page).get_by_test_id("stForm").get_by_role("combobox", name="Fix", exact=True)
    if fixes.count():
        driver.pick_option(page, fixes)


@pytest.mark.parametrize("lang", ["en"])
def test_every_control_a_trainee_uses_is_44_px_on_a_phone(new_page, server, lang: str) -> None:
    driver.seed_trainee(server.database_url, NAME, PIN)
    page = new_page(PHONE, "en-US", phone=True)
    open_page(page, server.url, "", lang=lang)
    small = small_targets(page, "signed out, sidebar", "stSidebar")
    driver.sign_in(page, NAME, PIN, lang)
    open_sidebar(page)
    small += small_targets(page, "sidebar", "stSidebar")
    close_sidebar(page)
    # Practice: a floor call, investigated a step, then ruled
    main(page).get_by_role("radio", name=t("practice.pool.floor_calls", lang), exact=True).click()
    expect(driver.rule_button(page)).to_be_visible()
    small += small_targets(page, "practice, a floor call")
    driver.open_ruling(page)
    driver.answer_findings(main(page).get_by_test_id("stForm"))
    a_fix_chosen(page)
    small += small_targets(page, "practice, the ruling form")
    driver.answer_with_first_choices(page)
    expect(main(page).get_by_role("button", name=driver.label("Next card"))).to_be_visible()
    small += small_targets(page, "practice, the feedback")
    # Mock exam: its choices, then a question of an exam begun
    open_sidebar(page)
    sidebar(page).get_by_test_id("stSidebarNavLink").filter(has_text=t("exam.nav", lang)).click()
    close_sidebar(page)
    small += small_targets(page, "exam, before")
    box = main(page).get_by_label(t("exam.custom_questions", lang), exact=True)
    box.fill("2")
    box.press("Enter")
    settle(page)
    main(page).get_by_test_id("stBaseButton-primary").filter(has_text=t("exam.start", lang)).last.click()
    expect(main(page).get_by_text(t("exam.question", lang, n=1, total=2), exact=True)).to_be_visible()
    driver.open_ruling(page)
    small += small_targets(page, "exam, a question")
    # Progress
    open_sidebar(page)
    sidebar(page).get_by_test_id("stSidebarNavLink").filter(has_text=t("nav.progress", lang)).click()
    close_sidebar(page)
    small += small_targets(page, "progress")
    assert not small, "\n".join(small)
