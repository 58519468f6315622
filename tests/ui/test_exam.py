"""The mock exam page: start, answer without feedback, hand in, resume, run out of time."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from quiz.db.exam_flags import flagged
from quiz.db.exams import exam_answers, get_exam, start_exam
from quiz.db.time_zones import set_time_zone
from quiz.model.attempt import utc_now
from quiz.model.cards import ScenarioCard
from quiz.rules.variants import show_card
from quiz.training.exams import ExamSpec
from quiz.training.pools import card_pool
from quiz.ui.markdown import escape_markdown
from tests.shipped_content import shipped_content
from tests.ui import answering, seeding

CONTENT = shipped_content()
PAGE = "quiz/ui/pages/exam.py"
TARDINESS = "yugioh-ocg/tardiness"


def shown_title(exam, index: int) -> str:
    """The English title of the exam's question as shown (a variant card's with its drawn values)."""
    card = CONTENT.cards[exam.card_ids[index]]
    if isinstance(card, ScenarioCard):
        return show_card(card, exam.seeds[index]).title.en
    return card.title.en


def shown_situation(exam, index: int) -> str:
    """The English situation (or question) of the exam's question as shown."""
    card = CONTENT.cards[exam.card_ids[index]]
    if isinstance(card, ScenarioCard):
        return show_card(card, exam.seeds[index]).situation.en
    return card.question.en if hasattr(card, "question") else card.situation.en


def start_custom(at, questions: int = 2, category: str = TARDINESS):
    """Start a custom exam of ``questions`` Yu-Gi-Oh! cards of one category."""
    next(n for n in at.number_input if n.label == "Questions").set_value(questions)
    at.multiselect(key="exam-custom-games").set_value(["yugioh-ocg"])
    at.multiselect(key="exam-custom-categories").set_value([category])
    at.button(key="exam-start-custom").click().run()
    assert not at.exception, at.exception


def shown_card(at, store):
    exam = get_exam(store, at.session_state["mock_exam"].exam_id)
    return exam, CONTENT.cards[exam.card_ids[at.session_state["mock_exam"].index]]


def answer_right(at, store, button: str = "Save answer"):
    """Answer the question on screen right, judged on the facts of the showing the exam drew for it."""
    exam, card = shown_card(at, store)
    index = exam.card_ids.index(card.id)
    showing = show_card(card, exam.seeds[index]) if isinstance(card, ScenarioCard) else None
    answering.fill(at, card, answering.right_answer(CONTENT, card, showing), button=button)
    assert not at.exception, at.exception


def handed_in_half_right(open_app, store):
    """A two-question custom exam, the first answered right, the second not, handed in: the page and the exam."""
    at = open_app(page=PAGE)
    start_custom(at)
    exam, _ = shown_card(at, store)
    answer_right(at, store)
    hand_in_confirmed(at)
    return at, exam


def go_next(at):
    at.button(key="exam-next").click().run()
    assert not at.exception, at.exception


def hand_in_confirmed(at):
    """Press Hand in, and confirm when asked (questions unanswered or flagged)."""
    at.button(key="exam-hand-in").click().run()
    confirm = [b for b in at.button if b.key == "exam-hand-in-confirm"]
    if confirm:
        confirm[0].click().run()
    assert not at.exception, at.exception


def test_the_page_offers_the_presets_and_a_custom_exam(open_app):
    at = open_app(page=PAGE)
    assert at.title[0].value == "Mock exam"
    texts = " ".join(m.value for m in at.markdown)
    assert "20 questions · 30 minutes · pass mark 80%" in texts
    assert "50 questions · 60 minutes · pass mark 80%" in texts
    assert at.button(key="exam-start-ygo-20") and at.button(key="exam-start-pkm-50")
    assert [c.value for c in at.caption if "cards to draw from" in c.value]


