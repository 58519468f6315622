"""Hostile text stays text: trainee names and card texts full of HTML, script, Markdown and SQL.

The names are typed into the sidebar's "New trainee" form of a real browser (and come back
through ``?trainee=NAME`` into the sign-in form), the cards come from the local content
folder (``QUIZ_CONTENT_DIR``) the way an imported pack does. Each is stored
literally (the database, the loaded content) and shown literally, and nothing in it runs:
no dialog opens, the ``window.__pwned`` flag every script payload sets stays undefined,
and no ``<script>``, ``<img>``, event handler or ``javascript:`` link of a payload is in
the DOM.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import yaml
from sqlalchemy import create_engine, inspect

from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR, load_content
from quiz.content.packs import content_dir
from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, running, sign_in_as_supervisor
from tests.e2e.driver import (
    add_trainee_in_sidebar,
    expect_signed_out,
    main,
    open_page,
    settle,
    sign_in,
    url_param,
)

driver.require_browser()
pytestmark = [pytest.mark.reliability, pytest.mark.e2e]

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

from tests.recording import record  # noqa: E402
from tests.reliability.browser_steps import (  # noqa: E402
    NOTHING_PLANTED,
    PLANTED,
    ScriptWatch,
    answer_shown_card,
    assert_inert,
    feedback,
)
from tests.scopes import EVERY_STORE  # noqa: E402

SQL = "Robert'); DROP TABLE trainees;--"
NAMES = (
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=1;alert(1)">',
    "[x](javascript:alert(1))",
    "**bold** :red[x] <b>b</b>",
    SQL,
    "<svg onload=alert(1)> `code` # not a heading",
)
SCENARIO_ID, KNOWLEDGE_ID = "rel-inert-scenario", "rel-inert-knowledge"
TITLE = "<script>window.__pwned=1</script> **bold** :red[x] [x](javascript:alert(1))"
SITUATION = (
    '<img src=x onerror="window.__pwned=1;alert(1)"> [link](javascript:alert(1)) **bold** :red[x] '
    f"{SQL} <script>alert(1)</script>"
)
K_TITLE = '<img src=x onerror="window.__pwned=1"> __under__ :blue[k]'
QUESTION = "[click](javascript:window.__pwned=1) <script>alert(1)</script> :red[x] *it*"
CHOICES = ('**bold choice** <img src=x onerror="window.__pwned=1">', ":red[x] [x](javascript:alert(1)) " + SQL)
EXPLANATION = '<iframe src="javascript:alert(1)"></iframe> ~~struck~~ $x^2$'
CARD_READER = "Card Reader"
PIN = "inert-2468"


def payload_cards() -> dict[str, str]:
    """Valid card files (ruleset folder -> YAML) whose shown texts are all payloads."""
    scenario = {
        "id": SCENARIO_ID, "kind": "scenario", "style": "exam", "ruleset": "yugioh-ocg",
        "title": {"ja": TITLE, "en": TITLE}, "situation": {"ja": SITUATION, "en": SITUATION},
        "infraction": "tardiness", "facts": {"minutes_late": 1}, "expect": {"penalty": "warning", "fixes": []},
        "difficulty": 1,
        "source": {"ja": "- 指定の集合時間に自分の席についていなかった。\n罰則：警告",
                   "en": "- Was not in their seat at the designated assembly time."},
    }
    knowledge = {
        "id": KNOWLEDGE_ID, "kind": "knowledge", "ruleset": "pokemon-card-ja",
        "title": {"ja": K_TITLE, "en": K_TITLE}, "question": {"ja": QUESTION, "en": QUESTION},
        "choices": [{"id": "a", "text": {"ja": CHOICES[0], "en": CHOICES[0]}},
                    {"id": "b", "text": {"ja": CHOICES[1], "en": CHOICES[1]}}],
        "answer": "b", "explanation": {"ja": EXPLANATION, "en": EXPLANATION},
        "source": {"ja": "※「カット」とは、デッキの上一部を取って2つの山を作り、取り分けた山をもう片方の山の下に置くことである。"
                         "3つ以上の山に分ける場合はカットではなく、切る行為（シャッフル）と見なされる。",
                   "en": "A cut makes two piles; three or more is shuffling."},
    }
    return {
        card["ruleset"]: yaml.safe_dump({"cards": [card]}, allow_unicode=True, sort_keys=False, width=1000)
        for card in (scenario, knowledge)
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    """A server whose content folder holds the payload cards, with a supervisor account."""
    server = ConfiguredServer(tmp_path_factory.mktemp("inert"))
    for ruleset, text in payload_cards().items():
        cards = server.content_dir / "payloads" / ruleset / "inert.yaml"
        cards.parent.mkdir(parents=True)
        cards.write_text(text, encoding="utf-8")
    loaded = load_content(RULESETS_DIR, [SCENARIOS_DIR, content_dir({"QUIZ_CONTENT_DIR": str(server.content_dir)})])
    assert loaded.problems == [], loaded.problems
    # stored literally: the loader keeps every payload character as written
    assert loaded.cards[SCENARIO_ID].title.en == TITLE and loaded.cards[SCENARIO_ID].situation.en == SITUATION
    assert [c.text.en for c in loaded.cards[KNOWLEDGE_ID].choices] == list(CHOICES)
    with running(server):
        yield server


@pytest.fixture
def watch(page) -> ScriptWatch:
    return ScriptWatch(page)


def mistake(trainee_id: int, card_id: str) -> AttemptRecord:
    """A wrong answer to a payload card, so it is listed under the trainee's recent mistakes."""
    knowledge = card_id == KNOWLEDGE_ID
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset="pokemon-card-ja" if knowledge else "yugioh-ocg",
        category=None if knowledge else "tardiness", card_kind="knowledge" if knowledge else "scenario",
        chosen_choice="a" if knowledge else None, correct_choice="b" if knowledge else None,
        chosen_infraction=None if knowledge else "tardiness", standard_infraction=None if knowledge else "tardiness",
        chosen_penalty=None if knowledge else "game_loss", standard_penalty=None if knowledge else "warning",
        infraction_result=None if knowledge else "correct", penalty_result=None if knowledge else "wrong",
        fixes_result=None if knowledge else "correct", correct=False, seconds=5.0,
        answered_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5),
    )


