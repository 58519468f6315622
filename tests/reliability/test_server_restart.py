"""The server restarts in the middle of a session: the history is kept and the exam resumes.

A trainee answers a practice card and the first question of a mock exam, then the
Streamlit server is stopped and started again on the same database (every session's state
is gone with the old process). After a reload the device's token, kept in the database,
signs the trainee back in; the Progress page shows the same figures, and the exam is offered
for resuming, with the answered question still answered.
"""

from __future__ import annotations

import re

import pytest

from quiz.db import exams as exam_store
from quiz.db.store import Store
from quiz.model.attempt import utc_now
from tests.e2e import driver
from tests.e2e.configured_server import module_server
from tests.e2e.driver import go_to, main, metric, open_page, settle
from tests.e2e.server import AppServer

driver.require_browser()
pytestmark = [pytest.mark.reliability, pytest.mark.e2e, pytest.mark.timed]

from playwright.sync_api import expect  # noqa: E402 - only once the browser is known to be there

from tests.reliability.browser_steps import answer_shown_card, feedback  # noqa: E402

TRAINEE = "Restart Rei"
PIN = "restart-2468"
QUESTIONS = 3


server = module_server("restart")


def stored(server: AppServer) -> tuple[list[str], list[int]]:
    """The modes of the trainee's stored answers, and the ids of the exam answers' exams."""
    store = Store(server.database_url)
    try:
        rows = store.attempts(store.find_trainee(TRAINEE).id)
    finally:
        store.dispose()
    return list(rows["mode"]), [int(e) for e in rows["exam_id"].dropna()]


def progress_figures(page) -> dict[str, str]:
    expect(metric(page, "Answered")).not_to_have_text("0")
    return {label: metric(page, label).inner_text() for label in ("Answered", "Accuracy")}


def test_a_restart_mid_session_keeps_the_history_and_the_open_exam(page, server) -> None:
    # a practice answer
    driver.seed_trainee(server.database_url, TRAINEE, PIN)
    open_page(page, server.url, "", title="Practice", lang="en")
    driver.sign_in(page, TRAINEE, PIN)
    answer_shown_card(page)
    expect(feedback(page)).to_be_visible()

    # a custom exam of three questions, the first one answered
    go_to(page, "Mock exam", "Mock exam")
    questions = main(page).get_by_label("Questions", exact=True)
    questions.fill(str(QUESTIONS))
    questions.press("Enter")
    expect(main(page).get_by_text(re.compile(r"^\d+ cards to draw from\.$"))).to_be_visible()
    settle(page)
    main(page).get_by_test_id("stBaseButton-primary").filter(has_text="Start this exam").last.click()
    expect(main(page).get_by_text(f"Question 1 of {QUESTIONS}", exact=True)).to_be_visible()
    settle(page)
    answer_shown_card(page, button="Save answer")
    expect(main(page).get_by_text(f"1 of {QUESTIONS} answered", exact=True)).to_be_visible()
    saved = main(page).get_by_text(re.compile(r"^Saved: .+ You can change it until you hand in"))
    expect(saved).to_be_visible()
    saved_text = saved.inner_text()
    modes, exam_ids = stored(server)
    assert sorted(modes) == ["exam", "practice"]
    [exam_id] = exam_ids

    go_to(page, "Progress", "Progress")
    before = progress_figures(page)
    assert before["Answered"] == "2"  # the practice answer and the exam answer

    # the server goes away and comes back on the same database
    old_pid = server.process.pid if server.process else None
    server.restart()
    assert server.process is not None and server.process.pid != old_pid

    page.reload()
    expect(main(page).get_by_role("heading", name="Progress", level=1)).to_be_visible()
    driver.expect_signed_in(page, TRAINEE)  # a new session, signed back in by the device's token (in the database)
    assert progress_figures(page) == before

    # the exam is still open and is offered for resuming where it was
    go_to(page, "Mock exam", "Mock exam")
    offer = re.compile(rf"You have an exam in progress: Custom exam — 1 of {QUESTIONS} answered")
    expect(main(page).get_by_text(offer)).to_be_visible()
    settle(page)
    main(page).get_by_role("button", name="Resume").click()
    expect(main(page).get_by_text(f"Question 2 of {QUESTIONS}", exact=True)).to_be_visible()
    expect(main(page).get_by_text(f"1 of {QUESTIONS} answered", exact=True)).to_be_visible()

    # the answered question stays answered: its saved answer shown, with a form to change it
    settle(page)
    main(page).get_by_role("button", name="Previous").click()
    expect(main(page).get_by_text(f"Question 1 of {QUESTIONS}", exact=True)).to_be_visible()
    expect(main(page).get_by_text(saved_text, exact=True)).to_be_visible()
    expect(main(page).get_by_test_id("stForm").get_by_role("button", name=driver.label("Save the change"))).to_be_visible()
    driver.assert_no_exception(page)

    store = Store(server.database_url)
    try:
        exam = exam_store.open_exam(store, store.find_trainee(TRAINEE).id, utc_now())
        assert exam is not None and exam.id == exam_id
        assert len(exam_store.exam_answers(store, exam_id)) == 1
    finally:
        store.dispose()
    assert stored(server) == (modes, exam_ids)  # nothing lost, nothing doubled