def test_a_preset_exam_draws_its_questions_from_its_game(open_app, store):
    at = open_app(page=PAGE)
    at.button(key="exam-start-ygo-20").click().run()
    exam = get_exam(store, at.session_state["mock_exam"].exam_id)
    assert exam.preset == "ygo-20" and exam.total == 20 and len(set(exam.card_ids)) == 20
    assert {CONTENT.cards[c].ruleset for c in exam.card_ids} == {"yugioh-ocg"}
    assert any(m.label == "Time left" and m.value in ("30:00", "29:59") for m in at.metric)


def test_an_answer_is_stored_at_once_without_feedback(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at)
    exam, card = shown_card(at, store)
    answer_right(at, store)
    rows = store.attempts()
    assert len(rows) == 1
    row = rows.iloc[0]
    assert (row["card_id"], row["mode"], row["exam_id"]) == (card.id, "exam", exam.id)
    assert bool(row["correct"])
    assert not at.success and not at.error  # no marks while the exam runs
    assert not any(":material/check_circle:" in m.value for m in at.markdown)
    assert at.session_state["mock_exam"].index == 0  # Save does not skip ahead
    assert any(m.value.startswith("**Question 1 of 2") for m in at.markdown)
    assert any(i.value.startswith("Saved: ") for i in at.info)  # the saved answer, in words
    go_next(at)
    assert any(m.value.startswith("**Question 2 of 2") for m in at.markdown)


def test_handing_in_shows_the_score_and_explains_the_wrong_answer(open_app, store):
    at, exam = handed_in_half_right(open_app, store)
    # One right, one unanswered: 1 of 2 is 50 %, below the 80 % mark.
    # The verdict first, then the unanswered question said to be so.
    assert [e.value for e in at.error] == ["Not passed — 1 of 2 right (50%); the pass mark is 80%.",
                                           "Not answered — the standard answer is below."]
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Score"], metrics["Unanswered"], metrics["Pass mark"]) == ("1 / 2", "1", "80%")
    assert [s.value for s in at.subheader][:2] == ["Score by section", "Wrong answers (1)"]
    sections = at.dataframe[0].value
    assert list(sections["Section"]) == ["Yu-Gi-Oh! OCG › Tardiness"] and list(sections["Score"]) == ["1 / 2"]
    assert any(s.value == escape_markdown(shown_title(exam, 1)) for s in at.subheader)
    assert any("The standard answer" in m.value for m in at.markdown)  # explained as in practice
    closed = get_exam(store, exam.id)
    assert (closed.score, closed.passed) == (1, False)


def test_all_right_passes(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at)
    answer_right(at, store)
    go_next(at)
    answer_right(at, store)
    at.button(key="exam-hand-in").click().run()  # all answered, none flagged: no question asked
    assert [s.value for s in at.success] == ["Passed — 2 of 2 right (100%); the pass mark is 80%."]
    assert "No wrong answers — every question right." in [c.value for c in at.caption]


def test_a_knowledge_question_is_answered_with_its_choices(open_app, store):
    card = next(c for c in CONTENT.knowledge_cards if c.ruleset == "yugioh-ocg")
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    start_exam(store, store.trainee("Aiko").id, "custom", spec, (card.id,), (0,), utc_now())
    at = open_app(page=PAGE)
    at.button(key="exam-resume").click().run()  # (the knowledge category also holds judgement calls)
    wrong = next(c.id for c in card.choices if c.id != card.answer)
    next(r for r in at.radio if r.label == "Your answer").set_value(wrong)
    next(b for b in at.button if b.label == "Save answer").click().run()
    row = store.attempts().iloc[0]
    assert (row["chosen_choice"], row["mode"], bool(row["correct"])) == (wrong, "exam", False)
    assert not at.error
    chosen = next(c.text.en for c in card.choices if c.id == wrong)
    assert [i.value for i in at.info] == [
        f"Saved: {escape_markdown(chosen)}. You can change it until you hand in; it is marked then."]