def test_hostile_trainee_names_are_stored_literally_and_shown_inert(page, watch, server) -> None:
    for name in NAMES:
        open_page(page, server.url, "", title="Practice", lang="en")
        add_trainee_in_sidebar(page, name, PIN)  # the sidebar shows the name as typed
        expect(page).to_have_url(url_param("trainee", name))
        assert_inert(page, watch)
        driver.sign_out(page)  # the device stays signed in across page loads until signed out

    store = Store(server.database_url)
    try:
        assert sorted(t.name for t in store.trainees(EVERY_STORE)) == sorted(NAMES)  # byte for byte
        for trainee in store.trainees(EVERY_STORE):
            record(store, mistake(trainee.id, SCENARIO_ID))  # the Team page lists trainees who answered
    finally:
        store.dispose()
    engine = create_engine(server.database_url)
    try:
        assert {"trainees", "attempts"} <= set(inspect(engine).get_table_names())  # no table dropped
    finally:
        engine.dispose()

    # every name back from the URL into the sign-in form, literally, and signing in with it as it is
    for name in NAMES:
        open_page(page, server.url, "", title="Practice", lang="en", trainee=name)
        expect_signed_out(page, prefilled=name)
        assert_inert(page, watch)
        sign_in(page, name, PIN, type_name=False)
        assert_inert(page, watch)
        driver.sign_out(page)

    # and on the supervisor's drill-down, where the name is part of Markdown text
    open_page(page, server.url, "team", title="Team", lang="en")
    sign_in_as_supervisor(page)
    expect(main(page).get_by_role("tab", name="One trainee")).to_be_visible()
    main(page).get_by_role("tab", name="One trainee").click()
    picker = main(page).get_by_role("combobox", name="Whose progress?")
    for name in NAMES:
        settle(page)
        driver.pick_option(page, picker, name)
        settle(page)  # the run the pick started has drawn the trainee's report
        expect(main(page).get_by_role("heading", name=f"Progress of {name}", exact=True)).to_be_visible()
        button = main(page).get_by_test_id("stDownloadButton").filter(has_text="Download the answers of")
        label = button.get_by_test_id("stMarkdownContainer")  # the label, beside the icon
        expect(label).to_have_text(f"Download the answers of {name} (CSV)", use_inner_text=True)
        assert_inert(page, watch)
    driver.assert_no_exception(page)


