"""A floor call on the practice page: investigated step by step (each step kept at once, so a
new session resumes it), then ruled with the scenario form; the debrief shows the
investigation beside the ruling. And Practice's "Floor calls only"."""

from __future__ import annotations

import pytest

from quiz.db.exams import start_exam
from quiz.db.investigations import steps_taken
from quiz.model.attempt import utc_now
from quiz.training.exams import ExamSpec
from quiz.training.grading import ScenarioAnswer
from tests.floor_calls import floor_call, floor_call_yaml
from tests.ui import answering
from tests.ui.test_judging import page_text, show

CARD = "t-floor-call"
RIGHT = ScenarioAnswer("extra_draw", "warning", ("return_extra_to_top",), None,
                       (("intentional", False), ("identifiable", True)))


@pytest.fixture
def cards(imported_cards):
    apart = floor_call(id="t-floor-call-apart", separate=True)
    apart["steps"].append({"id": "apart", "separate": True, "text": {"ja": "二人を離す。", "en": "Take the players apart."},
                           "reply": {"ja": "二人は別の席に。", "en": "They sit apart."}})
    return imported_cards("floor_calls.yaml", floor_call_yaml(floor_call(), apart))


def step_keys(at) -> set[str]:
    return {str(b.key).rsplit("-step-", 1)[1] for b in at.button if "-step-" in str(b.key)}


def trainee_id(store, name: str = "Aiko") -> int:
    return store.trainee(name).id


def test_a_floor_call_shows_the_call_the_people_and_the_open_steps(open_app, cards):
    at = open_app()
    show(at, CARD)
    text = page_text(at)
    assert "A call to a table: investigate, then rule" in text
    assert "Sato has stopped holding two face-down cards." in text
    assert "Round time 0:00 of 5:00" in text
    assert "Ask Kimura" in text and "Ask Takada" in text and "Look" in text
    assert step_keys(at) == {"kimura-what", "sato-what", "hand", "takada-saw", "sato-leading", "clock"}
    assert not at.selectbox  # the answer form waits for Rule


def test_a_step_taken_shows_its_reply_opens_its_follow_up_and_is_kept(open_app, cards, store):
    at = open_app()
    show(at, CARD)
    answering.take_steps(at, "hand")
    text = page_text(at)
    assert "What you see" in text and "Five in hand, the two held apart." in text
    assert "Round time 1:00 of 5:00" in text
    assert "sleeves" in step_keys(at) and "hand" not in step_keys(at)
    assert steps_taken(store, trainee_id(store), CARD) == ("hand",)
    answering.take_steps(at, "sato-what")
    assert "Sato" in page_text(at) and "I drew one and there were two." in page_text(at)


def test_a_new_session_resumes_the_investigation_with_every_step_taken(open_app, cards):
    at = open_app()
    show(at, CARD)
    answering.take_steps(at, "hand", "sleeves", "kimura-what")
    again = open_app()  # a reload: a new session on the same database
    show(again, CARD)
    text = page_text(again)
    for reply in ("Five in hand, the two held apart.", "The two are stuck together by a stain.", "He drew two."):
        assert reply in text
    assert text.index("Five in hand") < text.index("stuck together") < text.index("He drew two.")
    assert "Round time 2:30 of 5:00" in text
    assert not {"hand", "sleeves", "kimura-what"} & step_keys(again)


def test_ruling_with_nothing_asked_says_so_and_points_back_to_the_table(open_app, cards):
    """The ruling's form opened before any step: the conversation's place said "choose whom to
    ask below", where the form, not the steps, is below."""
    from quiz.model.words import t

    at = open_app()
    show(at, CARD)
    assert t("investigation.nothing_yet", "en") in page_text(at)
    answering.rule(at)
    text = page_text(at)
    assert t("investigation.ruled_unasked", "en") in text and t("investigation.nothing_yet", "en") not in text
    assert any(str(b.key).endswith("-back") for b in at.button)  # Back to the table, which the words name
    for lang in ("en", "ja"):  # the words name the button by its own label
        assert t("investigation.back", lang) in t("investigation.ruled_unasked", lang)


def test_a_call_shown_where_another_call_was_resumes_its_own_steps(open_app, cards):
    """What a session keeps of an investigation belongs to its call as well as its form: a
    call shown under the form of another call (the tests' ``show``; before, one new session
    in eight was first dealt a shipped call) read the other call's steps, none."""
    at = open_app()
    show(at, CARD)
    answering.take_steps(at, "hand", "kimura-what")
    again = open_app()
    show(again, "t-floor-call-apart")  # another call first, under the same form
    assert "Five in hand" not in page_text(again)
    show(again, CARD)
    text = page_text(again)
    assert "Five in hand, the two held apart." in text and "He drew two." in text
    assert not {"hand", "kimura-what"} & step_keys(again)