def test_an_interrupted_exam_is_offered_for_resuming(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at)
    exam, first = shown_card(at, store)
    answer_right(at, store)
    again = open_app(page=PAGE)  # a new session, as after a refresh or a closed tab
    assert any(i.value.startswith("You have an exam in progress: Custom exam — 1 of 2 answered") for i in again.info)
    again.button(key="exam-resume").click().run()
    assert again.session_state["mock_exam"].exam_id == exam.id
    # the same questions, at the first unanswered one (its title hidden until hand-in)
    assert any(m.value == escape_markdown(shown_situation(exam, 1)) for m in again.markdown)
    assert escape_markdown(shown_title(exam, 1)) not in [s.value for s in again.subheader]


def test_a_resumed_variant_question_shows_the_values_drawn_at_the_start(open_app, store):
    card = CONTENT.cards["ygo-variant-tardiness-empty-seat"]
    texts = {seed: show_card(card, seed).situation.en for seed in range(50)}
    seed, other = next((a, b) for a in texts for b in texts if texts[a] != texts[b])
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    start_exam(store, store.trainee("Aiko").id, "custom", spec, (card.id,), (seed,), utc_now())
    at = open_app(page=PAGE)
    at.button(key="exam-resume").click().run()
    shown = [m.value for m in at.markdown]
    assert escape_markdown(texts[seed]) in shown
    assert escape_markdown(texts[other]) not in shown


