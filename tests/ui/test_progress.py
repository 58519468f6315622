"""The progress page with an empty and a full history."""

from __future__ import annotations

import dataclasses
import datetime as dt

from quiz.model.attempt import AttemptRecord
from quiz.training.pools import card_pool
from tests.recording import record
from tests.shipped_content import shipped_content
from tests.ui.chart_data import chart_with

CONTENT = shipped_content()


def _record(trainee_id: int, card_id: str, correct: bool, days_ago: int, chosen: str, standard: str) -> AttemptRecord:
    card = CONTENT.cards[card_id]
    result = "correct" if correct else "wrong"
    return AttemptRecord(
        trainee_id=trainee_id, card_id=card_id, ruleset=card.ruleset, category="tardiness", card_kind="scenario",
        mode="practice", chosen_infraction="tardiness", standard_infraction="tardiness", chosen_penalty=chosen,
        standard_penalty=standard, chosen_fixes=(), standard_fixes=(), chosen_choice=None, correct_choice=None,
        infraction_result="correct", penalty_result=result, fixes_result="correct", correct=correct,
        penalty_steps=0 if correct else -1, seconds=12.0,
        answered_at=dt.datetime.now(dt.UTC) - dt.timedelta(days=days_ago),
    )


def test_empty_history_shows_a_start_message(open_app):
    at = open_app(page="quiz/ui/pages/progress.py")
    assert at.title[0].value == "Progress"
    assert [i.value for i in at.info] == ["No answers yet. Practise a few cards and your progress shows up here."]
    assert not at.metric


