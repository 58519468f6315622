"""Assignments on screen: a store's supervisor makes one for the whole store and sees who is
done, with the PDF; another store's supervisor sees none of it; a trainee sees "your
assignments" first on Practice, and its buttons start the exam or a round of its cards."""

from __future__ import annotations

from datetime import timedelta

import pytest

from quiz.access.stores import create_store, make_join_code, redeem
from quiz.access.supervisors import create_account, credential_version
from quiz.db import assignments as stored
from quiz.db.exams import hand_in, open_exam, save_exam_answer, start_exam
from quiz.model.attempt import utc_now
from quiz.report.assignments import FONT_ENV
from quiz.training.assignments import Plan, plan_cards
from quiz.training.exams import ExamSpec
from quiz.ui.supervisor_gate import ACCOUNT_KEY
from tests.db.test_assignments import answer

PAGE = "quiz/ui/pages/assignments.py"
STAFF = ("Aiko", "Ben", "Chika")
PASSWORD = "correct horse battery"


@pytest.fixture
def shops(store):
    """Shop A (owner and three staff, joined by a join code) and Shop B (owner, nobody)."""
    a = create_store(store, "Shop A", None)
    b = create_store(store, "Shop B", None)
    owner_a = create_account(store, "Owner A", PASSWORD, "supervisor", a.id, None)
    owner_b = create_account(store, "Owner B", PASSWORD, "supervisor", b.id, None)
    code = make_join_code(store, owner_a, a.id)
    for name in STAFF:
        redeem(store, store.trainee(name).id, code.code)
    return owner_a, owner_b


def as_supervisor(open_app, store, supervisor, lang: str = "en"):
    """The Assignments page, signed in as ``supervisor`` (signing in is ``test_team``'s)."""
    at = open_app(trainee=None, lang=lang)
    at.session_state[ACCOUNT_KEY] = (supervisor, credential_version(store, supervisor.id))
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def test_an_owner_assigns_an_exam_to_the_whole_store_and_sees_who_is_done(open_app, store, shops):
    owner_a, _ = shops
    at = as_supervisor(open_app, store, owner_a)
    assert "No assignments yet" in at.info[0].value
    at.text_input(key="assignment-title").input("Onboarding: the 20-question exam")
    at.selectbox(key="assignment-exam").select("ygo-20")
    next(b for b in at.button if b.label == "Assign").click().run()
    assert not at.exception, at.exception
    assert at.success[0].value == "Assigned to 3 people."
    [made] = stored.store_assignments(store, owner_a.scope())
    assert made.plan == Plan(exam="ygo-20") and made.due.weekday() in (4, 5)  # Friday's end, in the viewer's zone
    at.run()
    table = at.dataframe[0].value
    assert list(table["Trainee"]) == list(STAFF) and set(table["Status"]) == {"Not started"}
    aiko = store.find_trainee("Aiko")
    exam = start_exam(store, aiko.id, "ygo-20", ExamSpec(1, 30, 100, ("yugioh-ocg",)), ("ygo-x",), (0,), utc_now())
    save_exam_answer(store, answer(aiko.id, "ygo-x", True, utc_now(), exam.id), utc_now())
    hand_in(store, exam.id, utc_now())
    at.run()
    table = at.dataframe[0].value
    assert list(table["Status"]) == ["Done", "Not started", "Not started"]
    assert "1 of 3 done · 0 late" in [m.value for m in at.markdown]
    [pdf] = at.get("download_button")
    assert pdf.proto.label == "Completion record (PDF)"


def test_a_plan_with_nothing_to_do_is_refused_in_words(open_app, store, shops):
    at = as_supervisor(open_app, store, shops[0])
    at.text_input(key="assignment-title").input("Nothing")
    next(b for b in at.button if b.label == "Assign").click().run()
    assert at.error[0].value == "Choose categories to practise or an exam to pass."
    assert stored.store_assignments(store, shops[0].scope()) == []


def test_another_stores_owner_sees_neither_the_assignment_nor_the_staff(open_app, store, shops):
    owner_a, owner_b = shops
    stored.create_assignment(store, owner_a.scope(), "Shop A only", Plan(exam="ygo-20"),
                             utc_now() + timedelta(days=2), utc_now())
    at = as_supervisor(open_app, store, owner_b)
    shown = [e.value for e in [*at.main.subheader, *at.main.markdown, *at.main.caption, *at.main.info]]
    assert not any("Shop A only" in text for text in shown) and not at.dataframe
    assert any(text.startswith("Nobody has joined the store yet") for text in shown)


def test_the_page_in_japanese(open_app, store, shops):
    stored.create_assignment(store, shops[0].scope(), "新人研修", Plan(exam="ygo-20"), utc_now() + timedelta(days=2),
                             utc_now())
    at = as_supervisor(open_app, store, shops[0], lang="ja")
    assert at.title[0].value == "課題" and list(at.dataframe[0].value.columns) == ["受講者", "状況", "進捗", "完了日時"]
    assert set(at.dataframe[0].value["状況"]) == {"未着手"}


