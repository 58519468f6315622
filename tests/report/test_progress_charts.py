"""The progress charts as Vega-Lite specs: what each chart shows, in the chosen language."""

from __future__ import annotations

import datetime as dt
import json

from quiz.db.store import Store
from quiz.model.attempt import AttemptRecord
from quiz.report.progress import progress_figures
from quiz.report.progress_charts import progress_charts
from tests.recording import record

RULESETS = ("yugioh-ocg", "pokemon-card-ja")


def _data(spec) -> list[dict]:
    return [row for rows in spec.get("datasets", {}).values() for row in rows]


def test_charts_show_the_figures_in_the_language(db_url, content):
    store = Store(db_url)
    trainee = store.trainee("Aiko").id
    record(store, AttemptRecord(trainee_id=trainee, card_id="c1", ruleset="yugioh-ocg", category="tardiness",
                               card_kind="scenario", chosen_penalty="caution", standard_penalty="warning",
                               infraction_result="correct", penalty_result="wrong", fixes_result="correct",
                               penalty_steps=-1, correct=False, seconds=5.0))
    record(store, AttemptRecord(trainee_id=trainee, card_id="k1", ruleset="pokemon-card-ja", category=None,
                               card_kind="knowledge", correct=True, seconds=5.0))
    figures = progress_figures(store, trainee, RULESETS, dt.datetime.now(dt.UTC).date())
    english = progress_charts(figures, content, "en")
    parts = {row["part"]: row["accuracy"] for row in _data(english["by_part"])}
    assert parts == {"Infraction": 1.0, "Penalty": 0.0, "Fix": 1.0}
    categories = {row["category_key"] for row in _data(english["by_category"])}
    assert categories == {"Yu-Gi-Oh! OCG › Tardiness", "Pokémon TCG › Knowledge"}
    assert [(r["standard"], r["chosen"]) for r in _data(english["confusion"]) if r["count"]] == [("Warning", "Caution")]
    assert [(r["steps"], r["count"]) for r in _data(english["leniency"])] == [(-1, 1)]
    japanese = progress_charts(figures, content, "ja")
    assert {row["part"] for row in _data(japanese["by_part"])} == {"違反", "罰則", "処置"}
    json.dumps(english)  # plain JSON, ready to render or cache
    store.dispose()


def test_nothing_to_draw_is_none(db_url, content):
    store = Store(db_url)
    trainee = store.trainee("Ben").id
    record(store, AttemptRecord(trainee_id=trainee, card_id="k1", ruleset="pokemon-card-ja", category=None,
                               card_kind="knowledge", correct=True, seconds=5.0))
    figures = progress_figures(store, trainee, RULESETS, dt.datetime.now(dt.UTC).date())
    specs = progress_charts(figures, content, "en")
    assert specs["confusion"] is None and specs["leniency"] is None and specs["over_time"] is not None
    store.dispose()


def _date_formats(spec) -> tuple[str, list[str]]:
    """The accuracy-over-time chart's date axis format and its tooltips' date formats."""
    layers = spec["layer"]
    axis = layers[0]["encoding"]["x"]["axis"]["format"] if "encoding" in layers[0] else spec["encoding"]["x"]["axis"]["format"]
    tooltips = [tip.get("format", "") for layer in layers for tip in layer["encoding"].get("tooltip", [])
                if tip.get("type") == "temporal"]
    return axis, tooltips


def test_dates_are_written_in_the_pages_language(db_url, content):
    """Vega writes month and day names in English unless told a format: a Japanese page's
    chart says 11月30日, not Nov 30."""
    store = Store(db_url)
    trainee = store.trainee("Aiko").id
    record(store, AttemptRecord(trainee_id=trainee, card_id="k1", ruleset="pokemon-card-ja", category=None,
                               card_kind="knowledge", correct=True, seconds=5.0))
    figures = progress_figures(store, trainee, RULESETS, dt.datetime.now(dt.UTC).date())
    axis, tooltips = _date_formats(progress_charts(figures, content, "ja")["over_time"])
    assert axis == "%-m月%-d日" and tooltips == ["%Y年%-m月%-d日"]
    assert not any(name in axis + "".join(tooltips) for name in ("%b", "%B", "%a", "%A"))  # no English names
    axis, tooltips = _date_formats(progress_charts(figures, content, "en")["over_time"])
    assert axis == "%b %-d" and tooltips == ["%a %-d %b %Y"]