def test_full_history_shows_figures_and_mistakes(open_app, store):
    from quiz.db.goals import set_daily_goal

    trainee = store.trainee("Aiko")
    set_daily_goal(store, trainee.id, 1)  # (never set: ten cards a day)
    other = store.trainee("Ben")
    ygo_cards = [c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg"][:3]
    record(store, _record(trainee.id, ygo_cards[0], True, 2, "warning", "warning"))
    record(store, _record(trainee.id, ygo_cards[1], False, 1, "warning", "duel_loss"))
    record(store, _record(trainee.id, ygo_cards[2], True, 0, "match_loss", "match_loss"))
    record(store, _record(other.id, ygo_cards[0], False, 0, "caution", "warning"))  # not Aiko's
    at = open_app(page="quiz/ui/pages/progress.py")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Answered"] == "3"
    assert metrics["Accuracy"] == "67%"
    assert metrics["Current streak"] == "3 days"
    assert metrics["Too lenient"] == "1" and metrics["Too harsh"] == "0"
    mistakes = at.dataframe[0].value
    assert list(mistakes["Card"]) == [CONTENT.cards[ygo_cards[1]].title.en]
    button = next(b for b in at.button if b.label.startswith("Practise these"))
    assert button.label == "Practise these cards (1)"
    button.click().run()
    assert at.session_state["practice_round"] == [ygo_cards[1]]


def test_progress_in_japanese(open_app, store):
    trainee = store.trainee("Aiko")
    card = CONTENT.scenario_cards[0].id
    record(store, _record(trainee.id, card, True, 0, "warning", "warning"))
    at = open_app(lang="ja", page="quiz/ui/pages/progress.py")
    assert at.title[0].value == "成績"
    assert {m.label for m in at.metric} >= {"回答数", "正答率"}


def test_the_trainee_sees_their_own_days_and_can_change_the_zone(open_app, store):
    """A trainee kept in Asia/Tokyo: a mistake at 23:30 UTC shows at 08:30 the next day; choosing
    another zone on the page keeps it."""
    from quiz.db.time_zones import set_time_zone, time_zone_of

    trainee = store.trainee("Aiko")
    set_time_zone(store, trainee.id, "Asia/Tokyo")
    card = next(c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")
    late = _record(trainee.id, card, False, 0, "warning", "duel_loss")
    late = AttemptRecord(**{**{f: getattr(late, f) for f in late.__dataclass_fields__},
                            "answered_at": dt.datetime(2026, 11, 30, 23, 30, tzinfo=dt.UTC)})
    record(store, late)
    at = open_app(page="quiz/ui/pages/progress.py")
    [zone] = [box for box in at.selectbox if box.label == "Time zone of my days"]
    assert zone.value == "Asia/Tokyo"
    mistakes = at.dataframe[0].value
    assert list(mistakes["Answered"]) == ["2026-12-01 08:30"]
    zone.select("Europe/Paris").run()
    assert time_zone_of(store, trainee.id) == "Europe/Paris"
    assert list(at.dataframe[0].value["Answered"]) == ["2026-12-01 00:30"]


def test_a_daily_goal_set_on_the_page_decides_the_streak(open_app, store):
    from quiz.db.goals import daily_goal, set_daily_goal

    trainee = store.trainee("Aiko")
    set_daily_goal(store, trainee.id, 1)
    cards = [c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg"][:3]
    for days_ago, card in ((1, cards[0]), (0, cards[1]), (0, cards[2])):  # one yesterday, two today
        record(store, _record(trainee.id, card, True, days_ago, "warning", "warning"))
    at = open_app(page="quiz/ui/pages/progress.py")
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Today"], metrics["Current streak"]) == ("2 / 1", "2 days")
    at.number_input(key="progress-goal").set_value(2).run()
    assert daily_goal(store, trainee.id) == 2
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Today"], metrics["Current streak"]) == ("2 / 2", "1 day")  # yesterday's one card is short


def _with_findings(trainee_id: int, card_id: str, *findings: tuple[str, bool], follows: bool | None = None):
    """An answer to a card with findings (fact, right); ``follows`` given: a wrong penalty, told
    apart by it (true: it follows from the trainee's own findings)."""
    from quiz.model.attempt import FindingRecord

    base = _record(trainee_id, card_id, follows is None, 0, "warning", "warning" if follows is None else "duel_loss")
    return AttemptRecord(**{**{f: getattr(base, f) for f in base.__dataclass_fields__},
                            "findings": tuple(FindingRecord(fact, right, True, right) for fact, right in findings),
                            "penalty_follows_findings": follows})


def _fact(fact: str, language: str = "en") -> str:
    return next(f for f in CONTENT.rulesets["yugioh-ocg"].facts if f.id == fact).name.get(language)


def test_findings_show_each_fact_and_the_wrong_penalties_told_apart(open_app, store):
    from quiz.db.answers import save_answer

    trainee = store.trainee("Aiko")
    cards = [c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg"][:3]
    save_answer(store, _with_findings(trainee.id, cards[0], ("intentional", False), ("decisive", True), follows=True))
    save_answer(store, _with_findings(trainee.id, cards[1], ("intentional", True), follows=False))
    save_answer(store, _with_findings(trainee.id, cards[2], ("intentional", True), ("decisive", True)))
    at = open_app(page="quiz/ui/pages/progress.py")
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Findings right"], metrics["Misjudged the facts"], metrics["Misapplied the document"]) == (
        "80%", "1", "1")
    headings = [s.value for s in at.subheader]
    assert {"Findings", "Findings right, by fact (weakest first)", "Wrong penalties on cards with findings"} <= set(
        headings)
    by_fact = chart_with(at, "fact")  # the accuracy bars: one per fact, by the ruleset's name
    assert dict(zip(by_fact["fact"], by_fact["answered"])) == {_fact("intentional"): 3, _fact("decisive"): 2}
    causes = chart_with(at, "cause")
    assert dict(zip(causes["cause"], causes["count"])) == {"Misjudged the facts": 1, "Misapplied the document": 1}
    assert "No cards with findings answered yet." not in [c.value for c in at.caption]


def test_without_findings_the_page_says_so_plainly(open_app, store):
    trainee = store.trainee("Aiko")
    card = next(c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")
    record(store, _record(trainee.id, card, False, 0, "warning", "duel_loss"))  # a card without findings
    at = open_app(page="quiz/ui/pages/progress.py")
    assert "Findings" in [s.value for s in at.subheader]
    assert "No cards with findings answered yet." in [c.value for c in at.caption]
    assert not {"Findings right", "Misjudged the facts"} & {m.label for m in at.metric}
    assert "Wrong penalties on cards with findings" not in [s.value for s in at.subheader]


def test_findings_in_japanese(open_app, store):
    from quiz.db.answers import save_answer

    trainee = store.trainee("Aiko")
    card = next(c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg")
    save_answer(store, _with_findings(trainee.id, card, ("intentional", False), follows=True))
    at = open_app(lang="ja", page="quiz/ui/pages/progress.py")
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["認定の正答率"], metrics["事実の見誤り"], metrics["規定の当てはめの誤り"]) == ("0%", "1", "0")
    by_fact = chart_with(at, "fact")
    assert list(by_fact["fact"]) == [_fact("intentional", "ja")]


def test_exam_answers_are_counted_apart_from_practice(open_app, store):
    """Progress counts every answer, or only practice (and review), or only mock exams."""
    trainee = store.trainee("Aiko")
    cards = [c.id for c in CONTENT.scenario_cards if c.ruleset == "yugioh-ocg"][:3]
    record(store, _record(trainee.id, cards[0], True, 0, "warning", "warning"))
    record(store, _record(trainee.id, cards[1], False, 0, "warning", "duel_loss"))
    exam_answer = _record(trainee.id, cards[2], False, 0, "caution", "warning")
    record(store, dataclasses.replace(exam_answer, mode="exam"))
    at = open_app(page="quiz/ui/pages/progress.py")
    source = next(b for b in at.get("button_group") if b.label == "Answers from")
    assert list(source.options) == ["Practice and exams", "Practice and review", "Mock exams"]
    assert {m.label: m.value for m in at.metric}["Answered"] == "3"
    source.set_value("exam").run()
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Answered"], metrics["Accuracy"]) == ("1", "0%")
    source = next(b for b in at.get("button_group") if b.label == "Answers from")
    source.set_value("practice").run()
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Answered"], metrics["Accuracy"]) == ("2", "50%")


def test_the_page_opens_on_what_to_practise_and_keeps_the_settings_last(open_app, store):
    """On a phone the page opened on the time zone, the goal and a column of single figures:
    readiness, the weakest areas (each a round of its cards) and the mistakes come first,
    the settings last."""
    trainee = store.trainee("Aiko")
    tardiness = card_pool(CONTENT, ["yugioh-ocg"], ["yugioh-ocg/tardiness"])[:3]  # (recorded as tardiness)
    for n, card in enumerate(tardiness):
        record(store, _record(trainee.id, card, n == 0, 0, "warning", "warning" if n == 0 else "duel_loss"))
    at = open_app(page="quiz/ui/pages/progress.py")
    subheaders = [s.value for s in at.main.subheader]
    assert subheaders.index("What to practise now") < subheaders.index("Accuracy over time")
    assert any("33% right of 3 answers" in m.value for m in at.markdown), [m.value for m in at.markdown]
    texts = [m.value for m in at.main.markdown]
    settings = next(i for i, text in enumerate(texts) if "Settings: time zone and daily goal" in text)
    assert settings > next(i for i, text in enumerate(texts) if "33% right of 3 answers" in text)  # last
    assert at.selectbox(key="progress-time-zone") and at.number_input(key="progress-goal")
    next(b for b in at.button if b.label == "Practise").click().run()
    assert at.session_state["practice_round"] == list(card_pool(CONTENT, ["yugioh-ocg"], ["yugioh-ocg/tardiness"]))