def test_ruling_stores_the_investigation_and_shows_the_debrief(open_app, cards, store):
    at = open_app()
    card = show(at, CARD)
    answering.take_steps(at, "hand", "sato-leading")
    answering.fill(at, card, RIGHT)
    assert not at.exception, at.exception
    row = store.attempts().iloc[0]
    assert row["investigation"]["steps"] == ["hand", "sato-leading"]
    assert dict(row["investigation"]["evidence"]) == {"intentional": "missed", "identifiable": "gathered"}
    assert steps_taken(store, trainee_id(store), CARD) == ()  # the attempt keeps them
    text = page_text(at).replace("*", "")
    assert [s.value for s in at.success] == ["Right on every part."]
    assert "Round time 1:30 of 5:00: within the budget." in text
    assert "evidence missed: a right finding here was a guess" in text
    assert "Look at the sleeves. · missed" in text and "Count the hand. · taken" in text
    assert "To Sato: Not on purpose, right?" in text
    assert "Better asked: What happened?" in text  # Sato's own open question


def test_taking_the_players_apart_late_is_told(open_app, cards):
    at = open_app(lang="ja")
    card = show(at, "t-floor-call-apart")
    answering.take_steps(at, "kimura-what")
    assert "相手のプレイヤーにも聞こえていました。" in page_text(at)
    answering.take_steps(at, "apart", "sato-what")
    answering.fill(at, card, RIGHT)
    text = page_text(at).replace("*", "")
    assert "プレイヤーを分ける前に質問しました。" in text
    assert "相手のプレイヤーが聞いている前でした質問：" in text and "木村に：何がありましたか？" in text


def test_practice_can_deal_floor_calls_only(open_app, cards):
    at = open_app()
    at.segmented_control(key="practice-pool").set_value("floor_calls").run()
    assert not at.exception, at.exception
    dealt = set()
    for _ in range(4):
        dealt.add(at.session_state["practice"].card)
        at.session_state["practice"].card = None
        at.run()
    cards = at.session_state["shell"].content.cards
    assert dealt and {cards[card_id].kind for card_id in dealt} == {"floor_call"}, dealt
    on_screen = at.session_state["practice"].card
    at.segmented_control(key="practice-pool").set_value("all").run()
    assert at.session_state["practice"].card == on_screen  # widening the pool keeps the card on screen


def test_the_mock_exam_investigates_a_floor_call_per_exam_and_keeps_it_with_the_saved_answer(open_app, cards, store):
    spec = ExamSpec(questions=1, minutes=30, pass_percent=80, rulesets=("yugioh-ocg",))
    exam = start_exam(store, trainee_id(store), "custom", spec, (CARD,), (0,), utc_now())
    at = open_app(page="quiz/ui/pages/exam.py")
    at.button(key="exam-resume").click().run()
    answering.take_steps(at, "hand")
    assert steps_taken(store, trainee_id(store), CARD, exam.id) == ("hand",)
    assert steps_taken(store, trainee_id(store), CARD) == ()  # practice's investigation is another
    card = at.session_state["shell"].content.cards[CARD]
    answering.fill(at, card, RIGHT, button="Save answer")
    assert not at.exception, at.exception
    row = store.attempts().iloc[0]
    assert (row["mode"], row["investigation"]["steps"]) == ("exam", ["hand"])
    assert "Five in hand, the two held apart." in page_text(at)  # the saved answer's steps still shown
    again = open_app(page="quiz/ui/pages/exam.py")  # a refresh: the saved answer's investigation, reopened
    again.button(key="exam-resume").click().run()
    assert "Five in hand, the two held apart." in page_text(again)


def test_i_dont_know_keeps_the_investigation_and_the_next_card_forgets_it(open_app, cards, store):
    at = open_app()
    show(at, CARD)
    answering.take_steps(at, "clock")
    next(b for b in at.button if str(b.key).endswith("-dont-know")).click().run()
    assert not at.exception, at.exception
    row = store.attempts().iloc[0]
    assert (bool(row["correct"]), row["investigation"]["steps"]) == (False, ["clock"])
    assert "Your investigation" in page_text(at)
    form_key = at.session_state["investigation-form"]
    at.session_state["practice"].deal("t-floor-call-apart")  # the next floor call: its form of its own
    at.run()
    assert at.session_state["investigation-form"] != form_key  # one investigation's keys at a time
    assert f"{form_key}-steps" not in at.session_state
