"""A trainee's first session, as a user: add yourself with a PIN, answer a card, see it counted
and kept (signing in again after a reload and a server restart)."""

from __future__ import annotations

import re

import pytest

from tests.e2e import driver
from tests.e2e.driver import (
    add_trainee_in_sidebar,
    assert_no_exception,
    choose_language,
    docs_screenshot,
    expect_signed_in,
    expect_signed_out,
    go_to,
    main,
    metric,
    open_page,
    settle,
    sidebar,
    sign_in,
    url_param,
)

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

TRAINEE = "Aiko"
PIN = "aiko-2468"


def see_one_answer(page) -> None:
    """The Progress page of the trainee, counting one answer."""
    expect(main(page).get_by_role("heading", name="Progress", level=1)).to_be_visible()
    expect(metric(page, "Answered")).to_have_text("1")
    expect_signed_in(page, TRAINEE)
    expect(page).to_have_url(url_param("trainee", TRAINEE))
    assert_no_exception(page)


def test_first_session_answer_is_counted_kept_and_bilingual(page, server) -> None:
    # a new trainee, added from the sidebar
    open_page(page, server.url, "", title="Practice", lang="en")
    expect_signed_out(page)
    add_trainee_in_sidebar(page, TRAINEE, PIN)
    expect(page).to_have_url(url_param("trainee", TRAINEE))

    # one card answered, checked and explained
    kind = driver.answer_with_first_choices(page)
    alert = main(page).get_by_test_id("stAlertContentSuccess").or_(main(page).get_by_test_id("stAlertContentError"))
    expect(alert).to_be_visible()
    expect(driver.why_line(page)).to_have_count(1)  # one line of why under the verdict
    explanation = "What the document says" if kind != "knowledge" else "Why"
    heading = main(page).get_by_role("heading", name=explanation, exact=True)
    expect(heading).not_to_be_visible()  # folded until tapped
    settle(page)
    assert_no_exception(page)
    docs_screenshot(page, "practice")
    driver.open_details(page)
    expect(heading).to_be_visible()
    docs_screenshot(page, "practice-details")

    # counted on the Progress page
    go_to(page, "Progress", "Progress")
    see_one_answer(page)

    # kept over a reload: a new session, signed back in by the device's token, brings the
    # answer back from the database
    page.reload()
    expect(main(page).get_by_role("heading", name="Progress", level=1)).to_be_visible()
    expect_signed_in(page, TRAINEE)
    see_one_answer(page)

    # and over a server restart on the same database
    server.restart()
    page.reload()
    expect_signed_in(page, TRAINEE)  # the device's token is in the database: a restart keeps it
    see_one_answer(page)

    # the whole interface in Japanese, and back
    choose_language(page, "日本語")
    expect(main(page).get_by_role("heading", name="成績", level=1)).to_be_visible()
    navigation = page.get_by_role("navigation")
    for japanese in ("練習", "成績", "資料"):
        expect(navigation.get_by_role("link", name=japanese, exact=True)).to_be_visible()
    expect(metric(page, "回答数")).to_have_text("1")
    expect(page).to_have_url(url_param("lang", "ja"))
    settle(page)
    assert_no_exception(page)

    # back in English
    choose_language(page, "English")
    expect(main(page).get_by_role("heading", name="Progress", level=1)).to_be_visible()
    expect(navigation.get_by_role("link", name="Practice", exact=True)).to_be_visible()
    expect(page).to_have_url(url_param("lang", "en"))
    expect(page).to_have_url(re.compile(r"/progress\?"))
    see_one_answer(page)


def test_chosen_games_and_categories_survive_a_language_switch(page, server, content) -> None:
    """The sidebar's choices are kept by id, not by their (translated) labels: after a switch
    they show in the new language, and the next rerun does not drop them."""
    side = sidebar(page)

    def multiselect(label: str):
        return side.get_by_test_id("stMultiSelect").filter(has=page.get_by_role("combobox", name=label, exact=True))

    def expect_chips(box, names: list[str]) -> None:
        for name in names:
            expect(box.get_by_text(name, exact=True)).to_be_visible(timeout=5_000)

    rulesets = list(content.rulesets.values())  # in the order of the widgets' options
    first, category = rulesets[0], rulesets[0].categories[0]
    games = {lang: [r.document.short_name.get(lang) for r in rulesets] for lang in ("en", "ja")}
    chosen = {lang: f"{first.document.short_name.get(lang)} › {category.name.get(lang)}" for lang in ("en", "ja")}

    driver.seed_trainee(server.database_url, "Kenji", "kenji-1357")
    open_page(page, server.url, "", title="Practice", lang="en")
    sign_in(page, "Kenji", "kenji-1357")
    expect_chips(multiselect("Games"), games["en"])
    picked = driver.pick_option(page, side.get_by_role("combobox", name="Categories", exact=True), chosen["en"])
    assert picked == chosen["en"]
    settle(page)
    expect_chips(multiselect("Categories"), [chosen["en"]])

    choose_language(page, "日本語")
    expect(main(page).get_by_role("heading", name="練習", level=1)).to_be_visible()
    settle(page)
    expect_chips(multiselect("ゲーム"), games["ja"])
    expect_chips(multiselect("カテゴリ"), [chosen["ja"]])

    go_to(page, "資料", "資料")  # more reruns in Japanese
    go_to(page, "練習", "練習")
    expect_chips(multiselect("ゲーム"), games["ja"])
    expect_chips(multiselect("カテゴリ"), [chosen["ja"]])
    driver.expect_card(page)  # a card (its form, or a floor call's Rule), not "no cards match"
    expect(main(page).get_by_text(first.document.short_name.ja)).to_be_visible()  # from the chosen category's game