def test_a_trainee_sees_their_assignments_first_and_the_button_starts_the_exam(open_app, store, shops):
    stored.create_assignment(store, shops[0].scope(), "Pass the exam", Plan(exam="ygo-20"),
                             utc_now() + timedelta(days=2), utc_now())
    at = open_app("Aiko")
    assert at.main.subheader[0].value == "Your assignments" and "**Pass the exam**" in [m.value for m in at.markdown]
    [progress] = at.get("progress")
    assert progress.proto.value == 0 and progress.proto.text.endswith("· 0% done")
    at.button(key=next(b.key for b in at.button if b.label == "Take the exam")).click().run()
    assert not at.exception, at.exception
    running = open_exam(store, store.find_trainee("Aiko").id, utc_now())
    assert running is not None and running.preset == "ygo-20"


def test_the_practise_button_starts_a_round_of_the_plans_cards(open_app, store, shops, content):
    plan = Plan(categories=("yugioh-ocg/tardiness",), mastery=50)
    stored.create_assignment(store, shops[0].scope(), "Tardiness", plan, utc_now() + timedelta(days=2), utc_now())
    at = open_app("Ben")
    next(b for b in at.button if b.label == "Practise").click().run()
    assert not at.exception, at.exception
    cards = plan_cards(content, plan)
    assert at.session_state["practice_round"] == list(cards)
    assert f"Practising {len(cards)} cards of an assignment." in [c.value for c in at.caption]


def test_a_trainee_without_assignments_sees_no_box(open_app, store, shops):
    at = open_app("Dan")  # in no store
    assert "Your assignments" not in [s.value for s in at.subheader]


def test_chosen_staff_get_a_card_set_to_practise_and_an_archived_assignment_leaves_the_list(
        open_app, store, shops, content):
    owner_a, _ = shops
    at = as_supervisor(open_app, store, owner_a)
    staff = {t.name: t.id for t in store.trainees(owner_a.scope())}
    cards = list(plan_cards(content, Plan(categories=("yugioh-ocg/tardiness",))))[:3]
    at.text_input(key="assignment-title").input("Three cards")
    at.multiselect(key="assignment-staff").set_value([staff["Ben"]])
    at.multiselect(key="assignment-cards").set_value(cards)
    at.number_input(key="assignment-mastery").set_value(100)
    next(b for b in at.button if b.label == "Assign").click().run()
    assert at.success[0].value == "Assigned to 1 person."
    [made] = stored.store_assignments(store, owner_a.scope())
    assert made.plan == Plan(cards=tuple(cards), mastery=100)
    assert [m.name for m in stored.standings(store, content, made, utc_now())] == ["Ben"]
    at.run()
    next(b for b in at.button if b.label == "Archive").click().run()
    assert stored.store_assignments(store, owner_a.scope()) == [] and not at.dataframe


def test_without_a_japanese_font_the_page_says_so_instead_of_a_pdf(open_app, store, shops, monkeypatch, tmp_path):
    monkeypatch.setenv(FONT_ENV, str(tmp_path / "no-font.ttc"))
    stored.create_assignment(store, shops[0].scope(), "x", Plan(exam="ygo-20"), utc_now() + timedelta(days=2),
                             utc_now())
    at = as_supervisor(open_app, store, shops[0])
    assert not at.get("download_button")
    assert at.warning[0].value.startswith("The PDF needs a Japanese font")


def test_practising_moves_the_assignment_at_once_and_finishing_says_so(open_app, store, shops, content):
    """Each right answer shows in "your assignments" in the run that grades it (the card runs
    in a fragment: the panel above it was drawn before the answer), and finishing says so."""
    from tests.ui.answering import fill, practice_showing, right_answer

    cards = plan_cards(content, Plan(categories=("yugioh-ocg/tardiness",)))[:2]
    stored.create_assignment(store, shops[0].scope(), "Two cards", Plan(cards=tuple(cards), mastery=100),
                             utc_now() + timedelta(days=2), utc_now())
    at = open_app("Ben")
    next(b for b in at.button if b.label == "Practise").click().run()
    for percent in (50, 100):
        card = content.cards[at.session_state["practice"].card]
        fill(at, card, right_answer(content, card, practice_showing(at, card)))
        assert not at.exception, at.exception
        if percent < 100:
            [progress] = at.get("progress")
            assert progress.proto.text.endswith(f"· {percent}% done"), progress.proto.text
            next(b for b in at.button if b.label == "Next card").click().run()
    assert not at.get("progress")
    assert "Two cards is done: well done!" in [s.value for s in at.success]


def test_a_new_assignment_shows_its_size_as_it_is_chosen(open_app, store, shops, content):
    """Categories at a mastery level and an exam: how many cards, how many to master, how many
    questions, before Assign (its own button), with the assignment made, and in the list."""
    plan = Plan(categories=("yugioh-ocg/tardiness",), mastery=80, exam="ygo-20")
    cards = len(plan_cards(content, plan))
    needed = -(-cards * 80 // 100)
    size = f"Size: {cards} cards to practise, {needed} of them to master + an exam of 20 questions"
    at = as_supervisor(open_app, store, shops[0])
    at.text_input(key="assignment-title").input("Basic")
    at.multiselect(key="assignment-categories").set_value(["yugioh-ocg/tardiness"])
    at.number_input(key="assignment-mastery").set_value(80)
    at.selectbox(key="assignment-exam").select("ygo-20")
    next(b for b in at.button if b.label == "Show its size").click().run()
    assert size in [i.value for i in at.info] and not stored.store_assignments(store, shops[0].scope())
    next(b for b in at.button if b.label == "Assign").click().run()
    assert at.success[0].value == "Assigned to 3 people." and size in [i.value for i in at.info]
    at.run()
    assert size in [c.value for c in at.caption]
