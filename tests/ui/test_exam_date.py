"""The exam date on Progress: a date per game in the sidebar, kept; the forecast for the day
is the core's by the game's exam blueprint, in both languages."""

from __future__ import annotations

from datetime import timedelta

from quiz.db import reviews as review_store
from quiz.db.exam_dates import exam_days
from quiz.model.attempt import utc_now
from quiz.training.exam_dates import exam_start, game_forecast
from quiz.training.presets import load_presets
from tests.shipped_content import shipped_content
from tests.ui.seeding import seed

CONTENT = shipped_content()
PAGE = "quiz/ui/pages/progress.py"
GAME = "pokemon-card-ja"


def exam_date_input(at, game_name: str):
    return next(widget for widget in at.date_input if widget.label.startswith(game_name))


def test_setting_an_exam_date_keeps_it_and_shows_the_forecast_by_the_blueprint(open_app, store):
    trainee = store.trainee("Aiko")
    cards = [card for card in CONTENT.knowledge_cards if card.ruleset == GAME][:3]
    for card in cards:
        seed(store, CONTENT, trainee.id, card, True, utc_now() - timedelta(days=2))
    at = open_app(page=PAGE)
    assert "Exam date" in [s.value for s in at.subheader]
    name = CONTENT.rulesets[GAME].document.short_name.get("en")
    day = (utc_now() + timedelta(days=30)).date()
    exam_date_input(at, name).set_value(day).run()
    assert not at.exception, at.exception

    assert exam_days(store, trainee.id)[GAME] == day
    presets, _ = load_presets(set(CONTENT.rulesets), content=CONTENT)
    expected = game_forecast(CONTENT, presets, GAME, review_store.schedules(store, trainee.id),
                             exam_start(day, "UTC"))
    assert expected is not None and 0 < expected.readiness < 1
    metric = next(m for m in at.metric if m.label == f"Readiness on {day.isoformat()}")
    assert metric.value == f"{expected.readiness:.0%}"
    assert any(c.value == "30 days to go." for c in at.caption)
    table = at.dataframe[-1].value
    assert list(table["Questions"]) == [section.questions for section in expected.sections]

    at = open_app(page=PAGE, lang="ja")  # kept: drawn again, in Japanese
    assert "試験日" in [s.value for s in at.subheader]
    assert any(m.label == f"{day.isoformat()} の準備度" for m in at.metric)

    exam_date_input(at, CONTENT.rulesets[GAME].document.short_name.get("ja")).set_value(None).run()
    assert GAME not in exam_days(store, trainee.id)
    assert not any(m.label.endswith("の準備度") for m in at.metric)