def test_hostile_card_texts_are_shown_literally_and_inert(page, watch, server) -> None:
    reader = driver.seed_trainee(server.database_url, CARD_READER, PIN)
    store = Store(server.database_url)
    try:
        for card_id in (SCENARIO_ID, KNOWLEDGE_ID):
            record(store, mistake(reader.id, card_id))
    finally:
        store.dispose()

    # the two payload cards are the trainee's mistakes: practising them deals exactly those
    open_page(page, server.url, "progress", title="Progress", lang="en")
    sign_in(page, CARD_READER, PIN)
    main(page).get_by_role("button", name="Practise these cards (2)").first.click()
    expect(main(page).get_by_role("heading", name="Practice", level=1)).to_be_visible()
    seen = set()
    for _ in range(2):
        form = main(page).get_by_test_id("stForm")
        penalty = form.get_by_role("radiogroup", name="Penalty", exact=True)
        expect(penalty.or_(form.get_by_role("radiogroup", name="Your answer", exact=True)).first).to_be_visible()
        settle(page)
        if penalty.count():  # a scenario (not by its Infraction box: a page's first selectbox comes later)
            seen.add(SCENARIO_ID)
            expect(main(page).get_by_text(SITUATION, exact=True)).to_be_visible()
        else:
            seen.add(KNOWLEDGE_ID)
            expect(main(page).get_by_text(QUESTION, exact=True)).to_be_visible()
            for choice in CHOICES:
                expect(form.get_by_text(choice, exact=True)).to_be_visible()
        assert_inert(page, watch)
        kind = answer_shown_card(page)
        expect(feedback(page)).to_be_visible()
        title = K_TITLE if kind == "knowledge" else TITLE  # the card's title, once answered
        expect(main(page).get_by_role("heading", name=title, exact=True)).to_be_visible()
        if kind == "knowledge":
            expect(driver.why_line(page)).to_contain_text(EXPLANATION)  # its first sentence, inert, under the verdict
            driver.open_details(page)  # the whole explanation is folded below
            expect(main(page).get_by_text(EXPLANATION, exact=True)).to_be_visible()
            expect(main(page).get_by_text(f"Not quite. The answer is: {CHOICES[1]}", exact=True)).to_be_visible()
        assert_inert(page, watch)
        main(page).get_by_role("button", name=driver.label("Next card")).click()
        settle(page)
    assert seen == {SCENARIO_ID, KNOWLEDGE_ID}

    store = Store(server.database_url)
    try:
        answers = store.attempts(store.find_trainee(CARD_READER).id)
    finally:
        store.dispose()
    assert sorted(answers["card_id"]) == sorted([SCENARIO_ID, KNOWLEDGE_ID] * 2)  # the 2 seeded, the 2 given
    driver.assert_no_exception(page)


def test_the_checks_catch_a_payload_that_does_run(page, watch) -> None:
    """The checks above are not vacuous: the same payloads, rendered as HTML, are caught."""
    page.set_content(f"<p>{NAMES[0]}{NAMES[1]}<a href='javascript:alert(1)'>x</a>{QUESTION}</p>")
    page.wait_for_function("() => window.__pwned === 1 && document.querySelector('img').complete")
    planted = page.evaluate(PLANTED)
    assert planted["pwned"] == "number" and planted["images"] >= 1 and planted["scripts"] >= 1
    assert planted["handlers"] >= 1 and planted["javascript_links"] >= 1 and planted != NOTHING_PLANTED
    assert watch.dialogs and set(watch.dialogs) == {"alert: 1"}  # alert(1) of the script and of onerror