def test_an_exam_whose_time_ran_out_is_closed_with_the_answers_given(open_app, store):
    trainee = store.trainee("Aiko")
    spec = ExamSpec(questions=2, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    cards = tuple(c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")[:2]
    exam = start_exam(store, trainee.id, "custom", spec, cards, (1, 2), utc_now() - timedelta(minutes=31))
    at = open_app(page=PAGE)
    assert [w.value for w in at.warning] == [
        "Time ran out. The answers you gave count; unanswered questions count as wrong."
    ]
    assert {m.label: m.value for m in at.metric}["Score"] == "0 / 2"
    closed = get_exam(store, exam.id)
    assert closed.timed_out and closed.score == 0
    at.button(key="exam-back").click().run()
    history = at.dataframe[0].value
    assert list(history["Result"]) == ["Not passed"] and list(history["Score"]) == ["0 / 2"]


def test_the_progress_page_lists_the_exams(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at)
    answer_right(at, store)
    hand_in_confirmed(at)
    progress = open_app(page="quiz/ui/pages/progress.py")
    assert any(s.value == "Mock exams" for s in progress.subheader)
    table = progress.dataframe[-1].value
    assert list(table.columns) == ["Started", "Exam", "Score", "Right", "Result"]
    assert list(table["Score"]) == ["1 / 2"] and list(table["Result"]) == ["Not passed"]


def test_a_candidate_at_utc_plus_9_reads_exam_times_on_their_own_clock(open_app, store):
    trainee = store.trainee("Aiko")
    set_time_zone(store, trainee.id, "Asia/Tokyo")
    started = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)  # 08:30 on 1 December in Tokyo
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    start_exam(store, trainee.id, "custom", spec, (CONTENT.scenario_cards[0].id,), (1,), started)
    at = open_app(page=PAGE)  # its time ran out: closed, shown, then listed in the history
    at.button(key="exam-back").click().run()
    history = at.dataframe[0].value
    assert list(history["Started"]) == ["2026-12-01 08:30"]


def test_the_page_in_japanese(open_app):
    at = open_app(lang="ja", page=PAGE)
    assert at.title[0].value == "模擬試験"
    assert any("20問・30分・合格ライン80%" in m.value for m in at.markdown)


def test_an_answer_can_be_changed_until_hand_in_and_the_last_one_counts(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at, questions=1)
    exam, card = shown_card(at, store)
    showing = show_card(card, exam.seeds[0]) if isinstance(card, ScenarioCard) else None
    right = answering.right_answer(CONTENT, card, showing)
    wrong_penalty = next(p.id for p in CONTENT.rulesets[card.ruleset].ladder if p.id != right.penalty)
    answering.fill(at, card, dataclasses.replace(right, penalty=wrong_penalty), button="Save answer")
    assert not bool(store.attempts().iloc[0]["correct"])
    answer_right(at, store, button="Save the change")  # the form stays, to change the answer
    rows = store.attempts()
    assert len(rows) == 1 and bool(rows.iloc[0]["correct"])  # replaced, not added
    again = open_app(page=PAGE)  # after a refresh, the form to change it shows the saved answer
    again.button(key="exam-resume").click().run()
    assert answering.widget(again.radio, "penalty").value == right.penalty
    assert answering.widget(again.selectbox, "infraction").value == right.infraction
    at.button(key="exam-hand-in").click().run()
    assert [s.value for s in at.success] == ["Passed — 1 of 1 right (100%); the pass mark is 80%."]


def test_the_navigator_marks_answered_and_flagged_questions_and_jumps(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at, questions=3)
    exam, _ = shown_card(at, store)
    answer_right(at, store)
    at.button(key=f"exam-flag-{exam.id}-0").click().run()
    pills = at.get("button_group")[0]
    assert list(pills.options) == ["1 ✓⚑", "2", "3"]  # answered and flagged, then two untouched
    assert flagged(store, exam.id) == {exam.card_ids[0]}
    pills.set_value(2).run()  # straight to question 3
    assert at.session_state["mock_exam"].index == 2
    assert any(m.value.startswith("**Question 3 of 3") for m in at.markdown)
    again = open_app(page=PAGE)  # a refresh: the flag is kept
    again.button(key="exam-resume").click().run()
    assert flagged(store, exam.id) == {exam.card_ids[0]}


def test_handing_in_with_unanswered_or_flagged_questions_asks_first(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at)
    exam, _ = shown_card(at, store)
    answer_right(at, store)
    at.button(key="exam-hand-in").click().run()
    assert get_exam(store, exam.id).is_open  # not yet
    assert [w.value for w in at.warning] == [
        "Hand in now? Unanswered: 1 (they count as wrong). Flagged for later: 0."]
    at.button(key="exam-hand-in-cancel").click().run()
    assert get_exam(store, exam.id).is_open and not at.warning
    at.button(key="exam-hand-in").click().run()
    at.button(key="exam-hand-in-confirm").click().run()
    assert not get_exam(store, exam.id).is_open
    assert flagged(store, exam.id) == frozenset()


def test_a_past_exam_is_reopened_from_the_progress_page(open_app, store):
    at, exam = handed_in_half_right(open_app, store)
    progress = open_app(page="quiz/ui/pages/progress.py")
    choice = progress.selectbox(key="exam-reopen")
    assert choice.options[0].endswith("· Custom exam · 1 / 2")
    choice.set_value(exam.id).run()
    progress.button(key="exam-reopen-go").click().run()
    assert not progress.exception, progress.exception
    assert progress.session_state["mock_exam"].result_id == exam.id
    assert progress.title[0].value == "Mock exam"  # in the language of the page it came from
    assert {m.label: m.value for m in progress.metric}["Score"] == "1 / 2"  # the results, on the exam page
    assert "Wrong answers (1)" in [s.value for s in progress.subheader]


def test_hand_in_now_from_the_resume_offer_asks_first_too(open_app, store):
    at = open_app(page=PAGE)
    start_custom(at)
    exam, _ = shown_card(at, store)
    answer_right(at, store)
    again = open_app(page=PAGE)  # a new session: the exam is offered for resuming
    again.button(key="exam-hand-in-now").click().run()
    assert get_exam(store, exam.id).is_open
    assert [w.value for w in again.warning] == ["Hand in now? Unanswered: 1 (they count as wrong). Flagged for later: 0."]
    again.button(key="exam-hand-in-confirm").click().run()
    assert not get_exam(store, exam.id).is_open


def test_handing_in_moves_the_answered_cards_on_and_the_sidebar_counts_again(open_app, store):
    """Exam answers move no review schedule until the exam is closed; then the sidebar's due
    count is counted again, in that same minute."""
    trainee = store.trainee("Aiko")
    tardiness = [CONTENT.cards[card_id] for card_id in card_pool(CONTENT, ["yugioh-ocg"], [TARDINESS])]
    for card in tardiness:  # each answered wrong three hours ago: due again now
        seeding.seed(store, CONTENT, trainee.id, card, False, utc_now() - timedelta(hours=3))
    at = open_app(page=PAGE)
    due = f"Due for review: {len(tardiness)}"
    assert answering.sidebar_due(at).endswith(due)
    start_custom(at)
    answer_right(at, store)
    assert answering.sidebar_due(at).endswith(due)  # stored, but the schedule waits for the exam's end
    hand_in_confirmed(at)
    assert answering.sidebar_due(at).endswith(f"Due for review: {len(tardiness) - 1}")


def test_the_results_show_every_answer_when_asked(open_app, store):
    at, _ = handed_in_half_right(open_app, store)
    assert "Wrong answers (1)" in [s.value for s in at.subheader]  # at first, what there is to learn from
    shown = next(b for b in at.get("button_group") if b.label == "Show")
    assert list(shown.options) == ["Wrong only", "Every answer"]
    shown.set_value(True).run()
    assert not at.exception, at.exception
    assert "Every answer (2)" in [s.value for s in at.subheader]
    labels = [e.label for e in at.expander if e.label.startswith("Question ")]
    assert [label.split(" · ")[0] for label in labels] == ["Question 1", "Question 2"]  # the right one too
    assert [c.value for c in at.caption if c.value.startswith("Open a question to see your answer marked")]


def closed_book_exam(store, minutes_ago: int = 0):
    """A running closed-book exam of one Yu-Gi-Oh! card, started ``minutes_ago``."""
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",), closed_book=True)
    card = CONTENT.scenario_cards[0].id
    return start_exam(store, store.trainee("Aiko").id, "custom", spec, (card,), (1,),
                      utc_now() - timedelta(minutes=minutes_ago))


CLOSED_BOOK = "A closed-book exam is running: Custom exam"


def test_a_closed_book_exam_keeps_the_study_pages_closed_until_it_ends(open_app, store):
    """Practice, Review, Reference and Progress say the exam runs and draw nothing of their own."""
    exam = closed_book_exam(store)
    for page, own in (("practice", "answer-"), ("review", "answer-"), ("reference", "reference-"),
                      ("progress", "progress-")):
        at = open_app(page=f"quiz/ui/pages/{page}.py")
        assert [i.value for i in at.info if i.value.startswith(CLOSED_BOOK)], page
        assert not [w for w in at.main if getattr(w, "key", None) and str(w.key).startswith(own)], page
        assert not at.metric and not at.dataframe and not at.main.radio, page
    at.button(key="exam-closed-book-back").click().run()  # back to the exam, at its question
    assert not at.exception, at.exception
    assert at.session_state["mock_exam"].exam_id == exam.id
    assert any(m.value.startswith("**Question 1 of 1") for m in at.markdown)
    at.switch_page(PAGE).run()  # (AppTest's next run would be the page it came from)
    hand_in_confirmed(at)
    practice = open_app(page="quiz/ui/pages/practice.py")  # handed in: open again
    assert not [i for i in practice.info if i.value.startswith(CLOSED_BOOK)]


def test_an_open_book_exam_or_one_out_of_time_leaves_the_study_pages_open(open_app, store):
    closed_book_exam(store, minutes_ago=31)  # its time ran out
    at = open_app(page="quiz/ui/pages/reference.py")
    assert not [i for i in at.info if i.value.startswith(CLOSED_BOOK)]
    at = open_app(page=PAGE)  # closes it, and shows its results
    at.button(key="exam-back").click().run()
    start_custom(at)  # a custom exam is open book
    reference = open_app(page="quiz/ui/pages/reference.py")
    assert not [i for i in reference.info if i.value.startswith("A closed-book exam")]


def test_a_custom_exam_can_draw_the_cards_not_answered_yet_first(open_app, store):
    trainee = store.trainee("Aiko")
    tardiness = card_pool(CONTENT, ["yugioh-ocg"], [TARDINESS])
    for card_id in tardiness[:-2]:  # all but two answered before
        seeding.seed(store, CONTENT, trainee.id, CONTENT.cards[card_id], True, utc_now() - timedelta(days=1))
    at = open_app(page=PAGE)
    at.toggle(key="exam-custom-unseen-first").set_value(True)
    start_custom(at, questions=2)
    exam, _ = shown_card(at, store)
    assert set(exam.card_ids) == set(tardiness[-2:]) and exam.spec.unseen_first


def test_save_can_go_on_to_the_next_question_and_the_choice_is_kept(open_app, store):
    """With "Go to the next question after saving" on, Save stores the answer and shows the
    next question; the choice stays for the next exam question and after another page."""
    at = open_app(page=PAGE)
    assert any("Start begins the clock at once" in c.value for c in at.caption)
    start_custom(at, questions=3)
    assert any("The clock keeps running if you leave this page" in c.value for c in at.caption)
    at.toggle(key="exam-save-goes-on").set_value(True).run()
    answer_right(at, store)
    assert not at.exception, at.exception
    assert at.session_state["mock_exam"].index == 1
    assert any(m.value.startswith("**Question 2 of 3") for m in at.markdown)
    at.switch_page("quiz/ui/pages/reference.py").run()
    at.switch_page(PAGE).run()
    assert at.toggle(key="exam-save-goes-on").value is True
    answer_right(at, store)
    assert at.session_state["mock_exam"].index == 2
    exam = get_exam(store, at.session_state["mock_exam"].exam_id)
    assert len(exam_answers(store, exam.id)) == 2


def test_an_exam_running_is_said_on_the_study_pages_with_the_way_back(open_app, store):
    """An open-book exam left for another page: the page is drawn, and says the exam runs."""
    at = open_app(page=PAGE)
    start_custom(at)
    for page in ("practice", "progress", "reference"):
        at.switch_page(f"quiz/ui/pages/{page}.py").run()
        assert not at.exception, at.exception
        assert [i.value for i in at.info if i.value.startswith("A mock exam is running: Custom exam")], page
    assert at.main.subheader or at.main.dataframe or at.main.markdown  # Reference is drawn
    at.button(key="exam-closed-book-back").click().run()
    assert any(m.value.startswith("**Question 1 of 2") for m in at.markdown)


def test_the_results_offer_a_round_of_the_questions_missed(open_app, store):
    """As Progress offers its recent mistakes: the wrong and unanswered questions of an exam,
    as a practice round, from its results."""
    at = open_app(page=PAGE)
    start_custom(at, questions=3)
    answer_right(at, store)  # one right, two unanswered
    exam = get_exam(store, at.session_state["mock_exam"].exam_id)
    hand_in_confirmed(at)
    at.button(key=f"exam-practise-missed-{exam.id}").click().run()
    assert not at.exception, at.exception
    assert at.session_state["practice_round"] == list(exam.card_ids[1:])
    assert "Practising 2 cards missed in an exam." in [c.value for c in at.caption]


def test_the_navigator_is_below_the_question(open_app, store):
    """Twenty numbers above the question filled a phone's first screen: the question, its form
    and its buttons come first, the navigator after them."""
    at = open_app(page=PAGE)
    start_custom(at, questions=3)

    def flat(node):
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                yield from flat(child)
        else:
            yield node

    keys = [str(getattr(e, "key", "") or "") for e in flat(at.main)]
    navigator = next(i for i, key in enumerate(keys) if key.startswith("exam-nav-"))
    assert navigator > keys.index("exam-hand-in") > next(i for i, key in enumerate(keys) if key.startswith("exam-flag-"))
