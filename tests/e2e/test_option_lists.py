"""On a phone an option list shows each option whole: long names (a game, a category, an
infraction: "遊戯王OCG · 裏の状態で区別のつくカードの使用") wrap inside the list instead of
running out of it (``quiz.ui.streamlit_internals.words.OPTION_TEXT``)."""

from __future__ import annotations

import pytest

from quiz.model.words import t
from tests.e2e import driver
from tests.e2e.driver import main, settle

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

PIN = "list-2468"
# Each option's text against the list's box and its own: what runs out of either (empty: none).
CUT = """() => {
  const list = document.querySelector('[role="listbox"]').getBoundingClientRect(), cut = [];
  for (const option of document.querySelectorAll('[role="listbox"] [role="option"]')) {
    const text = option.firstElementChild, box = option.getBoundingClientRect();
    const range = document.createRange(); range.selectNodeContents(text);
    const words = range.getBoundingClientRect();
    if (words.right > list.right + 1 || words.right > box.right + 1 || words.bottom > box.bottom + 1
        || text.scrollWidth > text.clientWidth + 1) { cut.push(text.innerText); }
  }
  return cut;
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_option_of_a_long_list_is_shown_whole_on_a_phone(new_page, server, lang: str) -> None:
    page = driver.phone_signed_in(new_page, server, f"Lists {lang}", PIN, lang, "exam")
    settle(page)
    box = main(page).get_by_role("combobox", name=t("exam.custom_categories", lang), exact=True)
    box.scroll_into_view_if_needed()
    driver.open_list(page, box, page.get_by_role("option").first)
    settle(page)
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    names = options.all_inner_texts()
    assert max(len(name) for name in names) > 20, names  # long names among them
    assert page.evaluate(CUT) == []
