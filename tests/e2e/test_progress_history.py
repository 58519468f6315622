"""The Progress page of a trainee with six weeks of practice, as a real trainee's looks:
figures, a streak, the charts and the mistakes, in a real browser (and the README's picture);
and the Team page of a store whose staff have practised for six weeks (the README's too).

The history is graded by the app's own answer path (``answer_card``) on real cards of both
games, the trainee getting better week by week and erring more often on the lenient side.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from quiz.content.loader import Content
from quiz.db.goals import set_daily_goal
from quiz.db.store import Store
from quiz.db.time_zones import set_time_zone
from quiz.model.attempt import utc_now
from quiz.model.cards import FloorCallCard, JudgementCallCard, KnowledgeCard, ScenarioCard
from quiz.training.answer_outcomes import verdict_for
from quiz.training.given_answer import GivenAnswer
from quiz.training.grading import ScenarioAnswer
from quiz.training.kinds import answer_card
from tests.e2e import driver
from tests.e2e.configured_server import ConfiguredServer, running, sign_in_as_supervisor
from tests.e2e.driver import assert_no_exception, main, metric, open_page, settle
from tests.recording import record
from tests.shipped_content import shipped_content

driver.require_browser()
pytestmark = pytest.mark.e2e

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

CONTENT = shipped_content()
TRAINEE, PIN = "Sora Kimura", "sora-2468"
DAYS = 42
SKIPPED = {9, 10, 23}  # days ago without practice: the current streak is the last 9 days
STAFF = ("Aoi Tanaka", "Ren Suzuki", "Mei Ito", "Kaito Watanabe")  # a store's staff, each with a history


def history(store: Store, content: Content, trainee_id: int, rng: random.Random) -> int:
    """Six weeks of answers (none on the SKIPPED days); the number stored."""
    # the cards answered as a scenario (an investigation left out) or a choice: the same list,
    # and so the same seeded six weeks, as before floor calls were shipped
    cards = [c for c in content.cards.values() if not isinstance(c, (JudgementCallCard, FloorCallCard))]
    today = utc_now().replace(hour=12, minute=0, second=0, microsecond=0)
    stored = 0
    for days_ago in range(DAYS, -1, -1):
        if days_ago in SKIPPED:
            continue
        skill = 0.45 + 0.45 * (DAYS - days_ago) / DAYS  # 45 % six weeks ago, 90 % today
        for n in range(rng.randint(6, 18)):
            card = rng.choice(cards)
            outcome = answer_card(content, GivenAnswer(card, _answer(content, card, skill, rng), trainee_id,
                                                       rng.uniform(8, 60)))
            when = today - dt.timedelta(days=days_ago, minutes=10 * n)
            record(store, replace(outcome.record, answered_at=when))
            stored += 1
    return stored


def _answer(content: Content, card, skill: float, rng: random.Random) -> ScenarioAnswer | str:
    if isinstance(card, KnowledgeCard):
        wrong = [c.id for c in card.choices if c.id != card.answer]
        return card.answer if rng.random() < skill else rng.choice(wrong)
    assert isinstance(card, ScenarioCard)
    verdict = verdict_for(content, card)
    if rng.random() < skill:
        return ScenarioAnswer(verdict.infraction, verdict.penalty, verdict.fixes, verdict.players)
    ladder = [p.id for p in content.rulesets[card.ruleset].ladder]
    rank = ladder.index(verdict.penalty)
    step = -1 if rng.random() < 0.7 and rank > 0 else 1  # more often too lenient
    penalty = ladder[min(max(rank + step, 0), len(ladder) - 1)]
    return ScenarioAnswer(verdict.infraction, penalty, verdict.fixes, verdict.players)


def test_six_weeks_of_practice_on_the_progress_page(page, server) -> None:
    trainee = driver.seed_trainee(server.database_url, TRAINEE, PIN)
    store = Store(server.database_url)
    try:
        set_time_zone(store, trainee.id, "UTC")
        set_daily_goal(store, trainee.id, 1)  # a streak counts days of any practice (the default goal is ten cards)
        stored = history(store, CONTENT, trainee.id, random.Random(42))
    finally:
        store.dispose()

    open_page(page, server.url, "progress", title="Progress", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    expect(metric(page, "Answered")).to_have_text(str(stored))
    expect(metric(page, "Current streak")).to_have_text("9 days")
    expect(metric(page, "Longest streak")).to_have_text("19 days")  # 42 to 24 days ago
    charts = main(page).get_by_test_id("stVegaLiteChart")
    expect(charts.first).to_be_visible()
    # over time, by part, by game, by category, confusion, leniency: the charts are drawn one
    # after another (CI once counted 1 right after the first showed), so wait for the fifth
    expect(charts.nth(4)).to_be_attached()
    expect(main(page).get_by_role("heading", name="Recent mistakes")).to_be_visible()
    settle(page)
    assert_no_exception(page)
    driver.docs_screenshot(page, "progress")


@pytest.fixture(scope="module")
def team_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConfiguredServer]:
    """A server with a supervisor password, for the Team page."""
    with running(ConfiguredServer(tmp_path_factory.mktemp("e2e-team-history"))) as server:
        yield server


def test_six_weeks_of_a_store_s_staff_on_the_team_page(page, team_server) -> None:
    store = Store(team_server.database_url)
    try:
        answered = {}
        for seed, name in enumerate(STAFF):
            trainee = store.trainee(name)
            answered[name] = history(store, CONTENT, trainee.id, random.Random(seed))
    finally:
        store.dispose()

    open_page(page, team_server.url, "team", title="Team", lang="en")
    sign_in_as_supervisor(page)
    expect(main(page).get_by_test_id("stDataFrame").first).to_be_visible()
    settle(page)
    main(page).get_by_role("tab", name="One trainee").click()
    picker = main(page).get_by_role("combobox", name="Whose progress?")
    driver.pick_option(page, picker, STAFF[1])
    settle(page)
    expect(main(page).get_by_role("heading", name=f"Progress of {STAFF[1]}")).to_be_visible()
    expect(metric(page, "Answered")).to_have_text(str(answered[STAFF[1]]))  # every answer of theirs, and theirs only
    settle(page)
    assert_no_exception(page)
    driver.docs_screenshot(page, "team")
